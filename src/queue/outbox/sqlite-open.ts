import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openError, SCHEMA, addColumns } from './sqlite-rows.js';

/**
 * WAL pages written before they are folded back into the database (SQLite's default is 1,000). A
 * checkpoint runs inside a commit, on the event loop, and (synchronous=NORMAL) syncs the WAL and the
 * database file: every 1,000 pages that is a stall every fraction of a second under load. At 10,000
 * pages (the WAL file grows to ~40 MB) checkpoints are ten times rarer and each writes a hot page
 * once instead of ten times. Durability is the same: commits go to the WAL either way.
 */
const CHECKPOINT_PAGES = 10_000;

/**
 * Opens (or creates, 0600 in a 0700 folder) the outbox's SQLite file: WAL, the durability asked
 * for, an optional size cap, an integrity check, the schema and its added columns. A damaged or
 * unreadable file fails with STORAGE_CORRUPT / a storage error naming it (openError).
 */
export function openOutboxDatabase(
  file: string,
  durability: 'default' | 'fsync',
  maxPages: number | undefined,
): Database.Database {
  const dir = path.dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'fsync' ? 'FULL' : 'NORMAL'}`);
    db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    if (maxPages !== undefined) db.pragma(`max_page_count = ${maxPages}`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw Object.assign(new Error(String(check)), { code: 'SQLITE_CORRUPT' });
    db.exec(SCHEMA);
    addColumns(db);
  } catch (error) {
    throw openError(error, file);
  }
  chmodSync(file, 0o600);
  return db;
}
