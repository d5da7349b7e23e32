import type Database from 'better-sqlite3';
import type { TrackedSend } from '../types.js';
import type { OpenEntry } from './outbox-store.js';
import type { ScheduleStore } from './outbox-store.js';
import { storageError, toOpen, toTracked, type Row } from './sqlite-rows.js';

/**
 * The SQLite outbox's scheduled sends, on the partial index `sends_scheduled`: each change is one
 * statement (its own transaction, committed when it returns), guarded by `status = 'scheduled'`,
 * so a release, a cancel and a reschedule of one send never both take effect.
 */
export class SqliteSchedule implements ScheduleStore {
  readonly #next: Database.Statement;
  readonly #release: Database.Statement;
  readonly #cancel: Database.Statement;
  readonly #move: Database.Statement;
  readonly #get: Database.Statement;

  constructor(
    db: Database.Database,
    /** Writes what the outbox holds back (appends of this tick) before a read or change. */
    private readonly sync: () => void,
    private readonly file: string,
  ) {
    this.#next = db.prepare(
      `SELECT MIN(send_at) AS next FROM sends WHERE client = ? AND status = 'scheduled'`,
    );
    this.#release = db.prepare(
      `UPDATE sends SET status = 'queued', updated_at = @now WHERE seq IN (
         SELECT seq FROM sends WHERE client = @client AND status = 'scheduled' AND send_at <= @now
         ORDER BY send_at, seq LIMIT @limit)
       RETURNING *`,
    );
    this.#cancel = db.prepare(
      `UPDATE sends SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'scheduled'`,
    );
    this.#move = db.prepare(
      `UPDATE sends SET send_at = ?, updated_at = ? WHERE id = ? AND status = 'scheduled'`,
    );
    this.#get = db.prepare('SELECT * FROM sends WHERE id = ?');
  }

  nextDue(client: string): Promise<number | undefined> {
    this.sync();
    const row = this.#next.get(client) as { next: number | null };
    return Promise.resolve(row.next ?? undefined);
  }

  releaseDue(client: string, now: number, limit: number): Promise<OpenEntry[]> {
    return this.#write(() => {
      const rows = this.#release.all({ client, now, limit }) as Row[];
      return rows.sort((a, b) => a.send_at! - b.send_at! || a.seq - b.seq).map(toOpen);
    });
  }

  cancel(id: string, now: number): Promise<TrackedSend | undefined> {
    return this.#write(() => {
      this.#cancel.run(now, id);
      return this.#record(id);
    });
  }

  reschedule(id: string, sendAt: number, now: number): Promise<TrackedSend | undefined> {
    return this.#write(() => {
      this.#move.run(sendAt, now, id);
      return this.#record(id);
    });
  }

  #record(id: string): TrackedSend | undefined {
    const row = this.#get.get(id) as Row | undefined;
    return row ? toTracked(row) : undefined;
  }

  #write<T>(change: () => T): Promise<T> {
    try {
      this.sync();
      return Promise.resolve(change());
    } catch (error) {
      return Promise.reject(storageError(error, this.file));
    }
  }
}
