/**
 * REST routes generated from the capability declarations (src/capabilities/, reached through
 * `BotClient.capabilities`): one route per declaration with `http`, under `/api/v1`, with the
 * declared path, operationId, statuses and response schema, and `?client=` (the default client when
 * absent), or, for `client: 'path'`, a second route under `/api/v1/clients/{name}`. The handler
 * calls the same SDK method a bot calls: `client.<area>.<method>(…)`.
 */
import { z } from 'zod';
import { BotClient } from '../../src/index.js';
import { resolveClient, type RestContext } from './context.js';
import type { AnyRoute } from './route.js';
import { clientNameParam } from './schemas.js';
import { named } from './schema-registry.js';

type Declaration = (typeof BotClient.capabilities)[number];
type Method = (...args: unknown[]) => Promise<unknown>;

// Named bodies and responses become OpenAPI components, once.
for (const { http } of BotClient.capabilities) {
  const { component, schema, componentDescription } = http?.response ?? {};
  if (component && schema) named(component, schema, componentDescription);
  for (const [id, inner] of Object.entries(http?.components ?? {})) named(id, inner);
}

/** What `client.<area>.<method>` is for a declaration named `area.method`. */
function methodOf(client: BotClient, name: string): Method {
  const [area = '', method = ''] = name.split('.');
  const manager = (client as unknown as Record<string, Record<string, Method> | undefined>)[area];
  const fn = manager?.[method];
  if (!fn) throw new Error(`client.${name} does not exist`);
  return fn;
}

/** The route of a declaration; `named`: its `/clients/{name}` twin (for `client: 'path'`). */
function routeOf(rc: RestContext, capability: Declaration, named = false): AnyRoute | undefined {
  const { http } = capability;
  if (!http) return undefined;
  const inPath = http.client === 'path';
  const query = inPath
    ? http.query
    : z.object({ client: clientNameParam.optional(), ...http.query?.shape }).strict();
  const params = named
    ? z.object({ name: clientNameParam, ...http.params?.shape }).strict()
    : http.params;
  return {
    method: http.method,
    path: `/api/v1${named ? '/clients/{name}' : ''}${http.path}`,
    operationId: named ? `${http.operationId}OfClient` : http.operationId,
    summary: named ? `${http.summary} (named client)` : http.summary,
    ...(http.description !== undefined ? { description: http.description } : {}),
    tag: http.tag,
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(http.body ? { body: http.body } : {}),
    responses: {
      [http.status]: {
        description: http.response.description,
        ...(http.response.schema ? { schema: http.response.schema } : {}),
        ...(http.response.headers ? { headers: { ...http.response.headers } } : {}),
      },
    },
    errors: [...http.errors],
    async handler(ctx, { params: p, query: q, body, principal }) {
      const { client: byQuery, ...rest } = (q ?? {}) as { client?: string } & Record<
        string,
        unknown
      >;
      const { name, ...own } = (p ?? {}) as { name?: string } & Record<string, unknown>;
      const client = resolveClient(rc, principal, named ? name : byQuery);
      ctx.state.client = client.name;
      const request = {
        params: named ? own : ((p ?? {}) as Record<string, unknown>),
        query: rest,
        body: (body ?? {}) as Record<string, unknown>,
      };
      const input = http.toInput(request);
      const method = methodOf(client, capability.name);
      const result = await method(...capability.args.map((arg) => input[arg]));
      ctx.status = http.status;
      if (http.headers) ctx.set(http.headers(result));
      if (!http.response.schema) return;
      // The call succeeded, so its input parses: the body sees it checked and normalised.
      ctx.body = http.toBody ? http.toBody(result, capability.input.parse(input), request) : result;
    },
  };
}

/** The routes of every declared capability that REST serves. */
export function capabilityRoutes(rc: RestContext): AnyRoute[] {
  return BotClient.capabilities.flatMap((capability) => {
    const twin = capability.http?.client === 'path' ? routeOf(rc, capability, true) : undefined;
    return [routeOf(rc, capability), twin].filter((route) => route !== undefined);
  });
}
