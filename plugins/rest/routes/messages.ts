/** `POST /api/v1/messages` (validate and enqueue; `Prefer: wait=N`) and status look-ups. */
import type { Context } from 'koa';
import { z } from 'zod';
import type * as contract from '../../../src/entries/contract.js';
import { WakitError, type BotClient, type TrackedSend } from '../../../src/index.js';
import type { Principal } from '../middleware/auth.js';
import { resolveClient, visibleClients, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  MessageAccepted,
  MessageIdParam,
  MessageList,
  MessageListQuery,
  MessageSent,
  MessageStatus,
  SendMessageRequest,
  clientNameParam,
} from '../schemas/api-schemas.js';

const MAX_WAIT_S = 60;

/** `Prefer: wait=N` → N seconds (capped at 60); undefined when absent. */
export function preferWait(header: string | undefined): number | undefined {
  if (!header) return undefined;
  for (const part of header.split(/[,;]/)) {
    const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*$/i.exec(part);
    if (match?.[1]) return Math.min(MAX_WAIT_S, Number(match[1]));
  }
  return undefined;
}

export function statusOf(record: TrackedSend): z.output<typeof MessageStatus> {
  return {
    id: record.id,
    client: record.client,
    chatId: record.chatId,
    kind: record.kind,
    status: record.status,
    ...(record.sendAt !== undefined ? { sendAt: record.sendAt } : {}),
    ...(record.budget !== undefined ? { budget: record.budget, dueAt: record.dueAt } : {}),
    ...(record.messageId !== undefined ? { messageId: record.messageId } : {}),
    ...(record.ack !== undefined ? { ack: record.ack } : {}),
    ...(record.error ? { error: { code: record.error.code, message: record.error.message } } : {}),
    createdAt: record.createdAt,
    ...(record.sentAt !== undefined ? { sentAt: record.sentAt } : {}),
    updatedAt: record.updatedAt,
  };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` header (IETF httpapi draft): printable ASCII, at most 255 characters; keys
 * are scoped per token and client.
 */
function idempotencyOf(ctx: Context, principal: Principal): contract.EnqueueOptions {
  const key = ctx.get('idempotency-key');
  if (!key) return {};
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      'Idempotency-Key must be 1-255 printable characters',
      {
        issues: [
          { path: 'headers.idempotency-key', message: 'must be 1-255 printable ASCII characters' },
        ],
      },
    );
  }
  return { idempotencyKey: key, idempotencyScope: `token${principal.tokenIndex}` };
}

/**
 * Enqueues a prepared send and answers 202 (queued) or, with `Prefer: wait=N`, 201 once sent.
 * Message actions (routes/actions.ts, presence.ts) answer the same way.
 */
export async function enqueueAndRespond(
  rc: RestContext,
  ctx: Context,
  client: BotClient,
  prepared: contract.PreparedSend,
  principal: Principal,
  bypassBudget?: boolean,
  sendAt?: string,
): Promise<void> {
  ctx.state.client = client.name;
  const options = idempotencyOf(ctx, principal);
  const queued = await client.enqueue(prepared, {
    ...options,
    ...(bypassBudget ? { bypassBudget } : {}),
    ...(sendAt !== undefined ? { sendAt } : {}),
  });
  const { trackingId, chatId, scheduledAt } = queued;
  const wait = preferWait(ctx.get('prefer'));
  ctx.set('Location', `/api/v1/messages/${encodeURIComponent(trackingId)}`);
  const accepted = { id: trackingId, status: 'queued', client: client.name, chatId };
  if (scheduledAt !== undefined) {
    // scheduled: it will not go within any wait (a sendAt within the tolerance goes now, unscheduled)
    ctx.status = 202;
    ctx.body = { ...accepted, status: 'scheduled', sendAt: new Date(scheduledAt).toISOString() };
    return;
  }
  if (wait === undefined || wait === 0) {
    // `result` is not read: the SDK then makes no promise for it at all (an unread result never
    // becomes an unhandled rejection), which saves four promises per request.
    ctx.status = 202;
    ctx.body = accepted;
    return;
  }
  ctx.set('Preference-Applied', `wait=${wait}`);
  const result = queued.result;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), wait * 1000);
  });
  // The send governor deferring the send answers at once: it will not go within the wait.
  let onStatus: ((record: TrackedSend) => void) | undefined;
  const deferred = new Promise<TrackedSend>((resolve) => {
    onStatus = (record) => {
      if (record.id === trackingId && record.status === 'deferred') resolve(record);
    };
    client.on('message.status', onStatus);
  });
  try {
    const outcome = await Promise.race([result, timeout, deferred]);
    if (outcome === 'timeout' || 'status' in outcome) {
      // not reported: the send's outcome is tracked (GET /messages/{id}, webhooks, SSE)
      result.catch(() => undefined);
      ctx.status = 202;
      ctx.body =
        outcome === 'timeout'
          ? accepted
          : { ...accepted, status: 'deferred', budget: outcome.budget, dueAt: outcome.dueAt };
      return;
    }
    // Acks may have moved the send past `sent` while we waited.
    const record = await rc.sdk.sends.get(trackingId);
    const status = record?.status;
    ctx.status = 201;
    ctx.body = {
      id: trackingId,
      status: status === 'delivered' || status === 'read' || status === 'played' ? status : 'sent',
      messageId: outcome.id,
      ack: record?.ack ?? 0,
      client: client.name,
      chatId,
    };
  } finally {
    clearTimeout(timer);
    client.off('message.status', onStatus!);
  }
}

export async function findSend(
  rc: RestContext,
  clients: BotClient[],
  id: string,
): Promise<TrackedSend> {
  const record = await rc.sdk.sends.get(id);
  if (!record || !clients.some((client) => client.name === record.client)) {
    throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${id}`);
  }
  return record;
}

