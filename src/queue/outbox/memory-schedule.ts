import type { TrackedSend } from '../types.js';
import type { Deferral, OpenEntry, OutboxChange, OutboxEntry } from './outbox-store.js';
import type { ScheduleStore } from './outbox-store.js';

/** One send of the memory outbox. */
export interface Item {
  seq: number;
  entry: OutboxEntry;
  state: OutboxChange;
  deferral?: Deferral;
}

/** The memory outbox's scheduled sends: a scan of its items (for tests and `persistence: "memory"`). */
export class MemorySchedule implements ScheduleStore {
  constructor(
    private readonly items: ReadonlyMap<string, Item>,
    private readonly tracked: (item: Item) => TrackedSend,
    private readonly open: (item: Item) => OpenEntry,
  ) {}

  nextDue(client: string): Promise<number | undefined> {
    let next: number | undefined;
    for (const item of this.#scheduled(client)) {
      next = Math.min(next ?? Infinity, item.entry.sendAt!);
    }
    return Promise.resolve(next);
  }

  releaseDue(client: string, now: number, limit: number): Promise<OpenEntry[]> {
    const due = this.#scheduled(client)
      .filter((item) => item.entry.sendAt! <= now)
      .sort((a, b) => a.entry.sendAt! - b.entry.sendAt! || a.seq - b.seq)
      .slice(0, limit);
    for (const item of due) item.state = { ...item.state, status: 'queued', updatedAt: now };
    return Promise.resolve(due.map((item) => this.open(item)));
  }

  cancel(id: string, now: number): Promise<TrackedSend | undefined> {
    const item = this.items.get(id);
    if (item?.state.status === 'scheduled') {
      item.state = { ...item.state, status: 'cancelled', updatedAt: now };
    }
    return Promise.resolve(item && this.tracked(item));
  }

  reschedule(id: string, sendAt: number, now: number): Promise<TrackedSend | undefined> {
    const item = this.items.get(id);
    if (item?.state.status === 'scheduled') {
      item.entry = { ...item.entry, sendAt };
      item.state = { ...item.state, updatedAt: now };
    }
    return Promise.resolve(item && this.tracked(item));
  }

  #scheduled(client: string): Item[] {
    return [...this.items.values()].filter(
      (item) => item.entry.client === client && item.state.status === 'scheduled',
    );
  }
}
