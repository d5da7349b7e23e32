/**
 * Request and response schemas of the REST API. Routes validate with them and the OpenAPI document
 * is generated from them (`openapi.ts`): one source of truth. Every schema with an `id` in
 * `restSchemas` becomes an OpenAPI component (schema-registry.ts).
 */
import { z } from 'zod';
import { ERROR_CODES } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import * as http from '../../../src/entries/http.js';
import { EVENT_TYPES } from '../options.js';
import { EngineHealth } from './health-schemas.js';
import { GovernorInfo } from './governor-schemas.js';
import { named } from './schema-registry.js';

export { restSchemas } from './schema-registry.js';

export const clientNameParam = http.clientNameSchema;

const isoTime = z.string().describe('ISO 8601 time');

export const ClientStatus = http.clientStatusSchema;

export const ClientSummary = named(
  'ClientSummary',
  z.object({ name: z.string(), status: ClientStatus }).strict(),
);
export const ClientListItem = named(
  'ClientListItem',
  z
    .object({
      name: z.string(),
      status: ClientStatus,
      origin: z
        .enum(['config', 'api', 'code'])
        .describe(
          'config: named in config.clients; api: added with POST /api/v1/clients (kept across restarts); code: created by the application',
        ),
      me: z.object({ id: z.string(), pushname: z.string() }).strict().nullable(),
      since: isoTime,
      createdAt: isoTime.optional().describe('When it was added (origin api)'),
      webhooks: z.number().int().describe('How many per-client webhooks it has'),
      node: z
        .string()
        .nullable()
        .optional()
        .describe('Cluster mode: the node running it (null: none now); absent on a single server'),
    })
    .strict(),
);
export const ClientList = named('ClientList', z.array(ClientListItem));

export const ClientInfo = named(
  'ClientInfo',
  z
    .object({
      name: z.string(),
      status: ClientStatus,
      me: z.object({ id: z.string(), pushname: z.string() }).strict().nullable(),
      engine: z.string(),
      since: isoTime,
      queue: z
        .object({ pending: z.number().int(), held: z.number().int(), running: z.number().int() })
        .strict(),
      lastDisconnect: z
        .object({ reason: z.enum(contract.DISCONNECT_REASONS), at: isoTime })
        .strict()
        .nullable(),
      reconnect: z
        .object({
          reason: z.enum(contract.DISCONNECT_REASONS),
          cause: z
            .string()
            .describe(
              'On the reconnect ladder: network, whatsapp_unreachable, … (docs/engines.md)',
            ),
          untilCured: z.boolean().describe('Retried until cured, with no attempt limit'),
          attempt: z.number().int(),
          nextAttemptAt: isoTime,
          error: z.string().nullable(),
        })
        .strict()
        .nullable()
        .describe('While reconnecting: why and when the next attempt is due; else null'),
      health: EngineHealth.nullable(),
      governor: GovernorInfo.nullable().describe(
        'The send governor (docs/safety.md); null when off',
      ),
    })
    .strict(),
);

export const LogoutResult = named(
  'LogoutResult',
  z.object({ name: z.string(), status: z.literal('STOPPED') }).strict(),
);

export const QrFormat = z.enum(['base64', 'png', 'svg', 'text']);
export const QrQuery = z.object({ format: QrFormat.optional() }).strict();
export const QrBase64 = named(
  'QrBase64',
  z
    .object({
      format: z.literal('base64'),
      mimetype: z.literal('image/png'),
      data: z.string().describe('base64 PNG'),
    })
    .strict(),
);

export const PairingCodeRequest = named(
  'PairingCodeRequest',
  z
    .object({ phoneNumber: z.string().regex(/^\+?[\d\s-]{6,20}$/, 'must be a phone number') })
    .strict(),
);
export const PairingCode = named('PairingCode', z.object({ code: z.string() }).strict());

/** The text options of the send contract (one definition, shared with the SDK). */
export const TextOptions = named('TextOptions', contract.textOptionsSchema);

/** `sendAt` over REST: one form, an RFC 3339 date-time (the SDK also takes epoch ms and a Date). */
export const SendAtField = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z' })
  .describe(
    'Schedule the send: not before this RFC 3339 date-time (e.g. 2026-01-31T12:00:00Z); accepted now (202, status `scheduled`), sent at its time (docs/scheduling.md). Within `queue.schedule.pastToleranceMs` in the past: sent now; further back, further ahead than `queue.schedule.maxAheadMs`: 400 INVALID_SEND_AT (its `errors` name `sendAt`); not a date-time: 400 VALIDATION_FAILED',
  );

/** `POST /api/v1/messages/{id}/reschedule`: move a scheduled send. */
export const RescheduleRequest = named(
  'RescheduleRequest',
  z.object({ sendAt: SendAtField }).strict(),
);

/**
 * `POST /api/v1/messages`: the send contract's HTTP body (`chatId`, `content` as text or media by
 * http(s) `url` or base64 `data`, `options` for text) plus `client`. Parsing it prepares the send.
 */
