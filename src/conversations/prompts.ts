/**
 * The prompts (`conv.text`, `number`, `confirm`, `choose`, `media`, `location`, `contact`): each is
 * a loop of plain steps (say, wait), so replay needs nothing of its own. WhatsApp has no buttons
 * for linked devices: a menu is a numbered text or a poll, and the number, the label and a vote
 * all count.
 */
import type { SendContent } from '../client/send/send-contract.js';
import { ConversationExit } from './conversation-exit.js';
import type {
  ChooseOptions,
  Conversation,
  MediaKind,
  PromptOptions,
  Reply,
  SayOptions,
} from './types.js';

type Core = Omit<
  Conversation<unknown>,
  'text' | 'number' | 'confirm' | 'choose' | 'media' | 'location' | 'contact'
>;

/** What a prompt needs of its run beyond the public API. */
export interface RunView {
  /** Sends like `say` and resolves to the send's tracking id (journaled). */
  sayTracked(content: SendContent, options?: SayOptions): Promise<string>;
  /** The WhatsApp id of a tracked send once it went out; null while unknown. */
  sentMessageId(trackingId: string): Promise<string | null>;
}

/** A check of one answer: the value, or the retry message to send. */
type Verdict<T> = { ok: true; value: T } | { ok: false; retry?: SendContent };
type Check<T> = (reply: Reply) => Verdict<T> | Promise<Verdict<T>>;

const YES = ['yes', 'y', 'yeah', 'yep', 'ok', 'okay', 'sure', 'si', 'sí', 'sim', 'oui', 'ja', '1'];
const NO = ['no', 'n', 'nope', 'nah', 'não', 'nao', 'non', 'nein', '2'];

/** Lower case, no accents, single spaces: how answers are compared with labels. */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The label an answer names: its number ("2", "2.", "#2"), or the label itself; else undefined. */
export function matchOption<T extends string>(
  answer: string,
  options: readonly T[],
): T | undefined {
  const text = normalize(answer);
  const number = /^#?(\d{1,3})[.)]?$/.exec(text);
  if (number) return options[Number(number[1]) - 1];
  return options.find((option) => normalize(option) === text);
}

/** The numbered text of a menu: the prompt, then "1. small" lines. */
export function menuText(prompt: string, options: readonly string[]): string {
  return [prompt, ...options.map((option, i) => `${i + 1}. ${option}`)].join('\n');
}

export function attachPrompts(core: Core, run: RunView): Conversation<unknown> {
  /** Tracking ids of the menus this conversation sent, oldest first. */
  const menus: string[] = [];
  /** True when `messageId` is one of the menus sent before the one at `current` (journaled). */
  const isOlderMenu = (messageId: string, current: number): Promise<boolean> =>
    core.external(async () => {
      for (const trackingId of menus.slice(0, current)) {
        if ((await run.sentMessageId(trackingId)) === messageId) return true;
      }
      return false;
    });
  const ask = async <T>(
    prompt: SendContent | undefined,
    options: PromptOptions,
    fallback: string,
    check: Check<T>,
  ): Promise<T> => {
    // the prompt, its retries and its last word are shown alike (typing)
    const shown: SayOptions = options.typing !== undefined ? { typing: options.typing } : {};
    if (prompt !== undefined) await core.say(prompt, shown);
    const max = options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt += 1) {
      const reply = await core.wait();
      const result = await check(reply);
      if (result.ok) return result.value;
      if (attempt >= max) {
        await core.say(options.tooManyAttempts ?? 'Too many attempts: cancelled.', shown);
        throw new ConversationExit('attempts');
      }
      await core.say(result.retry ?? options.retry ?? fallback, shown);
    }
  };
  const textOf = (reply: Reply): string | undefined =>
    reply.kind === 'message' && reply.type === 'chat' ? reply.body.trim() : undefined;

  return {
    ...core,
    text: (prompt, options = {}) =>
      ask<string>(prompt, options, 'Please answer with a text message.', async (reply) => {
        const text = textOf(reply);
        if (text === undefined || text === '') return { ok: false };
        const verdict = options.validate ? await options.validate(text) : true;
        if (verdict === true) return { ok: true, value: text };
        return typeof verdict === 'string' ? { ok: false, retry: verdict } : { ok: false };
      }),
    number: (prompt, options = {}) =>
      ask<number>(prompt, options, 'Please answer with a number.', (reply) => {
        const text = textOf(reply)?.replace(',', '.');
        const value = text !== undefined && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
        const fits =
          Number.isFinite(value) &&
          (!options.integer || Number.isInteger(value)) &&
          (options.min === undefined || value >= options.min) &&
          (options.max === undefined || value <= options.max);
        return fits ? { ok: true, value } : { ok: false };
      }),
    confirm: (prompt, options = {}) =>
      ask<boolean>(prompt, options, 'Please answer yes or no.', (reply) => {
        const text = normalize(textOf(reply) ?? '');
        if (YES.includes(text)) return { ok: true, value: true };
        if (NO.includes(text)) return { ok: true, value: false };
        return { ok: false };
      }),
    choose: <T extends string>(
      prompt: string,
      options: readonly T[],
      settings: ChooseOptions = {},
    ) => {
      const content: SendContent =
        settings.as === 'poll'
          ? { type: 'poll', question: prompt, options: [...options] }
          : menuText(prompt, options);
      const fallback = `Please answer with a number from 1 to ${options.length}.`;
      const staleText =
        settings.stale ?? 'That menu is no longer current: please answer the last one.';
      return (async () => {
        const shown = settings.typing !== undefined ? { typing: settings.typing } : {};
        menus.push(await run.sayTracked(content, shown));
        const current = menus.length - 1;
        return ask<T>(undefined, settings, fallback, async (reply) => {
          const answeredMenu = reply.kind === 'vote' ? reply.pollMessageId : reply.quotedMessageId;
          if (answeredMenu !== undefined && (await isOlderMenu(answeredMenu, current))) {
            return { ok: false, retry: staleText };
          }
          if (reply.kind === 'vote') {
            const label =
              reply.selected.length === 1 ? matchOption(reply.selected[0], options) : undefined;
            return label ? { ok: true, value: label } : { ok: false };
          }
          const label = matchOption(textOf(reply) ?? '', options);
          return label ? { ok: true, value: label } : { ok: false };
        });
      })();
    },
    media: (
      prompt,
      kinds: readonly MediaKind[] = ['image', 'document', 'audio', 'video'],
      options = {},
    ) =>
      ask<Reply & { kind: 'message' }>(
        prompt,
        options,
        `Please send ${kinds.join(' or ')}.`,
        (reply) => {
          if (reply.kind !== 'message' || !reply.media) return { ok: false };
          const kind = reply.type === 'ptt' ? 'audio' : reply.type;
          return kinds.includes(kind as MediaKind) ? { ok: true, value: reply } : { ok: false };
        },
      ),
    location: (prompt, options = {}) =>
      ask<{ latitude: number; longitude: number; description?: string }>(
        prompt,
        options,
        'Please share a location.',
        (reply) =>
          reply.kind === 'message' && reply.location
            ? { ok: true, value: reply.location }
            : { ok: false },
      ),
    contact: (prompt, options = {}) =>
      ask<string[]>(prompt, options, 'Please share a contact.', (reply) =>
        reply.kind === 'message' && reply.vcards && reply.vcards.length > 0
          ? { ok: true, value: reply.vcards }
          : { ok: false },
      ),
  };
}
