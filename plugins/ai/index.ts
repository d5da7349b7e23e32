/**
 * ai: a language model answers the turns no conversation and no command claimed, and answers
 * inside a conversation when its author asks (`ai.ask`; docs/ai.md). Any OpenAI-compatible
 * endpoint (OpenAI, Azure, OpenRouter, Ollama, vLLM, LM Studio) through the official `openai`
 * client and its `baseURL`. Memory per chat in the chat state, a `handoff` tool that gives the chat
 * to a person, built-in tools (schedule a message, start a conversation, look up the chat), tools
 * declared by the bot, a deadline per turn, token budgets, a fallback message: the person never
 * gets silence or a stack trace. Counters in the REST plugin's `/metrics`.
 */
import OpenAI from 'openai';
import {
  WakitError,
  definePlugin,
  type BotClient,
  type Conversation,
  type Message,
  type Plugin,
} from '../../src/index.js';
import { aiOptions, type AiOptions } from './options.js';
import type { AiTool } from './tools.js';
import { runTurn, type TurnDeps } from './turn.js';
import { aiMetrics } from './ai-metrics.js';
import { readTurn, type TurnText } from './media-input.js';

export { aiOptions, type AiOptionsInput } from './options.js';
export { defineAiTool, type AiTool, type AiToolContext } from './tools.js';
export type { TurnOutcome } from './ai-metrics.js';

/** What `ai.ask` needs of a conversation (`run(conv)`'s `conv`). */
export type AskingConversation = Pick<Conversation, 'client' | 'chatId' | 'external'>;

/** Options of one `ai.ask`. */
export interface AskOptions {
  /** Replaces the configured system prompt for this call (e.g. the conversation's task). */
  systemPrompt?: string;
}

/** The plugin, with `ask`: one model turn as a step of a conversation. */
export type AiPlugin = Plugin<AiOptions, 'chats' | 'metrics'> & {
  /**
   * One model turn inside a conversation: the chat's memory, the deadline, the budgets and the
   * fallback as for a message; returns the text to say (the model's, the fallback or the budget
   * message), journaled: a replay after a crash returns the same text without a model call.
   */
  ask(conv: AskingConversation, text: string, options?: AskOptions): Promise<string>;
};

/** Whether a message is one the plugin answers (chats, groups, kinds). */
function answers(message: Message, options: AiOptions, chats: ReadonlySet<string> | undefined) {
  if (message.fromMe || message.broadcast || message.isStatus || message.isChannel) return false;
  if (chats) return chats.has(message.chatId) && (!message.isGroup || options.groups);
  return !message.isGroup || options.groups;
}

/** The plugin, with the bot's own tools besides the built-in ones. */
export function createAiPlugin(extra: { tools?: readonly AiTool[] } = {}): AiPlugin {
  let ask:
    ((client: string, chatId: string, text: string, o: AskOptions) => Promise<string>) | undefined;
  const plugin = definePlugin({
    name: 'ai',
    version: '0.2.0',
    options: aiOptions,
    privileges: ['chats', 'metrics'],
    setup(ctx, { chats, metrics }) {
      const options = ctx.options;
      const openai = new OpenAI({
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        maxRetries: 0,
        timeout: options.turnDeadlineMs,
        ...(options.defaultQuery ? { defaultQuery: options.defaultQuery } : {}),
        ...(options.defaultHeaders ? { defaultHeaders: options.defaultHeaders } : {}),
      });
      const only = options.chats ? new Set(options.chats) : undefined;
      const builtIn = ['handoff', 'schedule_message', 'start_conversation', 'look_up_chat'];
      const names = new Set<string>(builtIn);
      for (const tool of extra.tools ?? []) {
        if (names.has(tool.name)) {
          throw new WakitError(
            'PLUGIN_DUPLICATE',
            `ai tool ${tool.name} is declared twice (or is a built-in tool's name)`,
          );
        }
        names.add(tool.name);
      }
      const deps: TurnDeps = {
        ctx,
        chats,
        openai,
        metrics: aiMetrics(metrics),
        tools: extra.tools ?? [],
        clientTokens: new Map(),
      };

      const answer = async (client: BotClient, message: Message): Promise<void> => {
        const send = (text: string) =>
          ctx.send(client.name, message.chatId, text, { priority: 'reply' });
        let turn: TurnText;
        const controller = new AbortController();
        const deadline = setTimeout(() => controller.abort(), options.turnDeadlineMs);
        try {
          turn = await readTurn(message, options, openai, controller.signal);
        } catch (error) {
          const timedOut = controller.signal.aborted;
          ctx.events.report(
            timedOut
              ? new WakitError('TIMEOUT', `No transcript within ${options.turnDeadlineMs} ms`)
              : new WakitError('INTERNAL', 'Reading the media failed', { cause: error }),
            { event: 'message', client: client.name },
          );
          await send(options.fallbackMessage);
          deps.metrics.turn(client.name, timedOut ? 'timeout' : 'failed', 0);
          return;
        } finally {
          clearTimeout(deadline);
        }
        if (turn.kind === 'unread') {
          await send(options.mediaMessage);
          deps.metrics.turn(client.name, 'media', 0);
          return;
        }
        const pushname = message.sender.pushname ?? message.notifyName;
        await runTurn(deps, {
          client,
          chatId: message.chatId,
          text: turn.text,
          ...(turn.image ? { image: turn.image } : {}),
          remembered: turn.remembered,
          message,
          ...(pushname ? { contactName: pushname } : {}),
          inConversation: false,
          state: ctx.conversations.state(message),
          deliver: async (texts, { handoff }) => {
            // a person may have taken the chat while the model was thinking: do not talk over them
            if (!handoff && (await chats.mode(client.name, message.chatId)).mode !== 'bot') {
              ctx.log.info(
                { client: client.name, chat: message.chatId },
                'ai: chat taken meanwhile',
              );
              return [];
            }
            for (const reply of texts) await send(reply);
            return texts;
          },
        });
      };

      ask = async (client, chatId, text, askOptions) => {
        const result = await runTurn(deps, {
          client: ctx.clients.get(client),
          chatId,
          text,
          inConversation: true,
          ...(askOptions.systemPrompt ? { systemPrompt: askOptions.systemPrompt } : {}),
          state: ctx.conversations.state({ client, chatId }),
          deliver: (texts) => Promise.resolve(texts),
        });
        return result.texts.join('\n\n');
      };

      ctx.on(
        'message',
        async (event, next) => {
          if (!answers(event.message, options, only)) return next();
          // claimed: the handlers after this one do not see the turn
          await answer(event.client, event.message);
        },
        options.clients ? { clients: options.clients } : {},
      );
    },
  });
  return Object.freeze({
    ...plugin,
    ask: (conv: AskingConversation, text: string, options: AskOptions = {}) => {
      const run = ask;
      if (!run) {
        return Promise.reject(
          new WakitError(
            'INVALID_STATE',
            'ai.ask: this ai plugin is not set up (sdk.use it, then start the SDK)',
          ),
        );
      }
      // journaled: a replay of the conversation returns the same text and calls no model
      return conv.external(() => run(conv.client, conv.chatId, text, options));
    },
  });
}

export default createAiPlugin();
