import { z } from 'zod';
import type { ErrorIssue } from '../errors/index.js';

/** Built-in plugins: a top-level key named like one is probably meant under `plugins`. */
const BUILT_IN_PLUGINS = ['rest', 'auto-reply', 'forwarder', 'media-saver', 'ai'];

/** Edit distance (insert, delete, substitute, swap of neighbours), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        best = Math.min(best, d[i - 2][j - 2] + 1);
      }
      d[i][j] = best;
    }
  }
  return d[s.length][t.length];
}

/** The candidate closest to `word` when it is close enough to be a typo; else undefined. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * A config path as a person writes it: `plugins.auto-reply.rules.0.match`, with keys that are not
 * plain words in brackets: `plugins["./plugins/hello.ts"].greting`.
 */
export function formatPath(keys: readonly PropertyKey[]): string {
  let out = '';
  for (const key of keys) {
    const text = String(key);
    out += /^[\w$-]+$/.test(text) ? `${out ? '.' : ''}${text}` : `[${JSON.stringify(text)}]`;
  }
  return out;
}

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/** The JSON Schema nodes that describe the value at `path` (several when a union is crossed). */
function nodesAt(root: JsonSchema, path: readonly PropertyKey[]): JsonSchema[] {
  const expand = (node: JsonSchema): JsonSchema[] => {
    if (node.$ref?.startsWith('#/$defs/')) {
      const target = root.$defs?.[node.$ref.slice('#/$defs/'.length)];
      return target ? expand(target) : [];
    }
    const variants = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
    return [node, ...variants.flatMap(expand)];
  };
  let nodes = expand(root);
  for (const key of path) {
    nodes = nodes.flatMap((node) => {
      if (typeof key === 'number') return node.items ? expand(node.items) : [];
      const prop = node.properties?.[String(key)];
      if (prop) return expand(prop);
      if (node.additionalProperties && typeof node.additionalProperties === 'object') {
        return expand(node.additionalProperties);
      }
      return [];
    });
  }
  return nodes;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') {
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  }
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value;
}

const A: Record<string, string> = {
  number: 'a number',
  string: 'a text (string)',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  int: 'a whole number',
};

const quote = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * zod's issues as sentences a person reads, with the path, and "did you mean" for misspelt keys
 * and values. `schema` is the zod schema `input` was checked against; `prefix` is prepended to
 * every path (e.g. `plugins.rest`).
 */
export function friendlyIssues(
  error: z.ZodError,
  schema: z.ZodType,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): ErrorIssue[] {
  let jsonSchema: JsonSchema | undefined;
  const json = (): JsonSchema => {
    try {
      jsonSchema ??= z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    } catch {
      jsonSchema = {}; // a plugin's schema JSON Schema cannot describe: no key suggestions
    }
    return jsonSchema;
  };
  const at = (path: readonly PropertyKey[]) => formatPath([...prefix, ...path]);
  const out: ErrorIssue[] = [];
  for (const issue of error.issues) {
    const value = valueAt(input, issue.path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        // a schema's own message (e.g. "engine.maxRestarts moved to reconnect.maxAttempts") wins
        if (!issue.message.startsWith('Unrecognized key')) {
          out.push({ path: at(issue.path), message: issue.message });
          break;
        }
        const known = [
          ...new Set(nodesAt(json(), issue.path).flatMap((n) => Object.keys(n.properties ?? {}))),
        ];
        for (const key of issue.keys) {
          const guess = didYouMean(key, known);
          const plugin =
            issue.path.length === 0 && prefix.length === 0
              ? didYouMean(key, BUILT_IN_PLUGINS)
              : undefined;
          const hint = guess
            ? `: did you mean "${guess}"?`
            : plugin
              ? `: did you mean the plugin "${plugin}", under "plugins"?`
              : known.length > 0
                ? ` (known keys: ${known.join(', ')})`
                : '';
          out.push({ path: at([...issue.path, key]), message: `unknown key "${key}"${hint}` });
        }
        break;
      }
      case 'invalid_union': {
        const options = (issue as { options?: unknown[] }).options;
        const discriminator = (issue as { discriminator?: string }).discriminator;
        if (options && discriminator) {
          const guess =
            typeof value === 'string' ? didYouMean(value, options.map(String)) : undefined;
          out.push({
            path: at(issue.path),
            message:
              `${value === undefined ? `"${discriminator}" is missing` : `${describe(value)} is not a known ${discriminator}`}: ` +
              `use one of ${quote(options)}${guess ? ` (did you mean "${guess}"?)` : ''}`,
          });
        } else {
          out.push({
            path: at(issue.path),
            message: `does not match any accepted form (${issue.message})`,
          });
        }
        break;
      }
      case 'invalid_value': {
        const guess =
          typeof value === 'string' ? didYouMean(value, issue.values.map(String)) : undefined;
        out.push({
          path: at(issue.path),
          message: `${describe(value)} is not allowed: use one of ${quote(issue.values)}${guess ? ` (did you mean "${guess}"?)` : ''}`,
        });
        break;
      }
      case 'invalid_type':
        out.push({
          path: at(issue.path),
          message:
            value === undefined
              ? `is required (${A[issue.expected] ?? issue.expected})`
              : `must be ${A[issue.expected] ?? issue.expected}, not ${describe(value)}`,
        });
        break;
      case 'too_small':
      case 'too_big': {
        const small = issue.code === 'too_small';
        const limit = Number(small ? issue.minimum : issue.maximum);
        const bound = small
          ? issue.inclusive
            ? 'at least'
            : 'more than'
          : issue.inclusive
            ? 'at most'
            : 'less than';
        const unit =
          issue.origin === 'string'
            ? ` characters long`
            : issue.origin === 'array' || issue.origin === 'set'
              ? ` item${limit === 1 ? '' : 's'}`
              : '';
        const what = issue.origin === 'array' ? 'needs' : 'must be';
        out.push({
          path: at(issue.path),
          message: `${what} ${bound} ${limit}${unit}${issue.origin === 'number' || issue.origin === 'int' ? ` (got ${String(value)})` : ''}`,
        });
        break;
      }
      default:
        out.push({ path: at(issue.path), message: issue.message });
    }
  }
  return out;
}

/**
 * A JSON syntax error's place as 1-based line and column, from V8's message: "(line L column C)"
 * (newer Node), "at position N", a quoted excerpt around the bad token (Node 20), or the end of
 * the text for "Unexpected end of JSON input".
 */
export function jsonErrorLocation(text: string, message: string): { line: number; column: number } {
  const direct = /line (\d+) column (\d+)/.exec(message);
  if (direct) return { line: Number(direct[1]), column: Number(direct[2]) };
  let offset = text.length;
  const position = /at position (\d+)/.exec(message);
  const token =
    /^Unexpected token '(.)', (?:\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(message);
  if (position) {
    offset = Number(position[1]);
  } else if (token) {
    const [, bad = '', excerpt = ''] = token;
    const at = text.indexOf(excerpt);
    // V8 quotes up to 10 characters before the bad token (fewer at the start of the text)
    const inExcerpt = at < 0 ? -1 : excerpt.indexOf(bad, Math.min(10, at));
    if (at >= 0 && inExcerpt >= 0) offset = at + inExcerpt;
  }
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}
