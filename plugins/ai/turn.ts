/**
 * One turn of the ai plugin, wherever it comes from (a message no one claimed, or `ai.ask` inside a
 * conversation): the budgets, the tools of the turn, the model call under the deadline, the
 * fallback, the handoff, the memory and the counters. The caller delivers the texts (sends them, or
 * hands them to the conversation) and says which went out; those are remembered.
 */
import type OpenAI from 'openai';
import {
  WakitError,
  z,
  type BotClient,
  type Message,
  type PluginContext,
} from '../../src/index.js';
import type * as http from '../../src/entries/http.js';
import { modelTurn } from './model-turn.js';
import { readAi, remember, tokensToday, utcDay, type StateHandle } from './memory.js';
import type { AiOptions } from './options.js';
import { defineAiTool, type AiTool } from './tools.js';
import { builtInTools, type TurnPlace } from './builtin-tools.js';
import type { AiMetrics, TurnOutcome } from './ai-metrics.js';
import type { ImagePart } from './media-input.js';

const HANDOFF_RESULT = 'The chat now belongs to a person. Write nothing more.';

export interface TurnDeps {
  ctx: PluginContext<AiOptions>;
  chats: http.PrivilegedServices['chats'];
  openai: OpenAI;
  metrics: AiMetrics;
  tools: readonly AiTool[];
  /** `<client>` → tokens of the day (this process's count). */
  clientTokens: Map<string, { day: string; tokens: number }>;
}

export interface TurnInput {
  client: BotClient;
  chatId: string;
  text: string;
  /** An image of the turn (`vision`). */
  image?: ImagePart;
  /** What memory keeps of the person's turn (default `text`; `[image] …` for an image). */
  remembered?: string;
  /** The message of the turn (absent for `ai.ask`). */
  message?: Message;
  contactName?: string;
  /** `ai.ask` inside a conversation: no handoff tool, no conversation started. */
  inConversation: boolean;
  /** Replaces the configured system prompt for this turn. */
  systemPrompt?: string;
  state: StateHandle;
  /** Sends (or hands over) the texts; resolves to those that went out (remembered). */
  deliver(texts: string[], how: { handoff: boolean }): Promise<string[]>;
}

export interface TurnResult {
  outcome: TurnOutcome;
  /** What went out (`deliver`'s answer). */
  texts: string[];
}

