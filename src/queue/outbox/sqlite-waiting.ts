import type Database from 'better-sqlite3';
import type { SendPriority } from '../types.js';
import type { BulkFailure, WaitingQuery } from './outbox-store.js';
import type { Row } from './sqlite-rows.js';

/** The unfinished sends, as the partial index `sends_waiting` holds them. */
const WAITING = `client = @client AND priority = @priority AND status IN ('queued', 'sending')
  AND seq > @after`;

/**
 * The SQLite outbox's queries on waiting sends: the pages the outbound queue loads as its window
 * drains, the counts recovery starts from, and failing them all at once when the session ends.
 * Each runs on the partial index of unfinished sends, so finished ones cost nothing.
 */
export class SqliteWaiting {
  readonly #page: Database.Statement;
  readonly #count: Database.Statement;
  readonly #fail: Database.Statement;

  constructor(db: Database.Database) {
    this.#page = db.prepare(`SELECT * FROM sends WHERE ${WAITING} ORDER BY seq LIMIT @limit`);
    this.#count = db.prepare(
      `SELECT priority, COUNT(*) AS n FROM sends
       WHERE client = ? AND status IN ('queued', 'sending') GROUP BY priority`,
    );
    this.#fail = db.prepare(
      `UPDATE sends SET status = 'failed', updated_at = @updatedAt, error_code = @code,
        error_message = @message
       WHERE ${WAITING} AND id NOT IN (SELECT value FROM json_each(@except))
       RETURNING *`,
    );
  }

  page(query: WaitingQuery, limit: number): Row[] {
    return this.#page.all({ ...query, limit }) as Row[];
  }

  count(client: string): Record<SendPriority, number> {
    const counts: Record<SendPriority, number> = { reply: 0, normal: 0, bulk: 0 };
    for (const row of this.#count.all(client) as { priority: SendPriority; n: number }[]) {
      counts[row.priority] = row.n;
    }
    return counts;
  }

  fail(query: WaitingQuery, failure: BulkFailure): Row[] {
    return this.#fail.all({
      ...query,
      updatedAt: failure.updatedAt,
      code: failure.error.code,
      message: failure.error.message,
      except: JSON.stringify(failure.except ?? []),
    }) as Row[];
  }
}
