/**
 * Routes other plugins add through `ctx.http.route(...)`, mounted on an @koa/router sub-router
 * under their mount (`/api/v1/plugins/<plugin><path>`; `/api/v1/<plugin><path>` for a plugin wakit
 * adds itself, such as the simulator's), behind the token (unless a route says `auth: false`).
 * The sub-router is (re)built when the registry grew, so plugins set up after this one are served.
 *
 * One route model: a schema-typed plugin route (with `responses`) becomes a route of the REST
 * plugin's own kind (`RouteSpec`): validated by its zod schemas like the built-in routes and listed
 * in the OpenAPI document under its plugin's tag. A route without `responses` is the loose form:
 * its handler gets the raw request and the document does not list it.
 */
import type { Context, Next } from 'koa';
import type * as http from '../../../src/entries/http.js';
import { WakitError } from '../../../src/index.js';
import { canSee, requireClientAccess, type Principal } from '../middleware/auth.js';
import { defaultClientName, resolveClient, type RestContext } from '../context.js';
import { routeHandler, type AnyRoute } from '../route.js';
import { exactRouter, serveRouter } from '../route-table.js';

/** Where plugin routes are served (a plugin wakit adds itself: `/api/v1/<plugin>`). */
export const PLUGIN_ROUTE_PREFIX = '/api/v1/plugins';

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

function mountPath(route: http.PluginRoute): string {
  return `${route.mount}${route.path === '/' ? '' : route.path}`;
}

/** What a route's request gets beyond its parts: the client resolver and the all-clients check. */
function callerOf(
  rc: RestContext,
  ctx: Context,
  route: http.PluginRoute,
  principal: Principal,
  clientName: string | undefined,
): Pick<http.PluginHttpRequest, 'client'> {
  if (route.allClients && principal.clients !== '*') {
    throw new WakitError('FORBIDDEN', 'This route needs a token for all clients');
  }
  return {
    client(name) {
      const client = resolveClient(rc, principal, name ?? clientName);
      ctx.state.client = client.name;
      return client;
    },
  };
}

function visibleHeaders(ctx: Context): http.PluginHttpRequest['headers'] {
  const headers: http.PluginHttpRequest['headers'] = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (!HIDDEN_HEADERS.has(name)) headers[name] = value;
  }
  return headers;
}

function respond(ctx: Context, response: http.PluginHttpResponse): void {
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

function routePath(ctx: Context, route: http.PluginRoute): string {
  return ctx.path.slice(route.mount.length) || '/';
}

/** A loose (schema-less) route: the raw request, nothing validated. */
async function serve(
  rc: RestContext,
  deps: PluginRouteDeps,
  route: http.PluginRoute,
  ctx: Context,
): Promise<void> {
  const fullPath = mountPath(route);
  ctx.state.route = fullPath;
  const principal = route.auth ? deps.authenticate(ctx) : deps.anonymous;
  const clientName = clientFor(rc, ctx, principal, route.auth);
  if (clientName) ctx.state.client = clientName;
  const body = await deps.readBody(ctx);
  const request: http.PluginHttpRequest = {
    method: route.method,
    path: routePath(ctx, route),
    params: { ...(ctx.params as Record<string, string>) },
    query: { ...ctx.query },
    body,
    headers: visibleHeaders(ctx),
    ...(clientName ? { clientName } : {}),
    ...callerOf(rc, ctx, route, principal, clientName),
  };
  respond(ctx, await route.handler(request));
}

/** `/stats/:client` of plugin `p` → `p_get_stats_client` (an operationId of letters, digits, _). */
function defaultOperationId(route: http.PluginRoute): string {
  const words = [route.plugin, route.method.toLowerCase(), ...route.path.split(/[^A-Za-z0-9]+/)];
  return words.filter(Boolean).join('_');
}

/** A schema-typed plugin route as a route of the REST plugin's own model; undefined if loose. */
export function typedPluginRoute(rc: RestContext, route: http.PluginRoute): AnyRoute | undefined {
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
        ...callerOf(rc, ctx, route, input.principal, clientName),
      });
      respond(ctx, response);
    },
  };
}

/** The schema-typed routes of `registry`, for the OpenAPI document. */
export function typedPluginRoutes(rc: RestContext, registry: http.PluginRouteRegistry): AnyRoute[] {
  return registry.routes().flatMap((route) => typedPluginRoute(rc, route) ?? []);
}

function buildRouter(rc: RestContext, routes: readonly http.PluginRoute[], deps: PluginRouteDeps) {
  const router = exactRouter();
  for (const route of routes) {
    const typed = typedPluginRoute(rc, route);
    router.register(
      mountPath(route),
      [route.method],
      typed ? routeHandler(typed, deps) : (ctx: Context) => serve(rc, deps, route, ctx),
    );
  }
  // every plugin's mount, and the plugins' prefix (an unknown plugin there is 404 too)
  const mounts = [...new Set([PLUGIN_ROUTE_PREFIX, ...routes.map((r) => r.mount)])];
  return { serve: serveRouter(router), mounts };
}

/** Serves the plugin routes of `registry`; nothing else under their mounts. */
export function pluginRoutes(
  rc: RestContext,
  registry: http.PluginRouteRegistry,
  deps: PluginRouteDeps,
): (ctx: Context, next: Next) => Promise<void> {
  let mounted: readonly http.PluginRoute[] = [];
  let handler = buildRouter(rc, mounted, deps);
  const under = (path: string, mount: string) =>
    path.startsWith(mount) && (path.length === mount.length || path[mount.length] === '/');
  return (ctx, next) => {
    // the registry hands out a new array when it grew (plugins set up after this one)
    const routes = registry.routes();
    if (routes !== mounted) {
      handler = buildRouter(rc, routes, deps);
      mounted = routes;
    }
    if (!handler.mounts.some((mount) => under(ctx.path, mount))) return next();
    // Unmatched paths fall through as 404 without a body: the problem boundary answers NOT_FOUND.
    return handler.serve(ctx, () => Promise.resolve());
  };
}
