/**
 * Who is who: the LID ↔ phone answers of the engine's contact look-up, cached per client, and the
 * completion of received messages' `sender` with them (in arrival order).
 */
import { LRUCache } from 'lru-cache';
import type { ContactInfo, MessageData, MessageSender } from '../../engines/types.js';
import { WakitError } from '../../errors/index.js';
import { systemClock, type Clock } from '../../kernel/clock.js';

/** How long a received message waits for its sender's look-up before it goes on without it. */
export const SENDER_LOOK_UP_DEADLINE_MS = 5_000;

export interface ContactCacheOptions {
  /** Entries kept (least recently used dropped first). */
  max?: number;
  /** How long an answer is trusted, ms (a number can change hands; LIDs appear later). */
  ttlMs?: number;
  now?: () => number;
}

export class ContactCache {
  /** Answers by id, least recently used dropped first, each trusted for `ttlMs` (lru-cache). */
  readonly #entries: LRUCache<string, ContactInfo>;
  readonly #pending = new Map<string, Promise<ContactInfo>>();

  constructor(
    private readonly lookUp: (id: string) => Promise<ContactInfo>,
    options: ContactCacheOptions = {},
  ) {
    this.#entries = new LRUCache({
      max: options.max ?? 5_000,
      ttl: options.ttlMs ?? 60 * 60_000,
      // the given clock read at every look (no cached time: tests move it)
      perf: { now: options.now ?? Date.now },
      ttlResolution: 0,
    });
  }

  /** A cached, still fresh answer for this `@c.us`/`@lid` id. */
  peek(id: string): ContactInfo | undefined {
    return this.#entries.get(id);
  }

  /** Resolves through the cache; concurrent asks for one id share one look-up. */
  resolve(id: string): Promise<ContactInfo> {
    const cached = this.peek(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.#pending.get(id);
    if (!pending) {
      let asked: Promise<ContactInfo>;
      try {
        asked = this.lookUp(id);
      } catch (error) {
        asked = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      pending = asked.then(
        (info) => {
          this.#pending.delete(id);
          if (info.isRegistered) this.remember(info);
          return info;
        },
        (error: unknown) => {
          this.#pending.delete(id);
          throw error;
        },
      );
      this.#pending.set(id, pending);
    }
    return pending;
  }

  /** Stores an answer under every id it names (the id asked, its LID and its phone). */
  remember(info: ContactInfo): void {
    for (const key of new Set([info.id, info.lid, info.phone])) {
      if (key) this.#entries.set(key, { ...info, id: key });
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** True when a sender is a person whose LID or phone is still unknown. */
export function needsLookUp(sender: MessageSender): boolean {
  const person = sender.id.endsWith('@c.us') || sender.id.endsWith('@lid');
  return person && (sender.lid === undefined || sender.phone === undefined);
}

/** `sender` with what `info` adds (the message's own id and pushname win). */
export function completeSender(sender: MessageSender, info: ContactInfo): MessageSender {
  const out: MessageSender = { ...sender };
  if (out.lid === undefined && info.lid) out.lid = info.lid;
  if (out.phone === undefined && info.phone) out.phone = info.phone;
  if (out.pushname === undefined && info.pushname) out.pushname = info.pushname;
  return out;
}

interface Pending {
  data: MessageData;
  sender: MessageSender | null;
  deliver: Deliver;
}

type Deliver = (data: MessageData, sender: MessageSender) => void;

export interface SenderCompleterOptions {
  /** How long a message waits for its sender's look-up (SENDER_LOOK_UP_DEADLINE_MS). */
  deadlineMs?: number;
  clock?: Clock;
}

/**
 * Completes received messages' senders and hands them on in arrival order: messages that need no
 * look-up (or hit the cache) while nothing waits pass synchronously; the others wait in a queue
 * behind the first unanswered look-up (one look-up per person, however many messages wait for
 * it). A failed look-up leaves the sender as it came; so does one that has not answered within
 * the deadline (a hung page: `onError` gets a TIMEOUT), so that later messages are not held
 * behind it; the look-up goes on and fills the cache when it answers.
 */
export class SenderCompleter {
  #queue: Pending[] = [];
  #head = 0;
  readonly #waiting = new Map<string, Pending[]>();
  /** The deadline of each group of waiters still unanswered. */
  readonly #timers = new Map<Pending[], NodeJS.Timeout>();
  /** Persons whose look-up passed its deadline and has not answered yet. */
  readonly #late = new Set<string>();
  readonly #deadlineMs: number;
  readonly #clock: Clock;

  constructor(
    private readonly cache: ContactCache,
    private readonly onError: (error: unknown, data: MessageData) => void,
    options: SenderCompleterOptions = {},
  ) {
    this.#deadlineMs = options.deadlineMs ?? SENDER_LOOK_UP_DEADLINE_MS;
    this.#clock = options.clock ?? systemClock;
  }

  push(data: MessageData, deliver: Deliver): void {
    let sender: MessageSender | null = data.sender;
    if (needsLookUp(sender)) {
      const cached = this.cache.peek(sender.id);
      // a look-up past its deadline is still out: its person's later messages do not wait for it
      sender = cached ? completeSender(sender, cached) : this.#late.has(sender.id) ? sender : null;
    }
    if (sender && this.#head === this.#queue.length) {
      deliver(data, sender);
      return;
    }
    const entry: Pending = { data, sender, deliver };
    this.#queue.push(entry);
    if (sender) return;
    const id = data.sender.id;
    const waiting = this.#waiting.get(id);
    if (waiting) {
      waiting.push(entry);
      return;
    }
    const waiters: Pending[] = [entry];
    this.#waiting.set(id, waiters);
    const timer = this.#clock.setTimeout(() => {
      const late = new WakitError(
        'TIMEOUT',
        `The look-up of ${id} did not answer within ${this.#deadlineMs} ms; delivered without it`,
        { details: { id, deadlineMs: this.#deadlineMs } },
      );
      this.#late.add(id);
      this.#answer(id, waiters, undefined, late);
    }, this.#deadlineMs);
    timer.unref?.();
    this.#timers.set(waiters, timer);
    // whichever comes first, the answer or the deadline; the other finds them answered
    this.cache.resolve(id).then(
      (info) => {
        this.#late.delete(id);
        this.#answer(id, waiters, info, undefined);
      },
      (error: unknown) => {
        this.#late.delete(id);
        this.#answer(id, waiters, undefined, error);
      },
    );
  }

  #answer(id: string, waiters: Pending[], info: ContactInfo | undefined, error: unknown): void {
    const timer = this.#timers.get(waiters);
    if (timer === undefined) return; // answered already (by the deadline or the look-up)
    this.#timers.delete(waiters);
    this.#clock.clearTimeout(timer);
    if (this.#waiting.get(id) === waiters) this.#waiting.delete(id);
    const entries = waiters;
    for (const entry of entries) {
      if (info) entry.sender = completeSender(entry.data.sender, info);
      else {
        this.onError(error, entry.data);
        entry.sender = entry.data.sender;
      }
    }
    while (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head];
      if (!next.sender) return;
      this.#head += 1;
      next.deliver(next.data, next.sender);
    }
    this.#queue = [];
    this.#head = 0;
  }
}
