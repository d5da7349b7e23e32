import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the wakit package (the directory with its package.json), from sources or dist. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'templates')))
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the wakit package root');
    dir = parent;
  }
}

/** True when wakit runs from its own source checkout (not from an installed package). */
export function isSourceCheckout(root = packageRoot()): boolean {
  return (
    existsSync(path.join(root, 'src', 'index.ts')) && !root.split(path.sep).includes('node_modules')
  );
}
