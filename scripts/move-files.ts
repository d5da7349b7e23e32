// Moves files in a git repo and fixes every relative specifier and repo-relative path mention.
// Usage: npx tsx scripts/move-files.ts <repo> <mapping-file> (mapping: "old new" per line,
// repo-relative; lines whose old path does not exist are skipped and listed). Used for the
// concept folders of src/client and plugins/rest and the tests' mirror of src/ (issue 30).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, statSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const [repo = '.', mappingFile = ''] = process.argv.slice(2);
process.chdir(repo);
const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
const trackedSet = new Set(tracked);
const map = new Map<string, string>();
for (const line of readFileSync(mappingFile, 'utf8').split('\n')) {
  const t = line.trim();
  if (!t || t.startsWith('#')) continue;
  const [from = '', to = ''] = t.split(/\s+/);
  if (!trackedSet.has(from)) {
    console.log('skip (absent):', from);
    continue;
  }
  if (trackedSet.has(to)) throw new Error(`target exists: ${to}`);
  map.set(from, to);
}
const mapPath = (p: string): string => map.get(p) ?? p;
const codeExt = /\.(ts|mts|cts|js|mjs|cjs)$/;
const isText = (f: string): boolean =>
  /\.(ts|mts|cts|js|mjs|cjs|json|md|ya?ml|sh|txt|html|css)$/.test(f) ||
  /(^|\/)(Dockerfile|Containerfile|run)$/.test(f) ||
  f.startsWith('.ci/') ||
  /(^|\/)\.[\w.-]+$/.test(f);

// Resolve a relative specifier from a file (old tree) to a tracked file, returning [target, style].
function resolveSpec(fromFile: string, spec: string): [string, string] | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const candidates: Array<[string, string]> = [];
  if (/\.js$/.test(base)) candidates.push([base.replace(/\.js$/, '.ts'), 'js'], [base, 'same']);
  else if (/\.(ts|json|mjs|cjs|md|html|css)$/.test(base)) candidates.push([base, 'same']);
  else candidates.push([base + '.ts', 'none'], [base + '/index.ts', 'dir'], [base, 'same']);
  for (const [c, style] of candidates) if (trackedSet.has(c)) return [c, style];
  return null;
}
function specFor(fromNew: string, targetNew: string, style: string): string {
  let rel = path.posix.relative(path.posix.dirname(fromNew), targetNew);
  if (!rel.startsWith('.')) rel = './' + rel;
  if (style === 'js') rel = rel.replace(/\.ts$/, '.js');
  else if (style === 'none') rel = rel.replace(/\.ts$/, '');
  else if (style === 'dir') rel = rel.replace(/\/index\.ts$/, '');
  return rel;
}

let specEdits = 0,
  textEdits = 0;
// Path mentions: one pass, longest stem first, not followed by a word char, '-' or '/'.
const stems = new Map(
  [...map.entries()].map(([from, to]) => [from.replace(codeExt, ''), to.replace(codeExt, '')]),
);
const escape = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = [...stems.keys()]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');
const mention = new RegExp(`(?<![\\w./-])(${alternatives})(?![\\w/-])`, 'g');
for (const file of tracked) {
  if (!isText(file) || !existsSync(file) || statSync(file).isDirectory()) continue;
  const original = readFileSync(file, 'utf8');
  let text = original;
  const fileNew = mapPath(file);
  if (codeExt.test(file)) {
    text = text.replace(/(['"])(\.\.?\/[^'"\n]*)\1/g, (whole: string, q: string, spec: string) => {
      const r = resolveSpec(file, spec);
      if (!r) return whole;
      const [target, style] = r;
      const next = specFor(fileNew, mapPath(target), style);
      if (next === spec) return whole;
      specEdits++;
      return q + next + q;
    });
  }
  text = text.replace(mention, (stem: string) => {
    textEdits++;
    return stems.get(stem) ?? stem;
  });
  if (text !== original) writeFileSync(file, text);
}
for (const [from, to] of map) {
  mkdirSync(path.dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to]);
}
console.log(`moved ${map.size} files, ${specEdits} specifiers, ${textEdits} path mentions`);
