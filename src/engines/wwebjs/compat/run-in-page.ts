import {
  guardedFunctionSource,
  pageFunction,
  unmarkPageError,
  type PageError,
} from './page-errors.js';
import type { PageFunction } from './types.js';

/** The puppeteer page, as far as running code in it goes. */
export interface EvaluatingPage {
  evaluate(fn: unknown, ...args: unknown[]): Promise<unknown>;
}

/**
 * Runs a page function (or its source text) in the page and returns its value; an exception in the
 * page rejects with a PageError (its real name, message and page stack); `timeoutMs` bounds it.
 */
export async function runInPage(
  page: EvaluatingPage,
  fn: PageFunction,
  timeoutMs: number,
): Promise<unknown> {
  const source = guardedFunctionSource(typeof fn === 'string' ? fn : String(fn));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the page did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([page.evaluate(pageFunction(source)), timeout]);
  } catch (error) {
    throw unmarkPageError(error) as PageError | Error;
  } finally {
    clearTimeout(timer);
  }
}

/** A short, one-line text of an error for reports. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/^Evaluation failed: /, '')
    .split('\n')[0]
    .slice(0, 300);
}