export async function runTurn(deps: TurnDeps, input: TurnInput): Promise<TurnResult> {
  const { ctx, metrics } = deps;
  const options = ctx.options;
  const client = input.client.name;
  const started = Date.now();
  const end = async (outcome: TurnOutcome, texts: string[]): Promise<TurnResult> => {
    const sent = await input.deliver(texts, { handoff: false });
    metrics.turn(client, outcome, (Date.now() - started) / 1000);
    return { outcome, texts: sent };
  };
  const memory = readAi(await input.state.get());
  const overChat =
    options.chatTokensPerDay > 0 && tokensToday(memory, started) >= options.chatTokensPerDay;
  const overClient =
    options.clientTokensPerDay > 0 &&
    spentByClient(deps.clientTokens, client, started) >= options.clientTokensPerDay;
  if (overChat || overClient) {
    ctx.log.info({ client, chat: input.chatId, overChat, overClient }, 'ai: token budget used up');
    return end('budget', [options.budgetMessage]);
  }
  let handoff: { reason: string; at: number } | undefined;
  const place: TurnPlace = {
    client,
    chatId: input.chatId,
    inConversation: input.inConversation,
    ...(input.contactName ? { contactName: input.contactName } : {}),
  };
  const tools = [
    ...(options.handoff && !input.inConversation
      ? [
          defineAiTool({
            name: 'handoff',
            description:
              'Hand the chat to a person (a human agent) when you cannot help, the person asks for a human, or the matter needs one. Give the reason.',
            parameters: z.object({ reason: z.string().min(1).max(500) }),
            run: ({ reason }) => {
              handoff = { reason, at: Date.now() };
              return HANDOFF_RESULT;
            },
          }),
        ]
      : []),
    ...builtInTools({ ctx, chats: deps.chats, options: options.tools }, place),
    ...deps.tools,
  ];
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), options.turnDeadlineMs);
  let result: Awaited<ReturnType<typeof modelTurn>>;
  try {
    result = await modelTurn({
      openai: deps.openai,
      model: options.model,
      temperature: options.temperature,
      systemPrompt: input.systemPrompt ?? options.systemPrompt,
      memory: memory.turns,
      text: input.text,
      ...(input.image ? { image: input.image } : {}),
      tools,
      maxToolRounds: options.maxToolRounds,
      context: {
        client: input.client,
        chatId: input.chatId,
        ...(input.message ? { message: input.message } : {}),
        signal: controller.signal,
      },
      toolFailed: (name, error) =>
        ctx.events.report(
          new WakitError('INTERNAL', `ai tool ${name} failed`, {
            cause: error,
            details: { tool: name },
          }),
          { event: 'message', client },
        ),
      stopped: () => handoff !== undefined || place.conversation !== undefined,
    });
  } catch (error) {
    const timedOut = controller.signal.aborted;
    ctx.events.report(
      timedOut
        ? new WakitError('TIMEOUT', `The model did not answer within ${options.turnDeadlineMs} ms`)
        : new WakitError('INTERNAL', 'The model call failed', { cause: error }),
      { event: 'message', client },
    );
    return end(timedOut ? 'timeout' : 'failed', [options.fallbackMessage]);
  } finally {
    clearTimeout(deadline);
  }
  const entry = deps.clientTokens.get(client);
  const day = utcDay(started);
  deps.clientTokens.set(client, {
    day,
    tokens: (entry?.day === day ? entry.tokens : 0) + result.tokens,
  });
  metrics.usage(client, result);
  const silent = handoff !== undefined || place.conversation !== undefined;
  const texts = handoff
    ? options.handoffMessage
      ? [options.handoffMessage]
      : []
    : place.conversation
      ? []
      : capped(result.texts, options.maxMessagesPerTurn);
  if (!silent && texts.length === 0) texts.push(options.fallbackMessage);
  // the chat is the person's before the last words go out: nothing of the bot's follows
  if (handoff) {
    await deps.chats.setMode(client, input.chatId, 'human', { reason: handoff.reason });
  }
  const sent = await input.deliver(texts, { handoff: handoff !== undefined });
  await remember(
    input.state,
    {
      user: input.remembered ?? input.text,
      ...(sent.length > 0 ? { assistant: sent.join('\n\n') } : {}),
      tokens: result.tokens,
      ...(handoff ? { handoff } : {}),
    },
    { maxTurns: options.maxTurnsInMemory, maxChars: options.maxMemoryChars, now: Date.now() },
  );
  const outcome: TurnOutcome = handoff
    ? 'handoff'
    : place.conversation
      ? 'conversation'
      : 'answered';
  const ms = Date.now() - started;
  metrics.turn(client, outcome, ms / 1000);
  ctx.log.info(
    {
      client,
      chat: input.chatId,
      tokens: result.tokens,
      calls: result.calls,
      toolCalls: result.toolCalls,
      ms,
      ...(handoff ? { handoff: handoff.reason } : {}),
      ...(place.conversation ? { conversation: place.conversation } : {}),
      ...(options.logContent ? { text: input.text, answer: sent } : { chars: input.text.length }),
    },
    'ai: turn answered',
  );
  return { outcome, texts: sent };
}

function spentByClient(
  clientTokens: TurnDeps['clientTokens'],
  client: string,
  now: number,
): number {
  const entry = clientTokens.get(client);
  return entry && entry.day === utcDay(now) ? entry.tokens : 0;
}

/** At most `max` texts: the ones past it are joined into the last. */
function capped(texts: string[], max: number): string[] {
  if (texts.length <= max) return texts;
  return [...texts.slice(0, max - 1), texts.slice(max - 1).join('\n\n')];
}
