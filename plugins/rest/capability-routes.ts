/**
 * REST routes generated from the capability declarations (src/capabilities/, reached through
 * `BotClient.capabilities`): one route per declaration with `http`, under `/api/v1`, with the
 * declared path, operationId, statuses and response schema, and `?client=` (the default client when
 * absent). The handler calls the same SDK method a bot calls: `client.<area>.<method>(…)`.
 */
import { z } from 'zod';
import { BotClient } from '../../src/index.js';
import { resolveClient, type RestContext } from './context.js';
import type { AnyRoute } from './route.js';
import { clientNameParam } from './schemas.js';
import { named } from './schema-registry.js';

type Declaration = (typeof BotClient.capabilities)[number];
type Method = (...args: unknown[]) => Promise<unknown>;

// Named response bodies become OpenAPI components, once.
for (const { http } of BotClient.capabilities) {
  const { component, schema, componentDescription } = http?.response ?? {};
  if (component && schema) named(component, schema, componentDescription);
}

/** What `client.<area>.<method>` is for a declaration named `area.method`. */
function methodOf(client: BotClient, name: string): Method {
  const [area = '', method = ''] = name.split('.');
  const manager = (client as unknown as Record<string, Record<string, Method> | undefined>)[area];
  const fn = manager?.[method];
  if (!fn) throw new Error(`client.${name} does not exist`);
  return fn;
}

function routeOf(rc: RestContext, capability: Declaration): AnyRoute | undefined {
  const { http } = capability;
  if (!http) return undefined;
  const query = z.object({ client: clientNameParam.optional(), ...http.query?.shape }).strict();
  return {
    method: http.method,
    path: `/api/v1${http.path}`,
    operationId: http.operationId,
    summary: http.summary,
    ...(http.description !== undefined ? { description: http.description } : {}),
    tag: http.tag,
    ...(http.params ? { params: http.params } : {}),
    query,
    responses: {
      [http.status]: { description: http.response.description, schema: http.response.schema },
    },
    errors: [...http.errors],
    async handler(ctx, { params, query: q, principal }) {
      const { client: name, ...rest } = q as { client?: string } & Record<string, unknown>;
      const client = resolveClient(rc, principal, name);
      ctx.state.client = client.name;
      const request = { params: (params ?? {}) as Record<string, unknown>, query: rest, body: {} };
      const input = http.toInput(request);
      const method = methodOf(client, capability.name);
      const result = await method(...capability.args.map((arg) => input[arg]));
      ctx.status = http.status;
      // The call succeeded, so its input parses: the body sees it checked and normalised.
      ctx.body = http.toBody ? http.toBody(result, capability.input.parse(input), request) : result;
    },
  };
}

/** The routes of every declared capability that REST serves. */
export function capabilityRoutes(rc: RestContext): AnyRoute[] {
  return BotClient.capabilities.flatMap((capability) => routeOf(rc, capability) ?? []);
}
