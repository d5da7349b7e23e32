/**
 * Unminified page errors. Puppeteer turns an exception thrown in the page into `<constructor
 * name>: <description>`, and WhatsApp Web's minified error classes make that `r: r` / `t: t`:
 * the real name, message and the page-side stack are lost at the CDP boundary. wakit wraps every
 * page function whatsapp-web.js (and wakit) evaluates: in the page, an exception is described
 * (name, message, constructor, own fields, stack, causes) and thrown as a marked string; on the Node side it
 * becomes a `PageError` carrying all of it. Strings evaluated as expressions are left alone.
 */

/** Marks a described page exception (a string primitive crosses CDP intact). */
export const PAGE_ERROR_MARK = '\u0000wakit-page-error\u0000';

/** One exception as the page saw it. */
export interface PageErrorInfo {
  name: string;
  message: string;
  /** The constructor's (often minified) name, when it differs from `name`. */
  constructorName?: string;
  stack?: string;
  /**
   * The error's own fields (WhatsApp Web's custom errors carry `status`, `mediaType`…): own
   * enumerable properties with a string, number, boolean or null value, at most 20, strings cut
   * at 500 characters.
   */
  fields?: Record<string, string | number | boolean | null>;
  cause?: PageErrorInfo;
}

/** An exception thrown inside the WhatsApp Web page, with what the page knew about it. */
export class PageError extends Error {
  readonly page: PageErrorInfo;

  constructor(info: PageErrorInfo) {
    const causes: string[] = [];
    for (let c = info.cause; c; c = c.cause) causes.push(`${c.name}: ${c.message}`);
    const suffix = causes.length > 0 ? ` (caused by ${causes.join(' ← ')})` : '';
    super(`Evaluation failed: ${info.name}: ${info.message}${suffix}`);
    this.name = info.name;
    this.page = info;
    // the page error's own fields, readable as they were in the page (`error.status`…)
    for (const [key, value] of Object.entries(info.fields ?? {})) {
      if (!(key in this)) Object.defineProperty(this, key, { value, enumerable: true });
    }
    const own = (this.stack ?? '').split('\n').slice(1).join('\n');
    this.stack = `${this.name}: ${this.message}\n    --- page ---\n${pageStack(info)}\n    --- node ---\n${own}`;
  }
}

/** The page-side frames of the error and of each cause. */
function pageStack(info: PageErrorInfo): string {
  const parts: string[] = [];
  for (let level: PageErrorInfo | undefined = info; level; level = level.cause) {
    const frames = (level.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    if (level !== info) parts.push(`    caused by ${level.name}: ${level.message}`);
    parts.push(frames.length > 0 ? frames.join('\n') : '    (the page gave no stack)');
  }
  return parts.join('\n');
}

/** The page-side describer (its source is embedded in wrapped functions: no outer references). */
const DESCRIBE = `function __wakitDescribe(e, depth) {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) {
    return { name: typeof e, message: String(e) };
  }
  var message = e.message;
  if (typeof message !== 'string') {
    try { message = JSON.stringify(e); } catch (_) { message = String(e); }
  }
  var ctor = e.constructor && e.constructor.name;
  var out = { name: typeof e.name === 'string' && e.name ? e.name : ctor || 'Error', message: message };
  if (ctor && ctor !== out.name) out.constructorName = ctor;
  if (typeof e.stack === 'string') out.stack = e.stack;
  var fields = {}, count = 0;
  Object.keys(e).forEach(function (key) {
    if (count >= 20 || key === 'name' || key === 'message' || key === 'stack' || key === 'cause') return;
    var value = e[key];
    var kind = typeof value;
    if (value === null || kind === 'number' || kind === 'boolean') fields[key] = value;
    else if (kind === 'string') fields[key] = value.slice(0, 500);
    else return;
    count += 1;
  });
  if (count > 0) out.fields = fields;
  if (depth < 4 && e.cause !== undefined) out.cause = __wakitDescribe(e.cause, depth + 1);
  return out;
}`;

/** Page source that runs `source` (a function's text) with `args` and describes what it throws. */
export function guardedFunctionSource(source: string): string {
  return `async function (...args) {
  const __name = (f) => f;
  ${DESCRIBE}
  try {
    return await (${functionExpression(source)}).apply(this, args);
  } catch (e) {
    const mark = ${JSON.stringify(PAGE_ERROR_MARK)};
    if (typeof e === 'string' && e.indexOf(mark) === 0) throw e;
    throw mark + JSON.stringify(__wakitDescribe(e, 0));
  }
}`;
}

/** A function's text as an expression (puppeteer's own rule: method shorthand gets `function `). */
export function functionExpression(source: string): string {
  const text = source.trim();
  if (/^(async\s+)?function[\s(*]/.test(text)) return text;
  if (
    /^(async\s*)?\(/.test(text) ||
    /^(async\s+)?[$_\p{ID_Start}][$\u200C\u200D\p{ID_Continue}]*\s*=>/u.test(text)
  )
    return text;
  return text.startsWith('async ') ? `async function ${text.slice(6)}` : `function ${text}`;
}

/** A thrown marked string → PageError; anything else is returned as it is. */
export function unmarkPageError(thrown: unknown): unknown {
  if (typeof thrown !== 'string' || !thrown.startsWith(PAGE_ERROR_MARK)) return thrown;
  try {
    return new PageError(JSON.parse(thrown.slice(PAGE_ERROR_MARK.length)) as PageErrorInfo);
  } catch {
    return new Error(thrown.slice(PAGE_ERROR_MARK.length));
  }
}

type Evaluate = (fn: unknown, ...args: unknown[]) => Promise<unknown>;
interface EvaluatingPage {
  evaluate: Evaluate;
}
const WRAPPED = Symbol.for('wakit.unminifiedEvaluate');

/** A Node function that puppeteer serializes as `source` (it calls `toString()`). */
export function pageFunction(source: string): () => void {
  const fn = (): void => undefined;
  Object.defineProperty(fn, 'toString', { value: () => source });
  return fn;
}

/**
 * Wraps `page.evaluate` of this page object (not puppeteer's prototype): function arguments run
 * inside the describer; a described exception is rethrown as a PageError. Idempotent.
 */
export function unminifyPageErrors(page: unknown): boolean {
  const target = page as (EvaluatingPage & { [WRAPPED]?: true }) | null;
  if (!target || typeof target.evaluate !== 'function') return false;
  if (target[WRAPPED]) return true;
  const original = target.evaluate.bind(target);
  const cache = new WeakMap<object, () => void>();
  target.evaluate = async (fn: unknown, ...args: unknown[]) => {
    let wrapped: unknown = fn;
    if (typeof fn === 'function') {
      wrapped = cache.get(fn) ?? pageFunction(guardedFunctionSource(String(fn)));
      cache.set(fn, wrapped as () => void);
    }
    try {
      return await original(wrapped, ...args);
    } catch (error) {
      throw unmarkPageError(error);
    }
  };
  target[WRAPPED] = true;
  return true;
}
