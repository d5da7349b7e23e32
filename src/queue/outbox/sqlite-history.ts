import type Database from 'better-sqlite3';
import {
  cursorSeq,
  FINISHED,
  pageOf,
  type ListPage,
  type ListQuery,
  type RetentionPolicy,
} from './outbox-store.js';
import { toTracked, type Row } from './sqlite-rows.js';

const FINISHED_SQL = [...FINISHED].map((s) => `'${s}'`).join(', ');

/** The SQLite outbox's history: tracked sends newest first, filtered and paged by cursor. */
export function listSends(db: Database.Database, query: ListQuery): ListPage {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.clients) {
    if (query.clients.length === 0) return { items: [] };
    where.push(`client IN (${query.clients.map(() => '?').join(', ')})`);
    params.push(...query.clients);
  }
  if (query.status) {
    where.push('status = ?');
    params.push(query.status);
    // lets SQLite use the partial index of unfinished sends
    if (query.status === 'queued' || query.status === 'sending') {
      where.push(`status IN ('queued', 'sending')`);
    }
  }
  if (query.since !== undefined) {
    where.push('created_at >= ?');
    params.push(query.since);
  }
  if (query.cursor) {
    where.push('seq < ?');
    params.push(cursorSeq(query.cursor));
  }
  const sql = `SELECT * FROM sends ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY seq DESC LIMIT ?`;
  const rows = db.prepare(sql).all(...params, query.limit + 1) as Row[];
  return pageOf(rows, query.limit, (row) => row.seq, toTracked);
}

/** Removes finished sends older than the policy's age or beyond its count; returns how many. */
export function pruneSends(db: Database.Database, policy: RetentionPolicy, now: number): number {
  const byAge = db
    .prepare(`DELETE FROM sends WHERE status IN (${FINISHED_SQL}) AND updated_at < ?`)
    .run(now - policy.maxAgeMs).changes;
  const byCount = db
    .prepare(
      `DELETE FROM sends WHERE seq IN (SELECT seq FROM sends WHERE status IN (${FINISHED_SQL})
        ORDER BY seq DESC LIMIT -1 OFFSET ?)`,
    )
    .run(policy.maxCount).changes;
  return byAge + byCount;
}
