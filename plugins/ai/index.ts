/**
 * ai: a language model answers the turns no conversation and no command claimed
 * (docs/ai.md). Any OpenAI-compatible endpoint (OpenAI, Azure, OpenRouter, Ollama, vLLM, LM
 * Studio) through the official `openai` client and its `baseURL`. Memory per chat in the chat
 * state, a `handoff` tool that gives the chat to a person, tools declared by the bot, a deadline
 * per turn, token budgets, a fallback message: the person never gets silence or a stack trace.
 */
import OpenAI from 'openai';
import { WakitError, definePlugin, z, type BotClient, type Message } from '../../src/index.js';
import { modelTurn } from './model-turn.js';
import { readAi, remember, tokensToday, utcDay, type StateHandle } from './memory.js';
import { aiOptions, type AiOptions } from './options.js';
import { defineAiTool, type AiTool } from './tools.js';

export { aiOptions, type AiOptionsInput } from './options.js';
export { defineAiTool, type AiTool, type AiToolContext } from './tools.js';

const HANDOFF_RESULT = 'The chat now belongs to a person. Write nothing more.';

/** Whether a message is one the plugin answers (chats, groups, kinds). */
function answers(message: Message, options: AiOptions, chats: ReadonlySet<string> | undefined) {
  if (message.fromMe || message.broadcast || message.isStatus || message.isChannel) return false;
  if (chats) return chats.has(message.chatId) && (!message.isGroup || options.groups);
  return !message.isGroup || options.groups;
}

/** The plugin, with the bot's own tools besides `handoff`. */
export function createAiPlugin(extra: { tools?: readonly AiTool[] } = {}) {
  return definePlugin({
    name: 'ai',
    version: '0.1.0',
    options: aiOptions,
    privileges: ['chats'],
    setup(ctx, { chats }) {
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
      /** `<client>` → tokens of the day (this process's count). */
      const clientTokens = new Map<string, { day: string; tokens: number }>();
      const names = new Set<string>(options.handoff ? ['handoff'] : []);
      for (const tool of extra.tools ?? []) {
        if (names.has(tool.name)) {
          throw new WakitError('PLUGIN_DUPLICATE', `ai tool ${tool.name} is declared twice`);
        }
        names.add(tool.name);
      }

      const send = (client: BotClient, message: Message, text: string) =>
        ctx.send(client.name, message.chatId, text, { priority: 'reply' });

      const spentByClient = (client: string, now: number) => {
        const entry = clientTokens.get(client);
        return entry && entry.day === utcDay(now) ? entry.tokens : 0;
      };

      const answer = async (client: BotClient, message: Message): Promise<void> => {
        const text = message.body.trim();
        if (!text) {
          await send(client, message, options.mediaMessage);
          return;
        }
        const state = ctx.conversations.state(message) as StateHandle;
        const memory = readAi(await state.get());
        const started = Date.now();
        const overChat =
          options.chatTokensPerDay > 0 && tokensToday(memory, started) >= options.chatTokensPerDay;
        const overClient =
          options.clientTokensPerDay > 0 &&
          spentByClient(client.name, started) >= options.clientTokensPerDay;
        if (overChat || overClient) {
          ctx.log.info(
            { client: client.name, chat: message.chatId, overChat, overClient },
            'ai: token budget used up',
          );
          await send(client, message, options.budgetMessage);
          return;
        }
        let handoff: { reason: string; at: number } | undefined;
        const handoffTool = defineAiTool({
          name: 'handoff',
          description:
            'Hand the chat to a person (a human agent) when you cannot help, the person asks for a human, or the matter needs one. Give the reason.',
          parameters: z.object({ reason: z.string().min(1).max(500) }),
          run: ({ reason }) => {
            handoff = { reason, at: Date.now() };
            return HANDOFF_RESULT;
          },
        });
        const tools = [...(options.handoff ? [handoffTool] : []), ...(extra.tools ?? [])];
        const controller = new AbortController();
        const deadline = setTimeout(() => controller.abort(), options.turnDeadlineMs);
        let result: Awaited<ReturnType<typeof modelTurn>>;
        try {
          result = await modelTurn({
            openai,
            model: options.model,
            temperature: options.temperature,
            systemPrompt: options.systemPrompt,
            memory: memory.turns,
            text,
            tools,
            maxToolRounds: options.maxToolRounds,
            context: { client, message, signal: controller.signal },
            toolFailed: (name, error) =>
              ctx.events.report(
                new WakitError('INTERNAL', `ai tool ${name} failed`, {
                  cause: error,
                  details: { tool: name },
                }),
                { event: 'message', client: client.name },
              ),
            stopped: () => handoff !== undefined,
          });
        } catch (error) {
          const timedOut = controller.signal.aborted;
          ctx.events.report(
            timedOut
              ? new WakitError(
                  'TIMEOUT',
                  `The model did not answer within ${options.turnDeadlineMs} ms`,
                )
              : new WakitError('INTERNAL', 'The model call failed', { cause: error }),
            { event: 'message', client: client.name },
          );
          await send(client, message, options.fallbackMessage);
          return;
        } finally {
          clearTimeout(deadline);
        }
        const entry = clientTokens.get(client.name);
        const day = utcDay(started);
        clientTokens.set(client.name, {
          day,
          tokens: (entry?.day === day ? entry.tokens : 0) + result.tokens,
        });
        const texts = handoff
          ? options.handoffMessage
            ? [options.handoffMessage]
            : []
          : capped(result.texts, options.maxMessagesPerTurn);
        if (!handoff && texts.length === 0) texts.push(options.fallbackMessage);
        // a person may have taken the chat while the model was thinking: do not talk over them
        if (!handoff && (await chats.mode(client.name, message.chatId)).mode !== 'bot') {
          ctx.log.info({ client: client.name, chat: message.chatId }, 'ai: chat taken meanwhile');
          texts.length = 0;
        }
        // the chat is the person's before the last words go out: nothing of the bot's follows
        if (handoff) await chats.setMode(client.name, message.chatId, 'human');
        for (const reply of texts) await send(client, message, reply);
        await remember(
          state,
          {
            user: text,
            ...(texts.length > 0 ? { assistant: texts.join('\n\n') } : {}),
            tokens: result.tokens,
            ...(handoff ? { handoff } : {}),
          },
          { maxTurns: options.maxTurnsInMemory, maxChars: options.maxMemoryChars, now: Date.now() },
        );
        ctx.log.info(
          {
            client: client.name,
            chat: message.chatId,
            tokens: result.tokens,
            calls: result.calls,
            toolCalls: result.toolCalls,
            ms: Date.now() - started,
            ...(handoff ? { handoff: handoff.reason } : {}),
            ...(options.logContent ? { text, answer: texts } : { chars: text.length }),
          },
          'ai: turn answered',
        );
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
}

/** At most `max` texts: the ones past it are joined into the last. */
function capped(texts: string[], max: number): string[] {
  if (texts.length <= max) return texts;
  return [...texts.slice(0, max - 1), texts.slice(max - 1).join('\n\n')];
}

export default createAiPlugin();
