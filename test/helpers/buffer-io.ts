import type { CliIo } from '../../src/cli/io.js';

/** A CLI io that collects what the CLI prints (stdout and stderr, in order). */
export function bufferIo(): CliIo & { text: () => string } {
  const lines: string[] = [];
  return {
    out: (t) => void lines.push(t),
    err: (t) => void lines.push(t),
    text: () => lines.join('\n'),
  };
}
