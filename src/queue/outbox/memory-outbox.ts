import type { TrackedSend } from '../types.js';
import {
  FINISHED,
  type ListPage,
  type ListQuery,
  type OpenEntry,
  type OutboxChange,
  type OutboxEntry,
  type OutboxStore,
  type RetentionPolicy,
} from './outbox-store.js';

interface Item {
  seq: number;
  entry: OutboxEntry;
  state: OutboxChange;
}

/**
 * The outbox in memory (`queue.persistence: "memory"`): the same behaviour as the SQLite store,
 * for tests and for people who opt out; everything is lost when the process ends.
 */
export class MemoryOutbox implements OutboxStore {
  readonly kind = 'memory' as const;
  readonly #items = new Map<string, Item>();
  readonly #keys = new Map<string, { id: string; hash: string }>();
  #seq = 0;

  append(entry: OutboxEntry): Promise<{ id: string; duplicateOf?: { id: string; hash: string } }> {
    const idem = entry.idempotency;
    if (idem) {
      const found = this.#keys.get(`${idem.scope}\n${idem.key}`);
      if (found) return Promise.resolve({ id: found.id, duplicateOf: found });
      this.#keys.set(`${idem.scope}\n${idem.key}`, { id: entry.id, hash: idem.hash });
    }
    this.#items.set(entry.id, {
      seq: ++this.#seq,
      entry,
      state: { status: 'queued', attempts: 0, updatedAt: entry.createdAt },
    });
    return Promise.resolve({ id: entry.id });
  }

  update(id: string, change: OutboxChange): void {
    const item = this.#items.get(id);
    if (!item) return;
    item.state = {
      ...change,
      messageId: change.messageId ?? item.state.messageId,
      ack: change.ack ?? item.state.ack,
      sentAt: change.sentAt ?? item.state.sentAt,
    };
  }

  get(id: string): Promise<TrackedSend | undefined> {
    const item = this.#items.get(id);
    return Promise.resolve(item ? tracked(item) : undefined);
  }

  list(query: ListQuery): Promise<ListPage> {
    const before = query.cursor
      ? Number(Buffer.from(query.cursor, 'base64url').toString())
      : Infinity;
    const all = [...this.#items.values()]
      .filter(
        (i) =>
          i.seq < before &&
          (!query.clients || query.clients.includes(i.entry.client)) &&
          (!query.status || i.state.status === query.status) &&
          (query.since === undefined || i.entry.createdAt >= query.since),
      )
      .sort((a, b) => b.seq - a.seq);
    const page = all.slice(0, query.limit);
    const last = page.at(-1);
    return Promise.resolve({
      items: page.map(tracked),
      ...(all.length > query.limit && last
        ? { next: Buffer.from(String(last.seq)).toString('base64url') }
        : {}),
    });
  }

  open(client: string): Promise<OpenEntry[]> {
    return Promise.resolve(
      [...this.#items.values()]
        .filter((i) => i.entry.client === client && !FINISHED.has(i.state.status))
        .sort((a, b) => a.seq - b.seq)
        .map((i) => ({ ...i.entry, status: i.state.status, attempts: i.state.attempts })),
    );
  }

  media(id: string): Promise<Buffer | undefined> {
    return Promise.resolve(this.#items.get(id)?.entry.media);
  }

  prune(policy: RetentionPolicy, now: number): Promise<number> {
    const finished = [...this.#items.values()]
      .filter((i) => FINISHED.has(i.state.status))
      .sort((a, b) => b.seq - a.seq);
    let removed = 0;
    finished.forEach((item, index) => {
      if (index >= policy.maxCount || item.state.updatedAt < now - policy.maxAgeMs) {
        this.#items.delete(item.entry.id);
        const idem = item.entry.idempotency;
        if (idem) this.#keys.delete(`${idem.scope}\n${idem.key}`);
        removed++;
      }
    });
    return Promise.resolve(removed);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function tracked({ entry, state }: Item): TrackedSend {
  const record: TrackedSend = {
    id: entry.id,
    client: entry.client,
    chatId: entry.chatId,
    kind: entry.kind,
    status: state.status,
    attempts: state.attempts,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(state.updatedAt).toISOString(),
  };
  if (state.messageId !== undefined) record.messageId = state.messageId;
  if (state.ack !== undefined) record.ack = state.ack;
  if (state.error) record.error = state.error;
  if (state.sentAt !== undefined) record.sentAt = new Date(state.sentAt).toISOString();
  return record;
}
