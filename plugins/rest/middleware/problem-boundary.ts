import { performance } from 'node:perf_hooks';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { WakitError } from '../../../src/index.js';
import type { RestMetrics } from '../metrics/rest-metrics.js';
import { sendProblem, toProblem } from './problem.js';

/** Refusals by our own policy worth a warning (the caller's error, but an operator may care). */
const POLICY_REFUSALS: ReadonlySet<string> = new Set(['MEDIA_URL_REFUSED']);

/** Codes whose `details.retryAfterMs` becomes a `Retry-After` header. */
const RETRY_AFTER: ReadonlySet<string> = new Set(['QUEUE_FULL', 'CLIENT_UNAVAILABLE']);

/**
 * The outermost middleware: every error becomes application/problem+json (never a stack trace),
 * unmatched routes are NOT_FOUND (METHOD_NOT_ALLOWED with `Allow` when only the method is wrong), a closing server answers SHUTTING_DOWN with `Connection: close`,
 * and every request is logged and counted once.
 */
export function problemBoundary(deps: {
  log: Logger;
  metrics: RestMetrics | undefined;
  status: { closing: boolean };
}) {
  const { log, metrics, status } = deps;
  // The access line is built below from fixed fields, none of them secret (the path carries no query
  // string): the redaction of the root logger could only look for keys it never has, and it
  // doubled the line's cost (docs/performance.md). Every other line still goes through `log`.
  const access = log.child({}, { redact: [] });
  return async (ctx: Context, next: Next): Promise<void> => {
    const start = performance.now();
    try {
      if (status.closing) {
        ctx.set('Connection', 'close');
        throw new WakitError('SHUTTING_DOWN', 'The server is shutting down');
      }
      await next();
      if (ctx.body === undefined) {
        // What the routers answer without a body (they set `Allow` for 405) becomes a problem too.
        if (ctx.status === 404) {
          throw new WakitError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
        }
        if (ctx.status === 405 || ctx.status === 501) {
          throw new WakitError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed here`);
        }
      }
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500)
        log.error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
      else if (POLICY_REFUSALS.has(problem.code))
        log.warn({ code: problem.code, method: ctx.method, path: ctx.path }, problem.detail);
      // 5xx problems do not show their details; the retry hint is still a header
      const retryAfterMs =
        problem.details?.retryAfterMs ??
        (error instanceof WakitError ? error.details?.retryAfterMs : undefined);
      if (RETRY_AFTER.has(problem.code) && typeof retryAfterMs === 'number') {
        ctx.set('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
      }
      sendProblem(ctx, problem);
    }
    if (status.closing) ctx.set('Connection', 'close');
    const ms = performance.now() - start;
    const route = (ctx.state.route as string | undefined) ?? '(unmatched)';
    metrics?.http(ctx.method, route, ctx.status, ms / 1000);
    if (access.isLevelEnabled('info')) {
      const { method, path, status: code } = ctx;
      access.info(
        {
          method,
          path,
          status: code,
          ms: Math.round(ms * 10) / 10,
          client: ctx.state.client as string | undefined,
        },
        `http ${method} ${path} ${code}`,
      );
    }
  };
}
