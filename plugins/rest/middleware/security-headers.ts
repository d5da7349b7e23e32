import type { Context, Next } from 'koa';

/**
 * Headers every response carries: no sniffing, no referrer, no caching of API answers. Set on the
 * Node response directly: nothing is sent before the routes run, and Koa's `ctx.set` builds three
 * arrays per header to normalise what is a fixed string here.
 */
export function securityHeaders() {
  return (ctx: Context, next: Next): Promise<void> => {
    const { res } = ctx;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    return next();
  };
}
