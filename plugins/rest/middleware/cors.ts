import cors from '@koa/cors';
import type { Context, Next } from 'koa';
import { WakitError } from '../../../src/index.js';

/**
 * CORS through @koa/cors for the listed origins only: every method a route (or a plugin route)
 * may use is allowed in preflights; a preflight from another origin is FORBIDDEN, and other
 * requests from it get no CORS headers (the browser then blocks them).
 */
export function corsFor(allowed: readonly string[]) {
  const origins = new Set(allowed.map((url) => new URL(url).origin));
  const handler = cors({
    origin: (ctx) => ctx.get('origin'),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Last-Event-ID', 'Prefer'],
    exposeHeaders: ['Location', 'Preference-Applied', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  return (ctx: Context, next: Next): Promise<void> => {
    const origin = ctx.get('origin');
    if (!origin) return next();
    if (origins.has(origin)) return handler(ctx, next) as Promise<void>;
    if (ctx.method === 'OPTIONS') throw new WakitError('FORBIDDEN', 'Origin not allowed');
    return next();
  };
}
