/**
 * The routes of SPEC-REST.md on @koa/router, one router per path prefix. @koa/router tests every
 * route's regular expression in turn for each request: with the ~80 routes of the API that was
 * a tenth of the REST send's own CPU (docs/performance.md, "A route table"). Grouped by
 * their first three path segments (`/api/v1/messages`, `/healthz`, ...), a request is matched
 * against the few routes of its prefix only; answers (404, 405 with `Allow`) are those of
 * @koa/router, as a path outside a prefix is outside every route of it.
 *
 * Paths match exactly as declared: another case or a trailing slash is 404 (the routers are
 * `strict` and `sensitive`). HEAD is served for every GET route (as GET without the body);
 * OPTIONS is refused with 405 and `Allow` (CORS preflights are answered before, by the CORS
 * layer, when `cors` is configured). docs/rest-api.md says the same.
 *
 * A request for a route without parameters, with its method and its path exactly as declared
 * (what clients send), goes straight to that route's handler: @koa/router would match it against
 * the regular expressions of its group, read `ctx.host` and compose the matched chain for every
 * request, which cost a tenth of the REST send's throughput (docs/performance.md). Only where the
 * router itself would pick that route first; any other request (another case, a trailing slash,
 * HEAD, OPTIONS, a parameter) goes through it.
 */
import type { Context, Next } from 'koa';
import { Router } from '@koa/router';
import { WakitError } from '../../src/index.js';
import { koaPath, routeHandler, type AnyRoute, type MountOptions } from './route.js';

/** Segments of a path that pick its router. */
const PREFIX_SEGMENTS = 3;

/** Paths match as declared: case and trailing slashes count. */
const ROUTER_OPTIONS = { strict: true, sensitive: true };

/**
 * The prefix a route is filed under: its first segments up to a parameter.
 * Undefined when a parameter comes before the prefix is complete.
 */
function routePrefix(path: string): string | undefined {
  const segments = path.split('/').slice(1, PREFIX_SEGMENTS + 1);
  if (segments.some((segment) => segment.includes('{'))) return undefined;
  return segments.join('/');
}

/** The prefix of a request's path, filed like routePrefix files a route. */
function requestPrefix(path: string): string {
  let end = 0;
  for (let found = 0; found < PREFIX_SEGMENTS; found++) {
    const next = path.indexOf('/', end + 1);
    end = next < 0 ? path.length : next;
    if (next < 0) break;
  }
  return path.slice(1, path[end - 1] === '/' ? end - 1 : end);
}

type Serve = (ctx: Context, next: Next) => Promise<void>;

/**
 * A router's routes, then its answers for known paths with another method: 405 with `Allow`, also
 * for OPTIONS (which @koa/router would answer 200).
 */
export function serveRouter(router: Router): Serve {
  const routes = router.routes();
  const allowed = router.allowedMethods();
  // The router's middleware types want its own context types; a Koa context is one at run time.
  return async (ctx, next) => {
    await routes(ctx as never, () => allowed(ctx as never, next) as Promise<void>);
    if (ctx.method === 'OPTIONS' && ctx.status === 200 && ctx.response.get('Allow')) {
      throw new WakitError('METHOD_NOT_ALLOWED', 'OPTIONS is not served; see the Allow header');
    }
  };
}

/** A router whose paths match as declared. */
export function exactRouter(prefix?: string): Router {
  return new Router(prefix ? { ...ROUTER_OPTIONS, prefix } : ROUTER_OPTIONS);
}

type Handler = (ctx: Context) => Promise<void>;

/** One middleware serving `routes`, each request matched against the routes of its prefix. */
export function routeTable(routes: readonly AnyRoute[], options: MountOptions): Serve {
  const byPrefix = new Map<string, AnyRoute[]>();
  const elsewhere: AnyRoute[] = [];
  for (const route of routes) {
    const prefix = routePrefix(route.path);
    if (prefix === undefined) elsewhere.push(route);
    else byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), route]);
  }
  /** method → declared path → handler, for the routes a request may reach directly. */
  const exact = new Map<string, Map<string, Handler>>();
  const routerOf = (group: readonly AnyRoute[]): Serve => {
    const router = exactRouter();
    const served = group.map((route) => {
      const handler = routeHandler(route, options);
      router.register(koaPath(route.path), [route.method], handler);
      return { route, handler };
    });
    for (const { route, handler } of served) {
      if (route.path.includes('{')) continue;
      const first = router.match(route.path, route.method).pathAndMethod[0];
      if (!first?.stack.includes(handler)) continue;
      const paths = exact.get(route.method) ?? new Map<string, Handler>();
      exact.set(route.method, paths);
      if (!paths.has(route.path)) paths.set(route.path, handler);
    }
    return serveRouter(router);
  };
  const servers = new Map([...byPrefix].map(([prefix, group]) => [prefix, routerOf(group)]));
  const rest = elsewhere.length > 0 ? routerOf(elsewhere) : undefined;
  return (ctx: Context, next: Next) => {
    const direct = exact.get(ctx.method)?.get(ctx.path);
    if (direct) {
      ctx.params = {};
      return direct(ctx);
    }
    const server = servers.get(requestPrefix(ctx.path));
    if (!rest) return server ? server(ctx, next) : next();
    return server ? server(ctx, () => rest(ctx, next)) : rest(ctx, next);
  };
}
