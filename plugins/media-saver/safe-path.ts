import path from 'node:path';

/** Longest file-name part a placeholder may produce (file systems allow 255 bytes per name). */
export const MAX_PART = 80;
const MAX_SEGMENT = 200;

/**
 * Makes one placeholder value safe as (part of) a file name: only `A-Z a-z 0-9 . _ -` survive
 * (path separators, NUL, control and other characters become `_`), runs of dots collapse, no
 * leading dot or dash, at most `max` characters; never empty.
 */
export function sanitizePart(value: string, max = MAX_PART): string {
  const cleaned = value
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+/, '')
    .slice(0, max)
    .replace(/[.]+$/, '');
  return cleaned || '_';
}

export const PATH_PLACEHOLDERS = [
  'date',
  'time',
  'chat',
  'sender',
  'id',
  'ext',
  'type',
  'filename',
  'client',
] as const;
export type PathValues = Record<(typeof PATH_PLACEHOLDERS)[number], string>;

/** Checks a `path` template from the options: relative, no `..`, known placeholders only. */
export function templateProblem(template: string): string | undefined {
  if (path.isAbsolute(template) || /^[A-Za-z]:/.test(template)) return 'must be a relative path';
  if (template.includes('\0')) return 'must not contain NUL';
  const segments = template.split(/[/\\]/);
  if (segments.some((s) => s === '..' || s === '.' || s === ''))
    return 'must not contain empty, "." or ".." segments';
  for (const [, name] of template.matchAll(/\{([^}]*)\}/g)) {
    if (!(PATH_PLACEHOLDERS as readonly string[]).includes(name ?? '')) {
      return `unknown placeholder {${name}} (use ${PATH_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`;
    }
  }
  return undefined;
}

/**
 * Builds the file path for a message inside `dir` from the template, each placeholder value
 * sanitised. Throws if the result would leave `dir` (it cannot, but this is checked anyway).
 */
export function buildSafePath(dir: string, template: string, values: PathValues): string {
  const root = path.resolve(dir);
  const relative = template
    .split(/[/\\]/)
    .map((segment) => {
      const filled = segment.replace(/\{([a-z]+)\}/g, (_, name: keyof PathValues) =>
        sanitizePart(values[name] ?? ''),
      );
      return sanitizePart(filled, MAX_SEGMENT);
    })
    .join(path.sep);
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) {
    throw new Error(`refusing to write outside ${root}: ${full}`);
  }
  return full;
}