export function messageRoutes(rc: RestContext): AnyRoute[] {
  const responses = {
    201: { description: 'With `Prefer: wait=N`: sent within N seconds', schema: MessageSent },
    202: {
      description:
        'Accepted and queued (also with `Prefer: wait=N` when not sent in time); `scheduled` with `sendAt` (until then, docs/scheduling.md); `deferred` with `Prefer: wait=N` when the send governor keeps it until `dueAt` (docs/safety.md)',
      schema: MessageAccepted,
      headers: { Location: 'URL of the message status' },
    },
  };
  const errors = [400, 401, 403, 404, 409, 413, 415, 422, 429, 502, 503, 504];
  const named = z.object({ name: clientNameParam }).strict();
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/messages',
      operationId: 'sendMessage',
      summary:
        'Send a text or media message (queued; `Prefer: wait=N` waits up to N s for the send)',
      tag: 'messages',
      body: SendMessageRequest,
      responses,
      errors,
      async handler(ctx, { body, principal }) {
        await enqueueAndRespond(
          rc,
          ctx,
          // sends are accepted here into the shared outbox; only `Prefer: wait` goes to the owner
          resolveClient(rc, principal, body.client, {
            local: preferWait(ctx.get('prefer')) === undefined,
          }),
          body.send,
          principal,
          body.bypassBudget,
          body.sendAt,
        );
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/clients/{name}/messages',
      operationId: 'sendMessageFromClient',
      summary: 'Send a message from the named client',
      tag: 'messages',
      params: named,
      body: SendMessageRequest,
      responses,
      errors,
      async handler(ctx, { params, body, principal }) {
        if (body.client !== undefined && body.client !== params.name) {
          throw new WakitError('VALIDATION_FAILED', 'client in the body differs from the path', {
            issues: [{ path: 'client', message: `must be ${params.name} or absent` }],
          });
        }
        await enqueueAndRespond(
          rc,
          ctx,
          resolveClient(rc, principal, params.name, {
            local: preferWait(ctx.get('prefer')) === undefined,
          }),
          body.send,
          principal,
          body.bypassBudget,
          body.sendAt,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/messages/{id}',
      operationId: 'getMessage',
      summary: 'Status of a sent message by its tracking id',
      tag: 'messages',
      params: z.object({ id: MessageIdParam }).strict(),
      responses: { 200: { description: 'Status and ack', schema: MessageStatus } },
      errors: [401, 404],
      async handler(ctx, { params, principal }) {
        const record = await findSend(rc, visibleClients(rc, principal), params.id);
        ctx.state.client = record.client;
        ctx.body = statusOf(record);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/clients/{name}/messages/{id}',
      operationId: 'getClientMessage',
      summary: 'Status of a message of the named client',
      tag: 'messages',
      params: z.object({ name: clientNameParam, id: MessageIdParam }).strict(),
      responses: { 200: { description: 'Status and ack', schema: MessageStatus } },
      errors: [401, 403, 404],
      async handler(ctx, { params, principal }) {
        const client = resolveClient(rc, principal, params.name, { local: true });
        ctx.state.client = client.name;
        ctx.body = statusOf(await findSend(rc, [client], params.id));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/messages',
      operationId: 'listMessages',
      summary: 'Tracked sends, newest first (also after a restart), filtered and paginated',
      tag: 'messages',
      query: MessageListQuery,
      responses: {
        200: { description: 'One page; `next` is the cursor of the next', schema: MessageList },
      },
      errors: [400, 401, 403],
      async handler(ctx, { query, principal }) {
        const visible = visibleClients(rc, principal).map((c) => c.name);
        if (query.client) resolveClient(rc, principal, query.client, { local: true });
        const page = await rc.sdk.sends.list({
          clients: query.client ? [query.client] : visible,
          ...(query.status ? { status: query.status } : {}),
          ...(query.since !== undefined ? { since: query.since } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        ctx.body = { items: page.items.map(statusOf), ...(page.next ? { next: page.next } : {}) };
      },
    }),
  ];
}
