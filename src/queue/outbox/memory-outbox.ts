import type { SendPriority, TrackedSend } from '../types.js';
import { MemorySchedule, type Item } from './memory-schedule.js';
import {
  FINISHED,
  isOpen,
  type Appended,
  type BulkFailure,
  type Deferral,
  cursorSeq,
  pageOf,
  type ListPage,
  type ListQuery,
  type OpenEntry,
  type OutboxChange,
  type OutboxEntry,
  type OutboxStore,
  type RetentionPolicy,
  type WaitingQuery,
} from './outbox-store.js';

/**
 * The outbox in memory (`queue.persistence: "memory"`): the same behaviour as the SQLite store,
 * for tests and for people who opt out; everything is lost when the process ends.
 */
export class MemoryOutbox implements OutboxStore {
  readonly kind = 'memory' as const;
  readonly #items = new Map<string, Item>();
  readonly #keys = new Map<string, { id: string; hash: string }>();
  #seq = 0;
  readonly schedule = new MemorySchedule(this.#items, tracked, openEntry);

  append(entry: OutboxEntry): Promise<Appended> {
    const idem = entry.idempotency;
    if (idem) {
      const found = this.#keys.get(`${idem.scope}\n${idem.key}`);
      if (found) return Promise.resolve({ id: found.id, duplicateOf: found });
      this.#keys.set(`${idem.scope}\n${idem.key}`, { id: entry.id, hash: idem.hash });
    }
    const seq = ++this.#seq;
    this.#items.set(entry.id, {
      seq,
      entry,
      state: {
        status: entry.sendAt === undefined ? 'queued' : 'scheduled',
        attempts: 0,
        updatedAt: entry.createdAt,
      },
    });
    return Promise.resolve({ id: entry.id, seq });
  }

  committed(): Promise<void> {
    return Promise.resolve();
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

  defer(id: string, deferral: Deferral): void {
    const item = this.#items.get(id);
    if (item) item.deferral = { ...deferral };
  }

  get(id: string): Promise<TrackedSend | undefined> {
    const item = this.#items.get(id);
    return Promise.resolve(item ? tracked(item) : undefined);
  }

  list(query: ListQuery): Promise<ListPage> {
    const before = query.cursor ? cursorSeq(query.cursor) : Infinity;
    const all = [...this.#items.values()]
      .filter(
        (i) =>
          i.seq < before &&
          (!query.clients || query.clients.includes(i.entry.client)) &&
          (!query.status || i.state.status === query.status) &&
          (query.since === undefined || i.entry.createdAt >= query.since),
      )
      .sort((a, b) => b.seq - a.seq);
    return Promise.resolve(pageOf(all, query.limit, (i) => i.seq, tracked));
  }

  open(client: string): Promise<OpenEntry[]> {
    return Promise.resolve(
      [...this.#items.values()]
        .filter((i) => i.entry.client === client && isOpen(i.state.status))
        .sort((a, b) => a.seq - b.seq)
        .map(openEntry),
    );
  }

  // The items are in sequence order (a Map keeps insertion order): a scan finds a page.
  openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    const page: OpenEntry[] = [];
    for (const item of this.#items.values()) {
      if (page.length >= limit) break;
      if (waiting(item, query)) page.push(openEntry(item));
    }
    return Promise.resolve(page);
  }

  countOpen(client: string): Promise<Record<SendPriority, number>> {
    const counts: Record<SendPriority, number> = { reply: 0, normal: 0, bulk: 0 };
    for (const { entry, state } of this.#items.values()) {
      if (entry.client === client && isOpen(state.status)) counts[entry.priority]++;
    }
    return Promise.resolve(counts);
  }

  failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    const failed: TrackedSend[] = [];
    for (const item of this.#items.values()) {
      if (!waiting(item, query) || failure.except?.includes(item.entry.id)) continue;
      item.state = { ...item.state, status: 'failed', updatedAt: failure.updatedAt };
      item.state.error = failure.error;
      failed.push(tracked(item));
    }
    return Promise.resolve(failed);
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

function waiting({ seq, entry, state }: Item, query: WaitingQuery): boolean {
  return (
    seq > query.after &&
    entry.client === query.client &&
    entry.priority === query.priority &&
    isOpen(state.status)
  );
}

export function openEntry(item: Item): OpenEntry {
  const { entry, state, seq, deferral } = item;
  return {
    ...entry,
    status: state.status,
    attempts: state.attempts,
    seq,
    ...(deferral ? { deferral } : {}),
  };
}

export function tracked({ entry, state }: Item): TrackedSend {
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
  if (entry.sendAt !== undefined) record.sendAt = new Date(entry.sendAt).toISOString();
  return record;
}
