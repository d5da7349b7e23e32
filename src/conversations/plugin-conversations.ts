/**
 * `ctx.conversations`: what a plugin does with conversations and chat state. `define` registers a
 * conversation (and its trigger command, listed by `help`); the rest works at any time.
 */
import type { z } from 'zod';
import type { Message } from '../client/inbound/message.js';
import type { SendContent } from '../client/send/send-contract.js';
import type { CommandHandler, CommandMeta } from '../plugins/command-types.js';
import type { ChatStateHandle } from './chat-state.js';
import type { ConversationService } from './conversation-service.js';
import { chatOf, personId } from './person-key.js';
import type { ConversationDefinition, ConversationInfo } from './types.js';

/** Where a chat state lives: a received message's chat, or a chat named by client and id. */
export type ChatRef = Message | { client: string; chatId: string; member?: string };

export interface PluginConversations {
  /** Registers a conversation (during setup); its `trigger.command` becomes a command. */
  define<S>(definition: ConversationDefinition<S>, meta?: CommandMeta): void;
  /** Starts one in a chat (a bot that writes first); CONVERSATION_ACTIVE if one is going on. */
  start(
    client: string,
    chatId: string,
    name: string,
    options?: { input?: unknown; member?: string },
  ): Promise<ConversationInfo>;
  /** Active conversations (of one client). */
  list(client?: string): Promise<ConversationInfo[]>;
  /** Ends one, optionally with a last message. */
  end(id: string, message?: SendContent): Promise<void>;
  /**
   * The state of a chat, typed by `schema` (its defaults fill a new chat). `{ member: true }`: the
   * sender's own state inside a group.
   */
  state<S = Record<string, unknown>>(
    where: ChatRef,
    schema?: z.ZodType<S>,
    options?: { member?: boolean },
  ): ChatStateHandle<S>;
}

export function conversationsContext(
  service: ConversationService,
  host: {
    duringSetup(what: string): void;
    command(name: string, handler: CommandHandler, meta?: CommandMeta): void;
  },
): PluginConversations {
  return Object.freeze({
    define: (definition, meta) => {
      host.duringSetup('define conversations');
      service.define(definition as ConversationDefinition<never>);
      const command = definition.trigger?.command;
      if (command) {
        host.command(
          command,
          (cmd) =>
            service.trigger(cmd.client, cmd.message, definition.name, {
              args: [...cmd.args],
              text: cmd.rawArgs,
            }),
          { description: `Start ${definition.name}`, ...meta },
        );
      }
    },
    start: (client, chatId, name, options) => service.start(client, chatId, name, options),
    list: (client) => service.list(client),
    end: (id, message) => service.end(id, message),
    state: (where, schema, options) => {
      if (where instanceof Object && 'sender' in where) {
        const message = where;
        const { chatId } = chatOf(message);
        const member = options?.member && message.isGroup ? personId(message.sender) : undefined;
        return service.states.of(message.client, chatId, schema, member);
      }
      return service.states.of(where.client, where.chatId, schema, where.member);
    },
  } satisfies PluginConversations);
}

export type { ConversationDefinition } from './types.js';
