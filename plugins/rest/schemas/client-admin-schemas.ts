/** Schemas of the client-management routes (`POST /api/v1/clients`, webhooks, delete). */
import { z } from '../../../src/index.js';
import { SECRET_MASK } from '../events/client-webhooks.js';
import { EVENT_TYPES, clientWebhookSchema } from '../options.js';
import { clientNameParam, restSchemas } from './api-schemas.js';

function named<T extends z.ZodType>(id: string, schema: T): T {
  restSchemas.add(schema, { id });
  return schema;
}

/** At most this many in one request (`clientWebhooks.maxPerClient` may allow fewer). */
const MAX_WEBHOOKS = 100;

export const ClientWebhookInput = named('ClientWebhookInput', clientWebhookSchema);

const webhookList = z
  .array(ClientWebhookInput)
  .max(MAX_WEBHOOKS)
  .describe(
    'At most clientWebhooks.maxPerClient; URLs whose host resolves to a loopback, private or other special-purpose address are refused (400) unless clientWebhooks.allowPrivateNetworks',
  );

export const ClientWebhook = named(
  'ClientWebhook',
  z
    .object({
      url: z.string(),
      events: z.array(z.enum(EVENT_TYPES)).optional(),
      secret: z.literal(SECRET_MASK).describe('Never shown: always masked'),
      maxAttempts: z.number().int(),
      backoffMs: z.number().int(),
      maxBackoffMs: z.number().int(),
      timeoutMs: z.number().int(),
      maxPending: z.number().int(),
    })
    .strict(),
);

export const CreateClientRequest = named(
  'CreateClientRequest',
  z
    .object({
      name: clientNameParam,
      webhooks: webhookList.optional(),
    })
    .strict(),
);

export const ClientWebhooksRequest = named(
  'ClientWebhooksRequest',
  z.object({ webhooks: webhookList }).strict(),
);

export const ClientWebhookList = named(
  'ClientWebhookList',
  z.object({ name: z.string(), webhooks: z.array(ClientWebhook) }).strict(),
);

export const DeleteClientQuery = z
  .object({
    /** `true` also logs the client out and deletes its session (needs `confirm`). */
    deleteSession: z.enum(['true', 'false']).optional(),
    /** The client's name again: required with `deleteSession=true`. */
    confirm: clientNameParam
      .describe("The client's name again: required with deleteSession=true (else 400)")
      .optional(),
  })
  .strict();

export const ClientRemoved = named(
  'ClientRemoved',
  z.object({ name: z.string(), sessionDeleted: z.boolean() }).strict(),
);
