/**
 * Conversations and chat state as MCP tools, through the `conversations` service REST uses
 * (routes/conversations.ts): list, get, start (the bot writes first) and end active conversations;
 * read and erase a chat's state. A caller sees only the conversations of its clients: one of
 * another client is CONVERSATION_NOT_FOUND, as if it did not exist.
 */
import { z } from 'zod';
import { WakitError, isWakitError, normalizeChatId } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import type { McpBackend } from './mcp-backend.js';
import { clientArg, defineTool, type McpTool } from './mcp-tool.js';

const conversationId = z.string().min(1).max(128).describe('The conversation id (as listed)');
const chatId = z
  .string()
  .min(1)
  .max(128)
  .describe('A person (phone number, @c.us, @lid) or a group (@g.us)');

/** A chat id normalised as sends normalise it (INVALID_CHAT_ID). */
const chatOf = (value: unknown): string =>
  normalizeChatId(value, 'chatId', { allow: contract.REPLY_KINDS });

async function visible(backend: McpBackend, id: string) {
  let info;
  try {
    info = await backend.conversations.get(id);
  } catch (error) {
    if (!isWakitError(error) || error.code !== 'CONVERSATION_NOT_FOUND') throw error;
  }
  if (!info || !backend.canSee(info.client)) {
    throw new WakitError('CONVERSATION_NOT_FOUND', `No active conversation ${id}`, {
      details: { id },
    });
  }
  return info;
}

export const conversationTools: readonly McpTool[] = [
  defineTool({
    name: 'conversations_list',
    title: 'Active conversations',
    description:
      "The active conversations of the caller's clients (or of one client): chat, steps, next timer. (docs: docs/conversations.md)",
    input: z
      .object({ client: clientArg.describe('Only this client (default: every one)') })
      .strict(),
    effect: 'read',
    idempotent: true,
    async call(backend, { client }) {
      if (client !== undefined) backend.client(client as string, { local: true });
      const all = await backend.conversations.list(client as string | undefined);
      return { items: all.filter((info) => backend.canSee(info.client)) };
    },
  }),
  defineTool({
    name: 'conversations_get',
    title: 'One active conversation',
    description: 'One active conversation: its chat, step count and next timer.',
    input: z.object({ id: conversationId }).strict(),
    effect: 'read',
    idempotent: true,
    call: (backend, { id }) => visible(backend, id as string),
  }),
  defineTool({
    name: 'conversations_start',
    title: 'Start a conversation (the bot writes first)',
    description:
      'Runs a conversation a plugin defined (`name`) in a chat; its first question is sent through ' +
      'the outbox. CONVERSATION_ACTIVE when the chat has one already; CONVERSATION_UNKNOWN when no ' +
      'plugin defined the name. (docs: docs/conversations.md)',
    input: z
      .object({
        client: clientArg,
        chatId,
        name: z.string().min(1).max(128).describe('A conversation a plugin defined'),
        input: z.unknown().optional().describe("What the conversation's code gets as conv.input"),
      })
      .strict(),
    effect: 'additive',
    async call(backend, args) {
      const bot = backend.client(args.client as string | undefined);
      const options = args.input === undefined ? {} : { input: args.input };
      return backend.conversations.start(
        bot.name,
        chatOf(args.chatId),
        args.name as string,
        options,
      );
    },
  }),
  defineTool({
    name: 'conversations_end',
    title: 'End an active conversation',
    description:
      'Ends an active conversation, optionally with a last message to its chat (sent once, through the outbox); its timer does not fire.',
    input: z
      .object({
        id: conversationId,
        message: z.string().min(1).max(4_096).optional().describe('Sent to the chat as it ends'),
      })
      .strict(),
    effect: 'destructive',
    async call(backend, { id, message }) {
      const info = await visible(backend, id as string);
      backend.client(info.client); // the node that runs the client ends it
      await backend.conversations.end(info.id, message as string | undefined);
      return { ended: info.id };
    },
  }),
  defineTool({
    name: 'chat_state_read',
    title: "Read a chat's state",
    description:
      "A chat's state: its own value and its members', as conversations and plugins keep it. (docs: docs/conversations.md)",
    input: z.object({ client: clientArg, chatId }).strict(),
    effect: 'read',
    idempotent: true,
    async call(backend, args) {
      const bot = backend.client(args.client as string | undefined);
      const values = await backend.conversations.readState(bot.name, chatOf(args.chatId));
      return {
        values: values.map(({ updatedAt, ...value }) => ({
          ...value,
          updatedAt: new Date(updatedAt).toISOString(),
        })),
      };
    },
  }),
  defineTool({
    name: 'chat_state_erase',
    title: "Erase a chat's state",
    description: "Erases a chat's state (a person's request to be forgotten): cannot be undone.",
    input: z.object({ client: clientArg, chatId }).strict(),
    effect: 'destructive',
    idempotent: true,
    async call(backend, args) {
      const bot = backend.client(args.client as string | undefined);
      return { erased: await backend.conversations.eraseState(bot.name, chatOf(args.chatId)) };
    },
  }),
];
