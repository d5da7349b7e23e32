/** The SQLite outbox's table, its rows as tracked sends, and its error mapping. */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { WakitError, type ErrorCode } from '../../errors/index.js';
import type { SendPriority, TrackedSend, TrackingStatus } from '../types.js';
import type { OpenEntry } from './outbox-store.js';

export interface Row {
  seq: number;
  id: string;
  client: string;
  account: string | null;
  chat_id: string;
  kind: string;
  priority: string;
  content: string;
  status: string;
  attempts: number;
  message_id: string | null;
  ack: number | null;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  idem_scope: string | null;
  idem_key: string | null;
  idem_hash: string | null;
  bypass_budget: number | null;
  due_at: number | null;
  due_budget: string | null;
  send_at: number | null;
}

/**
 * Indexes are what every send pays on its INSERT and status UPDATEs, so only these: the unfinished
 * sends (recovery, paging of waiting sends, `queued`/`sending` history), the failed ones (terminal
 * and rare), idempotency keys. History by another status walks `seq` backwards (the statuses left
 * are the common ones); an index on (client, status, seq), dropped here, cost ~20 % of the
 * journal's CPU per send.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS sends (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  client TEXT NOT NULL,
  account TEXT,
  chat_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  priority TEXT NOT NULL,
  content TEXT NOT NULL,
  media BLOB,
  idem_scope TEXT,
  idem_key TEXT,
  idem_hash TEXT,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  message_id TEXT,
  ack INTEGER,
  error_code TEXT,
  error_message TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS sends_idempotency ON sends (idem_scope, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS sends_waiting ON sends (client, priority, seq) WHERE status IN ('queued', 'sending');
CREATE INDEX IF NOT EXISTS sends_failed ON sends (seq) WHERE status = 'failed';
DROP INDEX IF EXISTS sends_open;
`;

/** Columns added since the first schema: an existing file gets them on open (ALTER TABLE). */
const ADDED_COLUMNS: Readonly<Record<string, string>> = {
  bypass_budget: 'INTEGER',
  due_at: 'INTEGER',
  due_budget: 'TEXT',
  send_at: 'INTEGER',
};

/** Indexes on added columns: made once the columns are there (an older file gets them late). */
const ADDED_INDEXES = `
CREATE INDEX IF NOT EXISTS sends_scheduled ON sends (client, send_at) WHERE status = 'scheduled';
`;

/** A file made by an older version gets the columns added since (it keeps its rows). */
export function addColumns(db: Database.Database): void {
  const columns = db.pragma('table_info(sends)') as { name: string }[];
  const have = new Set(columns.map((c) => c.name));
  for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
    if (!have.has(name)) db.exec(`ALTER TABLE sends ADD COLUMN ${name} ${type}`);
  }
  db.exec(ADDED_INDEXES);
}

/** Delivery progress after `sent`: written lazily (coalesced), as recovery does not need it. */
export const PROGRESS: ReadonlySet<string> = new Set(['delivered', 'read', 'played']);
export const PROGRESS_DELAY_MS = 250;

/** SQLite error codes → wakit codes: a full disk is 507, anything else the store cannot do 503. */
export function storageError(error: unknown, file: string): WakitError {
  const code = (error as { code?: string }).code ?? '';
  const full = code === 'SQLITE_FULL' || (error as { code?: string }).code === 'ENOSPC';
  const wakitCode: ErrorCode = full ? 'STORAGE_FULL' : 'STORAGE_UNAVAILABLE';
  return new WakitError(
    wakitCode,
    full
      ? `The outbox ${file} is full (no space left): the send was not accepted`
      : `The outbox ${file} cannot be written (${code || (error as Error).message}): the send was not accepted`,
    { cause: error, details: { file: path.basename(file) } },
  );
}

export function toOpen(row: Row): OpenEntry {
  return {
    id: row.id,
    client: row.client,
    account: row.account,
    chatId: row.chat_id,
    kind: row.kind,
    priority: row.priority as SendPriority,
    content: row.content,
    createdAt: row.created_at,
    status: row.status as TrackingStatus,
    attempts: row.attempts,
    seq: row.seq,
    ...(row.bypass_budget === 1 ? { bypassBudget: true } : {}),
    ...(row.send_at !== null ? { sendAt: row.send_at } : {}),
    ...(row.due_at !== null
      ? { deferral: { budget: row.due_budget ?? '', dueAt: row.due_at } }
      : {}),
  };
}

export function toTracked(row: Row): TrackedSend {
  const record: TrackedSend = {
    id: row.id,
    client: row.client,
    chatId: row.chat_id,
    kind: row.kind,
    status: row.status as TrackingStatus,
    attempts: row.attempts,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
  if (row.message_id !== null) record.messageId = row.message_id;
  if (row.ack !== null) record.ack = row.ack;
  if (row.error_code !== null)
    record.error = { code: row.error_code as ErrorCode, message: row.error_message ?? '' };
  if (row.sent_at !== null) record.sentAt = new Date(row.sent_at).toISOString();
  if (row.send_at !== null) record.sendAt = new Date(row.send_at).toISOString();
  return record;
}

/** What opening the file failed with: STORAGE_CORRUPT when it is no sound database, else as below. */
/**
 * better-sqlite3's compiled part (`better_sqlite3.node`) is missing (its install script was blocked,
 * as pnpm 10 and npm's allowScripts do) or was built for another Node.js: nothing to do with the
 * file, so the error says what happened and the three ways out.
 */
export function nativeModuleError(error: unknown): WakitError | undefined {
  const { code = '', message = '' } = error as { code?: string; message?: string };
  if (
    !/Could not locate the bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/.test(message) &&
    code !== 'ERR_DLOPEN_FAILED'
  ) {
    return undefined;
  }
  return new WakitError(
    'STORAGE_UNAVAILABLE',
    'The outbox cannot be opened: the native part of better-sqlite3 is missing or was built for another Node.js (its install script did not run, e.g. blocked by pnpm or npm\'s allowScripts). Fix it with one of: `npm rebuild better-sqlite3`; allow its install script and reinstall (npm: `"allowScripts": { "better-sqlite3": true }` in package.json; pnpm: `pnpm approve-builds`); or set `queue.persistence` to "memory" (no outbox: accepted sends are lost on a crash).',
    { cause: error, details: { reason: 'native module missing', module: 'better-sqlite3' } },
  );
}

export function openError(error: unknown, file: string): WakitError {
  const native = nativeModuleError(error);
  if (native) return native;
  const code = (error as { code?: string }).code ?? '';
  if (
    code === 'SQLITE_NOTADB' ||
    code === 'SQLITE_CORRUPT' ||
    /malformed|not a database/i.test(String((error as Error).message))
  ) {
    return new WakitError(
      'STORAGE_CORRUPT',
      `The outbox file ${file} is not a sound SQLite database (${(error as Error).message}). ` +
        'It was left untouched: restore it from a backup, or move it away to start with an empty outbox (its unsent messages are then lost).',
      { cause: error, details: { file } },
    );
  }
  return storageError(error, file);
}
