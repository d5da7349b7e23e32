/**
 * Inbound flood control (`flood` config, docs/safety.md "Inbound flood control"): the first
 * middleware of the `message` chain. A person who writes faster than the limit (per private chat,
 * or per person in a group, each with its own limit) is not answered: the gate does not pass the
 * message on, so handlers, commands and conversations skip it. The message itself is not lost: it
 * was received, emitted to listeners, observers, SSE and webhooks, and stored as any other. Once
 * per interval the chat gets a notice. Operators and allow-listed chats are never throttled; the
 * account's own messages are not counted.
 *
 * A token bucket per (client, chat, person) on the kernel's clock (a VirtualClock in tests):
 * `messages` at once, refilled evenly over `intervalMs`. Kept in memory: a client runs on one node
 * at a time, so the node that receives a chat's messages holds its buckets (a restart or a
 * failover starts them full). rate-limiter-flexible was considered: it reads `Date.now()` and runs
 * its own timers, so the kernel's clock cannot drive it, and its Redis store is not needed here.
 */
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import { prepareContent } from '../client/send/send-contract.js';
import type { FloodConfig } from '../config/flood-schema.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import type { EventHandler } from './types.js';

interface Bucket {
  tokens: number;
  at: number;
  /** When the last notice went to this person's chat (at most one per interval). */
  noticeAt: number | undefined;
}

/** Buckets kept before full ones are swept. */
const SWEEP_AT = 10_000;

export interface FloodGateDeps {
  config: FloodConfig;
  clock: Clock;
  /** A notice that could not be sent (reported like a handler's failure). */
  onFailure: (client: string, messageId: string, error: unknown) => void;
}

export class FloodGate {
  readonly #config: FloodConfig;
  readonly #clock: Clock;
  readonly #onFailure: FloodGateDeps['onFailure'];
  readonly #buckets = new Map<string, Bucket>();
  readonly #operators: Set<string>;
  readonly #allowChats: Set<string>;

  constructor(deps: FloodGateDeps) {
    this.#config = deps.config;
    this.#clock = deps.clock;
    this.#onFailure = deps.onFailure;
    this.#operators = new Set(deps.config.operators.flatMap(idsOf));
    this.#allowChats = new Set(deps.config.allowChats.flatMap(idsOf));
  }

  /**
   * The `message` middleware: passes a message on unless its sender is throttled. A gathered turn
   * (docs/turns.md) comes back down the chain after its messages were each counted here: it passes.
   */
  readonly middleware: EventHandler<'message'> = (event, next) => {
    if (!this.#config.enabled || event.message.turn !== undefined) return next();
    if (this.admit(event.client, event.message)) return next();
    return undefined;
  };

  /** Whether `message` may be answered; counts it, and sends the notice when throttling begins. */
  admit(client: BotClient, message: Message): boolean {
    if (message.fromMe || this.#exempt(message)) return true;
    const { messages, intervalMs } = message.isGroup ? this.#config.groups : this.#config.direct;
    const person = message.sender.lid ?? message.sender.phone ?? message.sender.id;
    const key = `${client.name}\n${message.chatId}\n${person}`;
    const now = this.#clock.now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= SWEEP_AT) this.#sweep(now);
      bucket = { tokens: messages, at: now, noticeAt: undefined };
      this.#buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(messages, bucket.tokens + ((now - bucket.at) * messages) / intervalMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return true;
    }
    if (bucket.noticeAt === undefined || now - bucket.noticeAt >= intervalMs) {
      bucket.noticeAt = now;
      this.#notify(client, message);
    }
    return false;
  }

  #exempt(message: Message): boolean {
    if (this.#allowChats.has(message.chatId)) return true;
    const { id, lid, phone } = message.sender;
    return [id, lid, phone].some((value) => value !== undefined && this.#operators.has(value));
  }

  #notify(client: BotClient, message: Message): void {
    const notice = this.#config.notice;
    if (notice === null) return;
    const fail = (error: unknown): void => this.#onFailure(client.name, message.id, error);
    try {
      const send = prepareContent(message.chatId, notice);
      client.enqueue(send, { priority: 'reply' }).then((queued) => queued.result.catch(fail), fail);
    } catch (error) {
      fail(error);
    }
  }

  /** Drops buckets that have refilled (they start full again when needed). */
  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      const { intervalMs } = key.split('\n')[1]?.endsWith('@g.us')
        ? this.#config.groups
        : this.#config.direct;
      if (now - bucket.at >= intervalMs) this.#buckets.delete(key);
    }
  }
}

/** The ids a configured operator or chat stands for: an id as it is, a number as `@c.us`. */
function idsOf(entry: string): string[] {
  if (entry.includes('@')) return [entry];
  const digits = entry.replace(/\D/g, '');
  return digits ? [`${digits}@c.us`] : [];
}

/** The gate's middleware for the plugin host (a notice that fails is reported as `flood:notice`). */
export function floodMiddleware(
  config: FloodConfig,
  clock: Clock,
  report: (report: ErrorReport) => void,
): EventHandler<'message'> {
  return new FloodGate({
    config,
    clock,
    onFailure: (client, messageId, error) =>
      report({
        source: 'plugin',
        plugin: 'wakit',
        event: 'flood:notice',
        client,
        messageId,
        error,
      }),
  }).middleware;
}
