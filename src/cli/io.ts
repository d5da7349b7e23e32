/** Where the CLI writes: process streams by default, buffers in tests. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** `CONFIG_INVALID` and friends as the lines a person reads: the message, then every issue. */
export function describeError(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const e = error as { code?: string; message: string };
    return e.code ? `${e.message} [${e.code}]` : e.message;
  }
  return String(error);
}
