import { WakitError } from '../errors/index.js';
import type {
  HttpMethod,
  PluginRoute,
  PluginRouteDefinition,
  PluginRouteRegistry,
  RouteMatch,
} from './types.js';

export const PLUGIN_ROUTE_PREFIX = '/api/v1/plugins';
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SEGMENT = /^(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9._~-]+)$/;

interface Compiled {
  route: PluginRoute;
  segments: string[];
}

/** Routes added by plugins through `ctx.http.route`, matched for the REST plugin. */
export class RouteRegistry implements PluginRouteRegistry {
  readonly prefix = PLUGIN_ROUTE_PREFIX;
  readonly #routes: Compiled[] = [];

  add(plugin: string, definition: PluginRouteDefinition): PluginRoute {
    const method = String(definition?.method ?? '').toUpperCase() as HttpMethod;
    if (!METHODS.includes(method)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Plugin ${plugin}: route method must be one of ${METHODS.join(', ')}`,
      );
    }
    const path = definition.path;
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new WakitError('VALIDATION_FAILED', `Plugin ${plugin}: route path must start with /`);
    }
    const segments = path.split('/').filter(Boolean);
    if (!segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Plugin ${plugin}: route path ${path} has an invalid segment`,
      );
    }
    if (typeof definition.handler !== 'function') {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Plugin ${plugin}: route ${method} ${path} has no handler`,
      );
    }
    const pluginSegments = plugin.split('/');
    const all = [...pluginSegments, ...segments];
    const shape = all.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
    const clash = this.#routes.find(
      (r) =>
        r.route.method === method &&
        r.segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/') === shape,
    );
    if (clash) {
      throw new WakitError(
        'PLUGIN_DUPLICATE',
        `Plugin ${plugin}: route ${method} ${path} is already registered`,
      );
    }
    const route: PluginRoute = Object.freeze({
      ...definition,
      method,
      path,
      auth: definition.auth !== false,
      plugin,
      fullPath: `${PLUGIN_ROUTE_PREFIX}/${plugin}${path === '/' ? '' : path}`,
    });
    this.#routes.push({ route, segments: all });
    return route;
  }

  routes(): readonly PluginRoute[] {
    return this.#routes.map((r) => r.route);
  }

  match(method: string, fullPath: string): RouteMatch {
    const upper = method.toUpperCase();
    if (!fullPath.startsWith(`${PLUGIN_ROUTE_PREFIX}/`)) return { found: false, allow: [] };
    let parts: string[];
    try {
      parts = fullPath
        .slice(PLUGIN_ROUTE_PREFIX.length)
        .split('/')
        .filter(Boolean)
        .map((p) => decodeURIComponent(p));
    } catch {
      return { found: false, allow: [] };
    }
    const allow = new Set<HttpMethod>();
    for (const { route, segments } of this.#routes) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === upper) return { found: true, route, params };
      allow.add(route.method);
    }
    return { found: false, allow: [...allow] };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const p = pattern[i];
    const v = parts[i];
    if (p.startsWith(':')) params[p.slice(1)] = v;
    else if (p !== v) return undefined;
  }
  return params;
}
