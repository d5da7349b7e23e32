/**
 * The conversation API: what `defineConversation` takes and what its `run(conv)` works with.
 * Conversations are plain async code; wakit journals every step, so after a crash or a failover
 * the code is replayed to where it was and goes on from there (docs/conversations.md).
 */
import type { z } from 'zod';
import type { SendContent } from '../client/send/send-contract.js';
import type { TurnOption } from './turn-option.js';

/** What a conversation received: a message, or a vote on a poll it sent. */
export type Reply =
  | {
      readonly kind: 'message';
      readonly id: string;
      readonly body: string;
      /** WhatsApp message type: chat, image, document, audio, ptt, location, vcard, … */
      readonly type: string;
      readonly from: string;
      readonly quotedMessageId?: string;
      readonly media?: { mimetype: string; filename?: string; size?: number };
      readonly location?: { latitude: number; longitude: number; description?: string };
      readonly vcards?: string[];
      /** Unix ms (the conversation's clock) when it arrived. */
      readonly at: number;
    }
  | {
      readonly kind: 'vote';
      readonly pollMessageId: string;
      readonly selected: readonly string[];
      readonly at: number;
    };

/** Options every prompt takes. */
/** How `conv.say` sends (docs/conversations.md, "Typing per reply"). */
export interface SayOptions {
  /**
   * Show "typing…" ("recording…" for a voice note) before the message goes: `true` for a time
   * that fits the text, a number for that many ms (the send option of docs/messages.md). Not part
   * of what a replay compares: changing it between a crash and the replay sends nothing twice.
   */
  typing?: boolean | number;
}

export interface PromptOptions extends SayOptions {
  /** Sent after an answer that does not fit (default: a short English hint). */
  retry?: SendContent;
  /** Wrong answers before the conversation ends (with `tooManyAttempts`); default 3. */
  maxAttempts?: number;
  /** Sent when `maxAttempts` is reached; default "Too many attempts: cancelled." */
  tooManyAttempts?: SendContent;
}

export interface TextPromptOptions extends PromptOptions {
  /** true: accepted; a string: refused, sent as the retry message; false: refused. */
  validate?: (text: string) => boolean | string | Promise<boolean | string>;
}

export interface ChooseOptions extends PromptOptions {
  /** `text`: a numbered list; `poll`: a WhatsApp poll (the number and the label still count). */
  as?: 'text' | 'poll';
  /** Sent when the person answers an older menu (a quoted or voted menu that is not the last). */
  stale?: SendContent;
}

export type MediaKind = 'image' | 'document' | 'audio' | 'video' | 'sticker';

/** A chat's state inside a conversation: reads and journaled updates. */
export interface ConversationState<S> {
  get(): Promise<S>;
  /** Applies `fn` to the current value (retried on a concurrent write); journaled. */
  update(fn: (value: S) => S): Promise<S>;
}

/** What `run(conv)` gets. Every effect goes through it, so a replay repeats none. */
export interface Conversation<S = Record<string, unknown>> {
  readonly id: string;
  readonly name: string;
  readonly client: string;
  /** The chat it talks in. */
  readonly chatId: string;
  /** The person it talks with (the sender in a group). */
  readonly member: string;
  /** Whatever started it: the command's arguments, the keyword, or what `start()` was given. */
  readonly input: unknown;
  /** Sends to the chat through the outbox, once (idempotent across replays). */
  say(content: SendContent, options?: SayOptions): Promise<void>;
  /** The next message (or poll vote) of the person. */
  wait(): Promise<Reply>;
  /** A text answer; `prompt` is sent first unless undefined (the question was already said). */
  text(prompt?: SendContent, options?: TextPromptOptions): Promise<string>;
  number(
    prompt: SendContent,
    options?: PromptOptions & { min?: number; max?: number; integer?: boolean },
  ): Promise<number>;
  confirm(prompt: SendContent, options?: PromptOptions): Promise<boolean>;
  /** One of `options`, by its number, its label or a vote on the poll; resolves to the label. */
  choose<T extends string>(
    prompt: string,
    options: readonly T[],
    settings?: ChooseOptions,
  ): Promise<T>;
  media(
    prompt: SendContent,
    kinds?: readonly MediaKind[],
    options?: PromptOptions,
  ): Promise<Reply & { kind: 'message' }>;
  location(
    prompt: SendContent,
    options?: PromptOptions,
  ): Promise<{ latitude: number; longitude: number; description?: string }>;
  contact(prompt: SendContent, options?: PromptOptions): Promise<string[]>;
  /** Runs `fn` once; on replay its journaled result is returned instead. */
  external<T>(fn: () => T | Promise<T>): Promise<T>;
  /** The time, journaled (Date.now() would differ on replay). */
  now(): Promise<number>;
  /** A random number in [0, 1), journaled. */
  random(): Promise<number>;
  /** The chat's state (the bot's schema; per member in groups). */
  readonly state: ConversationState<S>;
  /** Ends the conversation now, optionally with a last message. */
  end(message?: SendContent, options?: SayOptions): Promise<never>;
}

