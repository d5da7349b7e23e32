/**
 * A route is declared once, with its zod schemas: the router validates requests with them and the
 * OpenAPI document describes them (see openapi.ts).
 */
import type { Context } from 'koa';
import type { z } from 'zod';
import { WakitError } from '../../src/index.js';
import * as http from '../../src/entries/http.js';
import type { Principal } from './middleware/auth.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseSpec {
  description: string;
  /** JSON body schema (registered in `restSchemas` to appear as a component). */
  schema?: z.ZodType;
  /** Non-JSON bodies: content type → description. */
  raw?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The caller (anonymous with `clients: '*'` on public routes). */
  principal: Principal;
}

export interface RouteSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/v1/clients/{name}/qr`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Whether a bearer token is required (default true). */
  auth?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Whether `body` may be left out (default false: a route with a body schema requires one). */
  bodyOptional?: boolean;
  /** Success responses by status. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses this route may answer with (all as problem+json). */
  errors?: number[];
  handler(
    ctx: Context,
    input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>,
  ): Promise<void> | void;
}

export type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  spec: RouteSpec<P, Q, B>,
): AnyRoute {
  return spec;
}

/** `/a/{b}/c` → `/a/:b/c` (path-to-regexp syntax of @koa/router). */
export function koaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

function parse<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  where: 'path' | 'query' | 'body',
): z.output<T> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = http.zodIssues(result.error, where === 'body' ? [] : [where]);
  throw http.issueError(
    'VALIDATION_FAILED',
    `Invalid ${where === 'body' ? 'request body' : `${where} parameters`}`,
    issues,
  );
}

/** Koa's query object, with repeated keys refused (`?a=1&a=2`): schemas expect single strings. */
function singleQuery(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) {
      throw new WakitError('VALIDATION_FAILED', `Query parameter ${key} is repeated`, {
        issues: [{ path: `query.${key}`, message: 'must be given once' }],
      });
    }
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export interface MountOptions {
  /** Authenticates the request (throws UNAUTHORIZED); called for routes with `auth !== false`. */
  authenticate(ctx: Context): Principal;
  anonymous: Principal;
  /** Reads the JSON body (415/413/400 on bad bodies); undefined when the request has none. */
  readBody(ctx: Context): Promise<unknown>;
}

/** What serves a matched request of `route`: it validates params, query and body, then handles it. */
export function routeHandler(route: AnyRoute, options: MountOptions) {
  return async (ctx: Context): Promise<void> => {
    ctx.state.route = route.path;
    const principal = route.auth === false ? options.anonymous : options.authenticate(ctx);
    ctx.state.principal = principal;
    const params = parse(route.params, ctx.params as unknown, 'path');
    // No query string (most requests): nothing to parse or refuse.
    const hasQuery = ctx.querystring !== '';
    const query = parse(route.query, hasQuery ? singleQuery(ctx) : {}, 'query');
    if (!route.query && hasQuery && Object.keys(ctx.query).length > 0) {
      throw new WakitError('VALIDATION_FAILED', 'This route takes no query parameters', {
        issues: Object.keys(ctx.query).map((key) => ({
          path: `query.${key}`,
          message: 'unknown parameter',
        })),
      });
    }
    const raw = await options.readBody(ctx);
    if (route.body && raw === undefined && !route.bodyOptional) {
      throw new WakitError('VALIDATION_FAILED', 'A JSON request body is required', {
        issues: [{ path: '', message: 'body required' }],
      });
    }
    const body = route.body && raw !== undefined ? parse(route.body, raw, 'body') : emptyBody(raw);
    await route.handler(ctx, { params, query, body, principal });
  };
}

/** Routes without a body accept none, or an empty JSON object. */
function emptyBody(body: unknown): undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)
    return undefined;
  throw new WakitError('VALIDATION_FAILED', 'This route takes no request body', {
    issues: [{ path: '', message: 'no body expected' }],
  });
}