export const SendMessageRequest = named(
  'SendMessageRequest',
  contract.sendRequestSchema({
    client: clientNameParam.optional(),
    bypassBudget: z
      .boolean()
      .optional()
      .describe(
        "Operators: the send goes whatever the send governor's budgets say (logged with the send and the budget bypassed; docs/safety.md)",
      ),
    sendAt: SendAtField.optional(),
  }),
);

/** Statuses the outbox lists by (a held send is `queued` there). */
export const TRACKING_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'played',
  'failed',
  'cancelled',
] as const;

export const MessageAccepted = named(
  'MessageAccepted',
  z
    .object({
      id: z.string(),
      /**
       * `scheduled` (with `sendAt`): waits until `sendAt`; `deferred` (with `Prefer: wait=N`): the
       * send governor keeps it until `dueAt` for `budget`.
       */
      status: z.enum(['scheduled', 'queued', 'deferred']),
      sendAt: isoTime.optional(),
      budget: z.string().optional(),
      dueAt: isoTime.optional(),
      client: z.string(),
      chatId: z.string(),
    })
    .strict(),
);

export const MessageSent = named(
  'MessageSent',
  z
    .object({
      id: z.string(),
      status: z.enum(['sent', 'delivered', 'read', 'played']),
      messageId: z.string(),
      ack: z.number().int(),
      client: z.string(),
      chatId: z.string(),
    })
    .strict(),
);

export const MessageStatus = named(
  'MessageStatus',
  z
    .object({
      id: z.string(),
      client: z.string(),
      chatId: z.string(),
      kind: z.string(),
      /**
       * `held`: waiting for a retry after ENGINE_INCOMPATIBLE (docs/engines.md); `deferred`: kept by
       * the send governor until `dueAt` for `budget` (docs/safety.md).
       */
      status: z.enum([...TRACKING_STATUSES, 'held', 'deferred']),
      /** A scheduled send: not before this time (kept once it went). */
      sendAt: isoTime.optional(),
      budget: z.string().optional(),
      dueAt: isoTime.optional(),
      messageId: z.string().optional(),
      ack: z.number().int().optional(),
      error: z.object({ code: z.string(), message: z.string() }).strict().optional(),
      createdAt: isoTime,
      sentAt: isoTime.optional(),
      updatedAt: isoTime,
    })
    .strict(),
);

export const MessageIdParam = z.string().min(1).max(128);

export const MessageListQuery = z
  .object({
    client: clientNameParam.optional(),
    status: z.enum(TRACKING_STATUSES).optional(),
    /** ISO time; only sends created at or after it. */
    since: z.iso
      .datetime({
        offset: true,
        error: 'must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z',
      })
      .transform((v) => Date.parse(v))
      .optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a cursor from a previous page')
      .describe('`next` of the previous page (another value is 400)')
      .optional(),
  })
  .strict();

export const MessageList = named(
  'MessageList',
  z.object({ items: z.array(MessageStatus), next: z.string().optional() }).strict(),
);

export const Problem = named(
  'Problem',
  z
    .object({
      type: z.string(),
      title: z.string(),
      status: z.number().int(),
      detail: z.string(),
      code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES]),
      errors: z.array(z.object({ path: z.string(), message: z.string() }).strict()).optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  'RFC 9457 problem details (application/problem+json).',
);

export const Health = named(
  'Health',
  z
    .object({
      status: z.enum(['ok', 'unhealthy']),
      reasons: z.array(z.string()),
    })
    .strict(),
);
export const Readiness = named(
  'Readiness',
  z
    .object({
      /**
       * `degraded` (200): ready, but an engine cannot do everything on its WhatsApp Web build, or
       * runs another build than its pin.
       */
      status: z.enum(['ready', 'degraded', 'not_ready']),
      reasons: z.array(z.string()),
    })
    .strict(),
);

/** `a, b,c`: a comma-separated list of `item`s (blanks and empty entries are ignored). */
function csvPattern(item: string): string {
  return `^\\s*(?:(?:${item})\\s*)?(?:,\\s*(?:(?:${item})\\s*)?)*$`;
}

const csv = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .max(1024)
    .meta({ pattern: csvPattern(values.map((v) => v.replaceAll('.', '\\.')).join('|')) })
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)));

export const EventsQuery = z
  .object({
    client: z
      .string()
      .max(4096)
      .meta({ pattern: csvPattern('[A-Za-z0-9_-]{1,64}') })
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(clientNameParam))
      .optional(),
    types: csv(EVENT_TYPES).optional(),
  })
  .strict();

export const ClientEvent = named(
  'ClientEvent',
  z
    .object({
      id: z.string(),
      event: z.enum(EVENT_TYPES),
      client: z.string(),
      at: isoTime,
      data: z.unknown(),
    })
    .strict(),
  'The `data:` of an SSE event and the body of a webhook delivery.',
);
