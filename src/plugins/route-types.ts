/**
 * Plugin HTTP routes: what `ctx.http.route` takes (the loose form and the schema-typed form) and
 * the registry the REST plugin reads. Re-exported by ./types.ts.
 */
import type { z } from 'zod';
import type { BotClient } from '../client/bot-client.js';

// ---------------------------------------------------------------------------------------------
// HTTP routes (served by the REST plugin, when enabled, under /api/v1/plugins/<plugin><path>; the
// plugins wakit adds itself, such as the simulator's, under /api/v1/<plugin><path>)

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PluginHttpRequest<
  P = Record<string, string>,
  Q = Record<string, string | string[] | undefined>,
  B = unknown,
> {
  method: HttpMethod;
  /** The route path after its mount (`/api/v1/plugins/<plugin-name>`). */
  path: string;
  /** `:name` segments of the route path (parsed by `params` when the route declares it). */
  params: P;
  /** The query string (parsed by `query` when the route declares it). */
  query: Q;
  /** Parsed JSON body (undefined without one; parsed by `body` when the route declares it). */
  body: B;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  /** The client the request addresses, when the REST plugin knows one (`?client=` / default client). */
  clientName?: string;
  /**
   * The client `name` (default: `?client=`, else the default client), once the caller's token may
   * act on it (FORBIDDEN otherwise; CLIENT_NOT_FOUND). It becomes the request's client in logs and
   * metrics; in a fleet, a client another node runs makes the REST plugin forward the request there.
   */
  client(name?: string): BotClient;
}

export interface PluginHttpResponse {
  /** Default 200 (204 when there is no body). */
  status?: number;
  /** Serialised as JSON unless it is a string or a Buffer. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A success answer of a schema-typed route, as the OpenAPI document describes it. */
export interface PluginRouteResponse {
  description: string;
  /** The JSON body's schema (a component of the document when named with `namedSchema`). */
  schema?: z.ZodType;
}

/**
 * A plugin route (docs/plugins.md, "HTTP routes"). With `responses` it is **schema-typed**: the REST
 * plugin validates `params`, `query` and `body` with their zod schemas (400 VALIDATION_FAILED; a
 * part without a schema must be empty), hands the handler the parsed values, and lists the route in
 * the OpenAPI document under the plugin's tag. Without `responses` it is the loose form: nothing
 * is validated and the route is not in the document.
 */
export interface PluginRouteDefinition<
  P = Record<string, string>,
  Q = Record<string, string | string[] | undefined>,
  B = unknown,
> {
  method: HttpMethod;
  /** Starts with `/`; `:name` segments become `params.name`. E.g. `/stats/:client`. */
  path: string;
  /** Behind the bearer token (default true). `false` makes a public route (e.g. an inbound webhook). */
  auth?: boolean;
  /** Only for a token of all clients (`clients: ["*"]`): FORBIDDEN for the others (default false). */
  allClients?: boolean;
  description?: string;
  /** Schema-typed routes: the operation's summary and id (default: from the plugin, method and path). */
  summary?: string;
  operationId?: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Success answers by status: makes the route schema-typed. */
  responses?: Record<number, PluginRouteResponse>;
  /** Error statuses the handler may answer with (problem+json), beyond those every route has. */
  errors?: number[];
  /** Throw a WakitError to answer with its status and code (problem+json). */
  handler(request: PluginHttpRequest<P, Q, B>): PluginHttpResponse | Promise<PluginHttpResponse>;
}

/** A route of any schemas (the handler's request types are the plugin's business). */
export type AnyPluginRouteDefinition = PluginRouteDefinition<unknown, unknown, unknown>;

/** A route as the registry holds it: what the plugin declared, its plugin, `auth` resolved. */
export interface PluginRoute extends Readonly<AnyPluginRouteDefinition> {
  readonly plugin: string;
  readonly auth: boolean;
  /** Where the plugin's routes are served: `/api/v1/plugins/<plugin>`, or `/api/v1/<plugin>`. */
  readonly mount: string;
}

/**
 * The routes plugins declared, in declaration order. The REST plugin serves them under their
 * mount (`/api/v1/plugins/<plugin><path>`); complete once `sdk.start()` set up all plugins.
 */
export interface PluginRouteRegistry {
  routes(): readonly PluginRoute[];
}

/** `ctx.http`: add routes; read the registry (the REST plugin does). */
export interface PluginHttp extends PluginRouteRegistry {
  /** Adds a route of this plugin (during setup only); the schemas type the handler's request. */
  route<P = Record<string, string>, Q = Record<string, string | string[] | undefined>, B = unknown>(
    definition: PluginRouteDefinition<P, Q, B>,
  ): void;
}
