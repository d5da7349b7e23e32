/**
 * The send tools: `messages_send` takes REST's send body (`POST /api/v1/messages`: text, or media
 * by `url` or base64 `data`, with the same limits, the same SSRF guard on the download, the same
 * send governor and outbox; `bypassBudget` is not offered to agents) and answers the tracking id;
 * `messages_status` follows a send by that id.
 */
import { z } from 'zod';
import { WakitError, type BotClient } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import { statusOf } from '../routes/messages.js';
import { SendAtField } from '../schemas/api-schemas.js';
import type { McpBackend } from './mcp-backend.js';
import { clientArg, defineTool, type McpTool } from './mcp-tool.js';

/** What a queued send or action answers: its tracking id, as REST's 202. */
export async function queuedAnswer(
  backend: McpBackend,
  bot: BotClient,
  send: contract.PreparedSend,
  idempotencyKey: string | undefined,
  sendAt?: string,
): Promise<Record<string, unknown>> {
  const options = {
    ...(idempotencyKey ? { idempotencyKey, idempotencyScope: backend.idempotencyScope } : {}),
    ...(sendAt !== undefined ? { sendAt } : {}),
  };
  const { trackingId, chatId, scheduledAt } = await bot.enqueue(send, options);
  const accepted = { id: trackingId, status: 'queued', client: bot.name, chatId };
  // as REST's 202: a sendAt within the past tolerance goes now, unscheduled
  return scheduledAt === undefined
    ? accepted
    : { ...accepted, status: 'scheduled', sendAt: new Date(scheduledAt).toISOString() };
}

const SendInput = contract.sendRequestSchema({
  client: clientArg,
  idempotencyKey: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .describe('Makes a retry safe: the same key (per token and client) is sent once'),
  sendAt: SendAtField.optional(),
});

export const sendTools: readonly McpTool[] = [
  defineTool({
    name: 'messages_send',
    title: 'Send a WhatsApp message',
    description:
      'Send a text, or media by URL (http/https; size-capped, private addresses refused), to a ' +
      'chat: `chatId` is a phone number, `<digits>@c.us`, `@lid` or a group `@g.us`; `content` is ' +
      'the text, or `{ "type": "image", "url": "https://…", "caption": "…" }` (image, video, ' +
      'audio, document, sticker), a location, contacts or a poll. Queued (paced, journaled, the ' +
      'send governor applies): answers its tracking id; messages_status follows it. With `sendAt` ' +
      '(RFC 3339) it is scheduled: status `scheduled`, sent at its time; messages_cancel and ' +
      'messages_reschedule act on it. (docs: docs/mcp.md)',
    input: SendInput,
    effect: 'additive',
    async call(backend, args) {
      const { client, idempotencyKey, send, sendAt } = args as z.output<typeof SendInput>;
      const bot = backend.client(client, { local: true });
      return queuedAnswer(backend, bot, send, idempotencyKey, sendAt);
    },
  }),
  defineTool({
    name: 'messages_status',
    title: 'Status of a send',
    description:
      'Where a send or queued action is: queued, sending, sent, delivered, read, failed (with its ' +
      'error code) or deferred by the send governor, by the tracking id messages_send answered.',
    input: z.object({ id: z.string().min(1).max(128).describe('The tracking id') }).strict(),
    effect: 'read',
    idempotent: true,
    async call(backend, args) {
      const id = args.id as string;
      const record = await backend.sends.get(id);
      if (!record || !backend.canSee(record.client)) {
        throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${id}`);
      }
      return statusOf(record);
    },
  }),
];
