import { WakitError } from '../errors/index.js';
import type {
  AnyPluginRouteDefinition,
  HttpMethod,
  PluginRoute,
  PluginRouteRegistry,
} from './types.js';

/** Where the routes of a plugin are served: `/api/v1/plugins/<plugin>`. */
export const PLUGIN_ROUTE_PREFIX = '/api/v1/plugins';

/** Where the routes of a plugin wakit adds itself (the simulator's) are served: `/api/v1/<plugin>`. */
export const BUNDLED_ROUTE_PREFIX = '/api/v1';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SEGMENT = /^(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9._~-]+)$/;

const OPERATION_ID = /^[A-Za-z][A-Za-z0-9_]*$/;

/** What makes a route schema-typed must be well formed (docs/plugins.md, "HTTP routes"). */
function checkSchemaTyped(plugin: string, where: string, definition: AnyPluginRouteDefinition) {
  const fail = (what: string) => {
    throw new WakitError('VALIDATION_FAILED', `Plugin ${plugin}: route ${where}: ${what}`);
  };
  const { responses, operationId } = definition;
  if (responses !== undefined) {
    const statuses = typeof responses === 'object' && responses ? Object.keys(responses) : [];
    if (statuses.length === 0 || !statuses.every((s) => /^[23]\d\d$/.test(s))) {
      fail('responses must map 2xx/3xx statuses to { description, schema? }');
    }
  }
  if (operationId !== undefined && !OPERATION_ID.test(operationId)) {
    fail('operationId must be letters, digits and _ (starting with a letter)');
  }
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = definition[part];
    if (schema === undefined) continue;
    if (responses === undefined) fail(`${part} needs responses (a schema-typed route)`);
    if (typeof (schema as { safeParse?: unknown }).safeParse !== 'function') {
      fail(`${part} must be a zod schema`);
    }
  }
}

interface Compiled {
  route: PluginRoute;
  segments: string[];
}

/** Routes plugins declare through `ctx.http.route`: validated, no two alike; served by REST. */
export class RouteRegistry implements PluginRouteRegistry {
  readonly #routes: Compiled[] = [];
  /** What `routes()` returns: the same array until a route is added (the REST plugin compares). */
  #list: readonly PluginRoute[] = [];

  /** Adds a route of `plugin`, served under `mount` (default `/api/v1/plugins/<plugin>`). */
  add(
    plugin: string,
    definition: AnyPluginRouteDefinition,
    mount = `${PLUGIN_ROUTE_PREFIX}/${plugin}`,
  ): PluginRoute {
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
    checkSchemaTyped(plugin, `${method} ${path}`, definition);
    if (
      definition.operationId !== undefined &&
      this.#routes.some((r) => r.route.operationId === definition.operationId)
    ) {
      throw new WakitError(
        'PLUGIN_DUPLICATE',
        `Plugin ${plugin}: operationId ${definition.operationId} is already registered`,
      );
    }
    const all = [...mount.split('/').filter(Boolean), ...segments];
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
      mount,
    });
    this.#routes.push({ route, segments: all });
    this.#list = Object.freeze(this.#routes.map((r) => r.route));
    return route;
  }

  routes(): readonly PluginRoute[] {
    return this.#list;
  }
}
