/**
 * Routes other plugins add through `ctx.http.route(...)`, mounted on an @koa/router sub-router
 * under `/api/v1/plugins/<plugin><path>`, behind the token (unless a route says `auth: false`).
 * The sub-router is (re)built when the registry grew, so plugins set up after this one are served.
 *
 * One route model: a schema-typed plugin route (with `responses`) becomes a route of the REST
 * plugin's own kind (`RouteSpec`): validated by its zod schemas like the built-in routes and listed
 * in the OpenAPI document under its plugin's tag. A route without `responses` is the loose form:
 * its handler gets the raw request and the document does not list it.
 */
import type { Context, Next } from 'koa';
import { WakitError } from '../../src/index.js';
import type {
  PluginHttpRequest,
  PluginHttpResponse,
  PluginRoute,
  PluginRouteRegistry,
} from '../../src/entries/http.js';
import { canSee, requireClientAccess, type Principal } from './auth.js';
import { defaultClientName, type RestContext } from './context.js';
import { routeHandler, type AnyRoute } from './route.js';
import { exactRouter, serveRouter } from './route-table.js';

export interface PluginRouteDeps {
  authenticate(ctx: Context): Principal;
  anonymous: Principal;
  readBody(ctx: Context): Promise<unknown>;
}

const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

function clientFor(
  rc: RestContext,
  ctx: Context,
  principal: Principal,
  auth: boolean,
): string | undefined {
  const asked = ctx.query.client;
  if (Array.isArray(asked)) {
    throw new WakitError('VALIDATION_FAILED', 'Query parameter client is repeated');
  }
  if (asked !== undefined) {
    if (auth) requireClientAccess(principal, asked);
    return asked;
  }
  try {
    const name = defaultClientName(rc);
    return !auth || canSee(principal, name) ? name : undefined;
  } catch {
    return undefined; // not reported: no default client (the route says so)
  }
}

/** Where plugin routes are served. */
export const PLUGIN_ROUTE_PREFIX = '/api/v1/plugins';

function mountPath(route: PluginRoute): string {
  return `${PLUGIN_ROUTE_PREFIX}/${route.plugin}${route.path === '/' ? '' : route.path}`;
}

function visibleHeaders(ctx: Context): PluginHttpRequest['headers'] {
  const headers: PluginHttpRequest['headers'] = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (!HIDDEN_HEADERS.has(name)) headers[name] = value;
  }
  return headers;
}

function respond(ctx: Context, response: PluginHttpResponse): void {
  for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  ctx.status = response.status ?? (response.body === undefined ? 204 : 200);
  if (response.body === undefined) return;
  if (typeof response.body === 'string' || Buffer.isBuffer(response.body)) {
    const typed = Object.keys(response.headers ?? {}).some(
      (h) => h.toLowerCase() === 'content-type',
    );
    if (!typed)
      ctx.type = typeof response.body === 'string' ? 'text/plain' : 'application/octet-stream';
    ctx.body = response.body;
  } else {
    ctx.body = response.body;
    ctx.type = 'application/json';
  }
}

function routePath(ctx: Context, route: PluginRoute): string {
  return ctx.path.slice(`${PLUGIN_ROUTE_PREFIX}/${route.plugin}`.length) || '/';
}

/** A loose (schema-less) route: the raw request, nothing validated. */
async function serve(
  rc: RestContext,
  deps: PluginRouteDeps,
  route: PluginRoute,
  ctx: Context,
): Promise<void> {
  const fullPath = mountPath(route);
  ctx.state.route = fullPath;
  const principal = route.auth ? deps.authenticate(ctx) : deps.anonymous;
  const clientName = clientFor(rc, ctx, principal, route.auth);
  if (clientName) ctx.state.client = clientName;
  const body = await deps.readBody(ctx);
  const request: PluginHttpRequest = {
    method: route.method,
    path: routePath(ctx, route),
    params: { ...(ctx.params as Record<string, string>) },
    query: { ...ctx.query },
    body,
    headers: visibleHeaders(ctx),
    ...(clientName ? { clientName } : {}),
  };
  respond(ctx, await route.handler(request));
}

/** `/stats/:client` of plugin `p` → `p_get_stats_client` (an operationId of letters, digits, _). */
function defaultOperationId(route: PluginRoute): string {
  const words = [route.plugin, route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/)];
  return words.filter(Boolean).join('_');
}

/** A schema-typed plugin route as a route of the REST plugin's own model; undefined if loose. */
export function typedPluginRoute(rc: RestContext, route: PluginRoute): AnyRoute | undefined {
  if (!route.responses) return undefined;
  const path = mountPath(route).replace(/:(\w+)/g, '{$1}');
  return {
    method: route.method,
    path,
    operationId: route.operationId ?? defaultOperationId(route),
    summary: route.summary ?? route.description ?? `${route.method} ${path}`,
    ...(route.summary && route.description ? { description: route.description } : {}),
    tag: route.plugin,
    auth: route.auth,
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { query: route.query } : {}),
    ...(route.body ? { body: route.body } : {}),
    responses: route.responses,
    ...(route.errors ? { errors: route.errors } : {}),
    async handler(ctx, input) {
      const clientName = clientFor(rc, ctx, input.principal, route.auth);
      if (clientName) ctx.state.client = clientName;
      const response = await route.handler({
        method: route.method,
        path: routePath(ctx, route),
        params: route.params ? input.params : { ...(ctx.params as Record<string, string>) },
        query: route.query ? input.query : {},
        body: input.body,
        headers: visibleHeaders(ctx),
        ...(clientName ? { clientName } : {}),
      });
      respond(ctx, response);
    },
  };
}

/** The schema-typed routes of `registry`, for the OpenAPI document. */
export function typedPluginRoutes(rc: RestContext, registry: PluginRouteRegistry): AnyRoute[] {
  return registry.routes().flatMap((route) => typedPluginRoute(rc, route) ?? []);
}

function buildRouter(rc: RestContext, routes: readonly PluginRoute[], deps: PluginRouteDeps) {
  const router = exactRouter(PLUGIN_ROUTE_PREFIX);
  for (const route of routes) {
    const typed = typedPluginRoute(rc, route);
    router.register(
      mountPath(route).slice(PLUGIN_ROUTE_PREFIX.length) || '/',
      [route.method],
      typed ? routeHandler(typed, deps) : (ctx: Context) => serve(rc, deps, route, ctx),
    );
  }
  return serveRouter(router);
}

/** Serves the plugin routes of `registry`; nothing else under the prefix. */
export function pluginRoutes(
  rc: RestContext,
  registry: PluginRouteRegistry,
  deps: PluginRouteDeps,
): (ctx: Context, next: Next) => Promise<void> {
  let mounted = -1;
  let handler: ReturnType<typeof buildRouter> | undefined;
  return (ctx, next) => {
    if (!ctx.path.startsWith(`${PLUGIN_ROUTE_PREFIX}/`)) return next();
    const routes = registry.routes();
    if (!handler || mounted !== routes.length) {
      handler = buildRouter(rc, routes, deps);
      mounted = routes.length;
    }
    // Unmatched paths fall through as 404 without a body: the problem boundary answers NOT_FOUND.
    return handler(ctx, () => Promise.resolve());
  };
}
