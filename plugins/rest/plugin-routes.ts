/**
 * Routes other plugins add through `ctx.http.route(...)`, served under
 * `/api/v1/plugins/<plugin><path>` behind the token (unless a route says `auth: false`). Matched at
 * request time, so plugins set up after this one are served too.
 */
import type { Context, Next } from 'koa';
import { WakitError, type PluginHttpRequest, type PluginRouteRegistry } from '../../src/index.js';
import { canSee, requireClientAccess, type Principal } from './auth.js';
import { defaultClientName, type RestContext } from './context.js';

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
    return undefined;
  }
}

export function pluginRoutesMiddleware(
  rc: RestContext,
  registry: PluginRouteRegistry,
  deps: PluginRouteDeps,
): (ctx: Context, next: Next) => Promise<void> {
  const prefix = `${registry.prefix}/`;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) {
      await next();
      return;
    }
    const match = registry.match(ctx.method, ctx.path);
    if (!match.found) {
      if (match.allow.length > 0) {
        ctx.set('Allow', match.allow.join(', '));
        throw new WakitError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed here`);
      }
      throw new WakitError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
    }
    const { route, params } = match;
    ctx.state.route = route.fullPath;
    const principal = route.auth ? deps.authenticate(ctx) : deps.anonymous;
    const clientName = clientFor(rc, ctx, principal, route.auth);
    if (clientName) ctx.state.client = clientName;
    const body = await deps.readBody(ctx);
    const headers: PluginHttpRequest['headers'] = {};
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (!HIDDEN_HEADERS.has(name)) headers[name] = value;
    }
    const request: PluginHttpRequest = {
      method: route.method,
      path: ctx.path.slice(`${registry.prefix}/${route.plugin}`.length) || '/',
      params,
      query: { ...ctx.query },
      body,
      headers,
      ...(clientName ? { clientName } : {}),
    };
    const response = await route.handler(request);
    for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
    ctx.status = response.status ?? (response.body === undefined ? 204 : 200);
    if (response.body === undefined) return;
    if (typeof response.body === 'string' || Buffer.isBuffer(response.body)) {
      if (
        !response.headers ||
        !Object.keys(response.headers).some((h) => h.toLowerCase() === 'content-type')
      ) {
        ctx.type = typeof response.body === 'string' ? 'text/plain' : 'application/octet-stream';
      }
      ctx.body = response.body;
    } else {
      ctx.body = response.body;
      ctx.type = 'application/json';
    }
  };
}
