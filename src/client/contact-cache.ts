/**
 * Who is who: the LID ↔ phone answers of the engine's contact look-up, cached per client, and the
 * completion of received messages' `sender` with them (in arrival order).
 */
import type { ContactInfo, MessageData, MessageSender } from '../engines/types.js';

export interface ContactCacheOptions {
  /** Entries kept (least recently used dropped first). */
  max?: number;
  /** How long an answer is trusted, ms (a number can change hands; LIDs appear later). */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  info: ContactInfo;
  at: number;
}

export class ContactCache {
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<ContactInfo>>();
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(
    private readonly lookUp: (id: string) => Promise<ContactInfo>,
    options: ContactCacheOptions = {},
  ) {
    this.#max = options.max ?? 5_000;
    this.#ttlMs = options.ttlMs ?? 60 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** A cached, still fresh answer for this `@c.us`/`@lid` id. */
  peek(id: string): ContactInfo | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (this.#now() - entry.at > this.#ttlMs) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.info;
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
    const at = this.#now();
    for (const key of new Set([info.id, info.lid, info.phone])) {
      if (!key) continue;
      this.#entries.delete(key);
      this.#entries.set(key, { info: { ...info, id: key }, at });
    }
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value as string);
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

/**
 * Completes received messages' senders and hands them on in arrival order: messages that need no
 * look-up (or hit the cache) while nothing is pending pass synchronously; a failed look-up leaves
 * the sender as it came.
 */
export class SenderCompleter {
  #tail: Promise<void> = Promise.resolve();
  #inFlight = 0;

  constructor(
    private readonly cache: ContactCache,
    private readonly onError: (error: unknown, data: MessageData) => void,
  ) {}

  push(data: MessageData, deliver: (data: MessageData) => void): void {
    let sender = data.sender;
    let ask = needsLookUp(sender);
    if (ask) {
      const cached = this.cache.peek(sender.id);
      if (cached) {
        sender = completeSender(sender, cached);
        ask = false;
      }
    }
    if (!ask && this.#inFlight === 0) {
      deliver(sender === data.sender ? data : { ...data, sender });
      return;
    }
    this.#inFlight += 1;
    const lookUp = ask
      ? this.cache.resolve(sender.id).then(
          (info) => completeSender(sender, info),
          (error: unknown) => {
            this.onError(error, data);
            return sender;
          },
        )
      : Promise.resolve(sender);
    const previous = this.#tail;
    this.#tail = Promise.all([lookUp, previous]).then(([complete]) => {
      this.#inFlight -= 1;
      deliver({ ...data, sender: complete });
    });
  }
}
