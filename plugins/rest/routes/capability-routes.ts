/**
 * REST routes generated from the capability declarations (src/capabilities/, reached through
 * `BotClient.capabilities`): one route per declaration with `http`, under `/api/v1`, with the
 * declared path, operationId, statuses and response schema, and `?client=` (the default client when
 * absent), or, for `client: 'path'`, a second route under `/api/v1/clients/{name}`. A direct
 * capability's handler calls the same SDK method a bot calls
 * (`client.<area>.<method>(…)`); a queued one's hands the declaration's prepared send to the
 * client's queue and answers as sends do: 202, or 201 with `Prefer: wait=N` (routes/messages.ts).
 */
import { z } from 'zod';
import { BotClient } from '../../../src/index.js';
import * as http from '../../../src/entries/http.js';
import { resolveClient, type RestContext } from '../context.js';
import type { AnyRoute } from '../route.js';
import { clientNameParam } from '../schemas/api-schemas.js';
import { named } from '../schemas/schema-registry.js';
import { queuedResponses, resolveMessage } from './actions.js';
import { enqueueAndRespond } from './messages.js';

type Declaration = (typeof BotClient.capabilities)[number];
type Queued = Extract<Declaration, { mode: 'queued' }>;
type Direct = Exclude<Declaration, Queued>;
type Method = (...args: unknown[]) => Promise<unknown>;

const client = clientNameParam.optional();
/** Request bodies of queued routes (with `client`), built and named once. */
const bodies = new Map<Declaration, z.ZodObject>();

// Named bodies and schemas become OpenAPI components, once.
for (const capability of BotClient.capabilities) {
  const { http } = capability;
  for (const [id, schema] of Object.entries(http?.components ?? {})) named(id, schema);
  if (capability.mode === 'queued') {
    const body = capability.http?.body;
    if (!body) continue;
    const schema = z.object({ ...body.schema.shape, client }).strict();
    bodies.set(capability, named(body.component, schema, body.componentDescription));
  } else {
    const { component, schema, componentDescription } = capability.http?.response ?? {};
    if (component && schema) named(component, schema, componentDescription);
  }
}

/** What `client.<area>.<method>` is for a declaration named `area.method`. */
function methodOf(bot: BotClient, name: string): Method {
  const [area = '', method = ''] = name.split('.');
  const manager = (bot as unknown as Record<string, Record<string, Method> | undefined>)[area];
  const fn = manager?.[method];
  if (!fn) throw new Error(`client.${name} does not exist`);
  return fn;
}

/** The route of a declaration; `twin`: its `/clients/{name}` twin (for `client: 'path'`). */
function directRoute(rc: RestContext, capability: Direct, twin = false): AnyRoute | undefined {
  const { http } = capability;
  if (!http) return undefined;
  const inPath = http.client === 'path';
  const query = inPath ? http.query : z.object({ client, ...http.query?.shape }).strict();
  const params = twin
    ? z.object({ name: clientNameParam, ...http.params?.shape }).strict()
    : http.params;
  return {
    method: http.method,
    path: `/api/v1${twin ? '/clients/{name}' : ''}${http.path}`,
    operationId: twin ? `${http.operationId}OfClient` : http.operationId,
    summary: twin ? `${http.summary} (named client)` : http.summary,
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
      const client = resolveClient(rc, principal, twin ? name : byQuery);
      ctx.state.client = client.name;
      const request = {
        params: twin ? own : ((p ?? {}) as Record<string, unknown>),
        query: rest,
        body: (body ?? {}) as Record<string, unknown>,
      };
      const input = http.toInput(request);
      const method = methodOf(client, capability.name);
      const values = capability.args.map((arg) => input[arg]);
      if (capability.options?.length) {
        values.push(Object.fromEntries(capability.options.map((key) => [key, input[key]])));
      }
      const result = await method(...values);
      ctx.status = http.status;
      if (http.headers) ctx.set(http.headers(result));
      if (!http.response.schema) return;
      // The call succeeded, so its input parses: the body sees it checked and normalised.
      ctx.body = http.toBody ? http.toBody(result, capability.input.parse(input), request) : result;
    },
  };
}

/** The declaration's input, checked as the SDK method checks it. */
function checked(capability: Queued, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = capability.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw http.issueError(
    'VALIDATION_FAILED',
    `Invalid ${capability.name}`,
    http.zodIssues(parsed.error),
  );
}

function queuedRoute(rc: RestContext, capability: Queued): AnyRoute | undefined {
  const { http } = capability;
  if (!http) return undefined;
  const body = bodies.get(capability);
  return {
    method: http.method,
    path: `/api/v1${http.path}`,
    operationId: http.operationId,
    summary: http.summary,
    ...(http.description !== undefined ? { description: http.description } : {}),
    tag: http.tag,
    ...(http.params ? { params: http.params } : {}),
    ...(body ? { body } : { query: z.object({ ...http.query?.shape, client }).strict() }),
    responses: queuedResponses,
    errors: [...http.errors],
    async handler(ctx, { params, query: q, body: b, principal }) {
      const { client: name, ...rest } = { ...(q ?? {}), ...(b ?? {}) } as Record<string, unknown>;
      const clientName = name as string | undefined;
      let request = { params: (params ?? {}) as Record<string, unknown>, query: rest, body: rest };
      let bot: BotClient;
      if (http.messageParam) {
        const target = await resolveMessage(rc, principal, request.params.id as string, clientName);
        bot = target.client;
        request = { ...request, params: { ...request.params, id: target.messageId } };
      } else {
        bot = resolveClient(rc, principal, clientName);
      }
      const send = capability.prepare(
        checked(capability, http.toInput(request)),
        bot.info().me?.id ?? '',
      );
      await enqueueAndRespond(rc, ctx, bot, send, principal);
    },
  };
}

/** The routes of every declared capability that REST serves. */
export function capabilityRoutes(rc: RestContext): AnyRoute[] {
  return BotClient.capabilities.flatMap((capability) => {
    if (capability.mode === 'queued') return queuedRoute(rc, capability) ?? [];
    const twin = capability.http?.client === 'path' ? directRoute(rc, capability, true) : undefined;
    return [directRoute(rc, capability), twin].filter((route) => route !== undefined);
  });
}