/** How a conversation starts by itself. */
export interface ConversationTrigger {
  /** A command name (`order` for `!order`): registered with `help`, its arguments are the input. */
  command?: string;
  /** Whole messages (case-insensitive) that start it. */
  keywords?: readonly string[];
  /** A pattern a message matches. */
  pattern?: RegExp;
  /**
   * Keywords and patterns also in group chats (one conversation per member); default false. A
   * trigger `command` follows its command's own rules (`privateOnly`, `groupOnly`).
   */
  groups?: boolean;
}

export interface ConversationTimeout {
  /** Time without an answer before the reminder, and again before the expiry. */
  seconds: number;
  /** Sent after the first `seconds`; false: no reminder, the expiry comes after `seconds`. */
  reminder?: SendContent | false;
  /** Sent when it expires. */
  expired?: SendContent;
}

export interface ConversationDefinition<S = Record<string, unknown>> {
  readonly name: string;
  /**
   * The code's version: raise it when a change would replay journals differently. Conversations
   * started on another version end (with `versionChanged`) when they next wake.
   */
  readonly version?: number;
  readonly trigger?: ConversationTrigger;
  readonly timeout?: ConversationTimeout;
  /** Words (whole message, case-insensitive) that cancel it; default ["cancel"]; [] for none. */
  readonly cancelWords?: readonly string[];
  /** Sent on a cancel word; default "Cancelled." */
  readonly cancelled?: SendContent;
  /**
   * A command typed during the conversation: `resume` runs the command and the conversation goes
   * on waiting (default); `end` ends the conversation first.
   */
  readonly onInterrupt?: 'resume' | 'end';
  /**
   * Another conversation triggered while this one is active: `keep` this one (the trigger is
   * answered with `busy`; default) or `replace` it.
   */
  readonly onConflict?: 'keep' | 'replace';
  /** Sent when a trigger finds this conversation active; default a short note. */
  readonly busy?: SendContent;
  /** Sent when a journal of an older version wakes; default a short note. */
  readonly versionChanged?: SendContent;
  /** The chat state schema (with defaults) `conv.state` reads and writes. */
  readonly state?: z.ZodType<S>;
  /**
   * While it is active, its person's bursts are one turn each (`{ quietMs, maxMs? }`), or not
   * (`false`), whatever the bot's `conversations.turns` says (docs/turns.md).
   */
  readonly turns?: TurnOption;
  run(conv: Conversation<S>): Promise<void> | void;
}

/** An active conversation, as the SDK and REST list it. */
export interface ConversationInfo {
  id: string;
  name: string;
  version: number;
  client: string;
  chatId: string;
  member: string;
  startedAt: string;
  updatedAt: string;
  steps: number;
  /** When its timer fires next, and what it does then. */
  timer?: { at: string; action: 'remind' | 'expire' };
}

/** How `end()` finished a conversation (events, logs). */
export type EndReason =
  'completed' | 'cancelled' | 'expired' | 'ended' | 'replaced' | 'failed' | 'version' | 'attempts';
