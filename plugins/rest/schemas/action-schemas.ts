/**
 * Request schemas of the forward route (docs/actions.md), built from the SDK's action contract;
 * registered as OpenAPI components.
 */
import { z } from 'zod';
import { chatIdParam } from './chat-schemas.js';
import { restSchemas } from './api-schemas.js';
import { clientNameParam } from './api-schemas.js';
import * as contract from '../../../src/entries/contract.js';

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  restSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/** A WhatsApp message id (`true_<chat>_<id>`, `false_<chat>_<id>[_<author>]`) or a tracking id. */
export const ActionMessageIdParam = z.string().min(1).max(256).meta({
  pattern:
    '^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|(?:true|false)_[^_]+_[\\s\\S]*)$',
});
/** The chat of a presence or seen action: a conversation that takes replies. */
export const ChatIdParam = chatIdParam(contract.REPLY_KINDS);

const client = clientNameParam.optional();

export const ForwardRequest = named(
  'ForwardRequest',
  z
    .object({
      chatId: ChatIdParam.describe(
        'The chat to forward to: a person (number, @c.us, @lid) or a group',
      ),
      client,
    })
    .strict(),
  'Where to forward the message; `client` names the client of a WhatsApp message id (default client otherwise)',
);
