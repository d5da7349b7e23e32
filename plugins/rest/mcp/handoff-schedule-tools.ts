/**
 * Handoff and scheduling as MCP tools, through the services REST uses (routes/chat-modes.ts,
 * routes/scheduled-messages.ts, routes/schedules.ts), with the same checks and scopes: read and
 * set a chat's mode (`chats_mode_get`, `chats_mode_set`), cancel and move a scheduled send
 * (`messages_cancel`, `messages_reschedule`; a send is scheduled with `messages_send`'s
 * `sendAt`), list the scheduled sends (`messages_scheduled`) and the plugins' recurring jobs
 * (`schedules_list`). A send of a client outside the caller's is MESSAGE_NOT_FOUND, as over REST.
 */
import { z } from 'zod';
import { WakitError } from '../../../src/index.js';
import { statusOf } from '../routes/messages.js';
import { ChatModeChatId, ChatModeName } from '../schemas/chat-mode-schemas.js';
import { SendAtField } from '../schemas/api-schemas.js';
import type { McpBackend } from './mcp-backend.js';
import { clientArg, defineTool, type McpTool } from './mcp-tool.js';

const trackingId = z.string().min(1).max(128).describe('The tracking id messages_send answered');

/** A tracked send of the caller's clients (MESSAGE_NOT_FOUND otherwise, as REST). */
async function visibleSend(backend: McpBackend, id: string) {
  const record = await backend.sends.get(id);
  if (!record || !backend.canSee(record.client)) {
    throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${id}`);
  }
  return record;
}

export const handoffTools: readonly McpTool[] = [
  defineTool({
    name: 'chats_mode_get',
    title: 'Who answers a chat',
    description:
      'The mode of a chat: `bot` (the bot answers), `human` (a person answers; the bot is silent, ' +
      'until `until` for an automatic one) or `closed` (nobody), with since when and who set it. ' +
      '(docs: docs/handoff.md)',
    input: z.object({ client: clientArg, chatId: ChatModeChatId }).strict(),
    effect: 'read',
    idempotent: true,
    async call(backend, { client, chatId }) {
      const bot = backend.client(client as string | undefined);
      return backend.chats.mode(bot.name, chatId as string);
    },
  }),
  defineTool({
    name: 'chats_mode_set',
    title: "Set a chat's mode (silences the bot)",
    description:
      '`human` or `closed` silences the bot in the chat: its handlers, commands and conversations ' +
      'do not run there until the mode is `bot` again (an active conversation is paused or ended ' +
      'by the `handoff.conversations` policy). Set by hand, a mode stays until set again. ' +
      '(docs: docs/handoff.md)',
    input: z
      .object({
        client: clientArg,
        chatId: ChatModeChatId,
        mode: ChatModeName,
        reason: z.string().min(1).max(500).optional().describe('Why (shown with the mode)'),
      })
      .strict(),
    effect: 'destructive',
    idempotent: true,
    async call(backend, { client, chatId, mode, reason }) {
      const bot = backend.client(client as string | undefined);
      return backend.chats.setMode(
        bot.name,
        chatId as string,
        mode as 'bot' | 'human' | 'closed',
        typeof reason === 'string' ? { reason } : {},
      );
    },
  }),
];

export const scheduleTools: readonly McpTool[] = [
  defineTool({
    name: 'messages_scheduled',
    title: 'Scheduled sends',
    description:
      "The sends of the caller's clients (or of one client) waiting for their `sendAt`, " +
      'oldest first (at most `limit`, default 50). (docs: docs/scheduling.md)',
    input: z
      .object({
        client: clientArg.describe('Only this client (default: every one)'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many'),
      })
      .strict(),
    effect: 'read',
    idempotent: true,
    async call(backend, { client, limit }) {
      const clients =
        client !== undefined
          ? [backend.client(client as string).name]
          : backend.visible().map((c) => c.name);
      const page = await backend.sends.list({
        clients,
        status: 'scheduled',
        limit: (limit as number | undefined) ?? 50,
      });
      return { items: page.items.map(statusOf) };
    },
  }),
  defineTool({
    name: 'messages_cancel',
    title: 'Cancel a scheduled send',
    description:
      'A scheduled send never goes (status `cancelled`; cancelling it again answers the same). ' +
      'MESSAGE_NOT_SCHEDULED once its time came (or when it was not scheduled). ' +
      '(docs: docs/scheduling.md)',
    input: z.object({ id: trackingId }).strict(),
    effect: 'destructive',
    idempotent: true,
    async call(backend, { id }) {
      await visibleSend(backend, id as string);
      return statusOf(await backend.sends.cancel(id as string));
    },
  }),
  defineTool({
    name: 'messages_reschedule',
    title: 'Move a scheduled send',
    description:
      'Moves a scheduled send to another `sendAt` (RFC 3339). MESSAGE_NOT_SCHEDULED once its time ' +
      'came; INVALID_SEND_AT too far back or ahead. (docs: docs/scheduling.md)',
    input: z.object({ id: trackingId, sendAt: SendAtField }).strict(),
    effect: 'additive',
    idempotent: true,
    async call(backend, { id, sendAt }) {
      await visibleSend(backend, id as string);
      return statusOf(await backend.sends.reschedule(id as string, sendAt as string));
    },
  }),
  defineTool({
    name: 'schedules_list',
    title: 'Recurring jobs',
    description:
      'The recurring jobs plugins registered (`ctx.schedule`): cron expression, time zone, ' +
      'catch-up policy, next and last run. (docs: docs/scheduling.md)',
    input: z.object({}).strict(),
    effect: 'read',
    idempotent: true,
    async call(backend) {
      return { items: await backend.schedules.list() };
    },
  }),
];
