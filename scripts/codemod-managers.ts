/**
 * Rewrites calls of flat client methods to their area managers (`client.rejectCall(id)` →
 * `client.calls.reject(id)`), for the areas declared in src/capabilities/. Receivers named like an
 * engine (`engine.rejectCall`, `h.engine.rejectCall`) are the Engine port, `WWebJS.…` the library
 * page: they stay. Run:
 * `npx tsx scripts/codemod-managers.ts test docs README.md` and commit its output with the result.
 */
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Flat method → `area.method`: one row per ported capability. */
export const RENAMES: ReadonlyMap<string, string> = new Map([['rejectCall', 'calls.reject']]);

const FILES = /\.(ts|md|js)$/;

async function* walk(entry: string): AsyncGenerator<string> {
  if ((await stat(entry)).isFile()) {
    if (FILES.test(entry)) yield entry;
    return;
  }
  for (const name of await readdir(entry)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    yield* walk(path.join(entry, name));
  }
}

/** The text with every `<receiver>.<flat>(` of a client rewritten; and how many were. */
export function rewrite(text: string): { text: string; count: number } {
  let count = 0;
  const out = text.replace(/([\w$\])]+)\.(\w+)\(/g, (whole, receiver: string, method: string) => {
    const target = RENAMES.get(method);
    if (!target || /(engine|WWebJS)$/i.test(receiver)) return whole;
    count += 1;
    return `${receiver}.${target}(`;
  });
  return { text: out, count };
}

async function main(roots: string[]): Promise<void> {
  let total = 0;
  for (const root of roots) {
    for await (const file of walk(root)) {
      const before = await readFile(file, 'utf8');
      const { text, count } = rewrite(before);
      if (count === 0) continue;
      await writeFile(file, text);
      total += count;
      console.log(`${file}: ${count}`);
    }
  }
  console.log(`${total} call sites rewritten`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
