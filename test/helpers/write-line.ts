import { writeSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes a line to `fd` synchronously, all of it, before returning: a child's report must be out
 * before a SIGKILL can come. A pipe whose reader lags is full (EAGAIN on the non-blocking stdio
 * pipe): wait 1 ms and write the rest, rather than crash the child (it did under load in CI).
 */
export function writeLine(fd: number, line: string): void {
  let bytes = Buffer.from(line.endsWith('\n') ? line : `${line}\n`);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
