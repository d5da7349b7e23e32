import type { Context, Next } from 'koa';

/** Headers every response carries: no sniffing, no referrer, no caching of API answers. */
export function securityHeaders() {
  return (ctx: Context, next: Next): Promise<void> => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    return next();
  };
}
