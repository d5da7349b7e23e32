import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WakitError, type ErrorCode } from '../../errors/index.js';
import type { TrackedSend, TrackingStatus } from '../types.js';
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

export interface SqliteOutboxOptions {
  file: string;
  /** `fsync`: every commit survives power loss too (synchronous=FULL); default: process crashes. */
  durability: 'default' | 'fsync';
  /** Caps the file (SQLite pages of 4 KiB); beyond it appends fail with STORAGE_FULL. */
  maxPages?: number;
  /** Reports failures of background writes (status updates). */
  onError(error: WakitError): void;
}

interface Row {
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
}

type Op =
  | {
      type: 'append';
      entry: OutboxEntry;
      resolve(v: { id: string; duplicateOf?: { id: string; hash: string } }): void;
      reject(e: WakitError): void;
    }
  | { type: 'update'; id: string; change: OutboxChange };

const SCHEMA = `
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
CREATE INDEX IF NOT EXISTS sends_open ON sends (client, status, seq);
CREATE INDEX IF NOT EXISTS sends_created ON sends (created_at, seq);
`;

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

function toTracked(row: Row): TrackedSend {
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
  return record;
}

/**
 * The embedded outbox: one SQLite file (WAL) per SDK, 0600 in a 0700 directory. Appends and status
 * updates of one tick are written in one transaction (group commit); an append resolves only once
 * its transaction committed. A file that is not a sound SQLite database stops start-up with
 * STORAGE_CORRUPT naming it: it is never replaced.
 */
export class SqliteOutbox implements OutboxStore {
  readonly kind = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #file: string;
  readonly #onError: (error: WakitError) => void;
  readonly #ops: Op[] = [];
  #scheduled = false;
  #closed = false;
  readonly #insert: Database.Statement;
  readonly #update: Database.Statement;
  readonly #byKey: Database.Statement;
  readonly #get: Database.Statement;

  constructor(options: SqliteOutboxOptions) {
    this.#file = options.file;
    this.#onError = (error) => options.onError(error);
    const dir = path.dirname(options.file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(options.file)) closeSync(openSync(options.file, 'a', 0o600));
    try {
      this.#db = new Database(options.file, { fileMustExist: true });
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma(`synchronous = ${options.durability === 'fsync' ? 'FULL' : 'NORMAL'}`);
      if (options.maxPages !== undefined) this.#db.pragma(`max_page_count = ${options.maxPages}`);
      const check = this.#db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw Object.assign(new Error(String(check)), { code: 'SQLITE_CORRUPT' });
      this.#db.exec(SCHEMA);
    } catch (error) {
      throw this.#openError(error);
    }
    chmodSync(options.file, 0o600);
    this.#insert = this.#db.prepare(
      `INSERT INTO sends (id, client, account, chat_id, kind, priority, content, media, idem_scope,
        idem_key, idem_hash, status, attempts, created_at, updated_at)
       VALUES (@id, @client, @account, @chatId, @kind, @priority, @content, @media, @scope, @key,
        @hash, 'queued', 0, @createdAt, @createdAt)`,
    );
    this.#update = this.#db.prepare(
      `UPDATE sends SET status = @status, attempts = @attempts, updated_at = @updatedAt,
        message_id = COALESCE(@messageId, message_id), ack = COALESCE(@ack, ack),
        sent_at = COALESCE(@sentAt, sent_at), error_code = @errorCode, error_message = @errorMessage
       WHERE id = @id`,
    );
    this.#byKey = this.#db.prepare(
      'SELECT id, idem_hash FROM sends WHERE idem_scope = ? AND idem_key = ?',
    );
    this.#get = this.#db.prepare('SELECT * FROM sends WHERE id = ?');
  }

  #openError(error: unknown): WakitError {
    const code = (error as { code?: string }).code ?? '';
    if (
      code === 'SQLITE_NOTADB' ||
      code === 'SQLITE_CORRUPT' ||
      /malformed|not a database/i.test(String((error as Error).message))
    ) {
      return new WakitError(
        'STORAGE_CORRUPT',
        `The outbox file ${this.#file} is not a sound SQLite database (${(error as Error).message}). ` +
          'It was left untouched: restore it from a backup, or move it away to start with an empty outbox (its unsent messages are then lost).',
        { cause: error, details: { file: this.#file } },
      );
    }
    return storageError(error, this.#file);
  }

  append(entry: OutboxEntry): Promise<{ id: string; duplicateOf?: { id: string; hash: string } }> {
    if (this.#closed)
      return Promise.reject(new WakitError('SHUTTING_DOWN', 'The outbox is closed'));
    return new Promise((resolve, reject) => {
      this.#ops.push({ type: 'append', entry, resolve, reject });
      this.#schedule();
    });
  }

  update(id: string, change: OutboxChange): void {
    if (this.#closed) return;
    this.#ops.push({ type: 'update', id, change });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  /** Writes every pending operation in one transaction; appends settle after it. */
  #flush(): void {
    this.#scheduled = false;
    const ops = this.#ops.splice(0);
    if (ops.length === 0) return;
    const settled: (() => void)[] = [];
    try {
      this.#db.transaction(() => {
        for (const op of ops) {
          if (op.type === 'update') {
            this.#runUpdate(op.id, op.change);
            continue;
          }
          const { entry } = op;
          const idem = entry.idempotency;
          if (idem) {
            const found = this.#byKey.get(idem.scope, idem.key) as
              { id: string; idem_hash: string } | undefined;
            if (found) {
              settled.push(() =>
                op.resolve({ id: found.id, duplicateOf: { id: found.id, hash: found.idem_hash } }),
              );
              continue;
            }
          }
          this.#insert.run({
            id: entry.id,
            client: entry.client,
            account: entry.account,
            chatId: entry.chatId,
            kind: entry.kind,
            priority: entry.priority,
            content: entry.content,
            media: entry.media ?? null,
            scope: idem?.scope ?? null,
            key: idem?.key ?? null,
            hash: idem?.hash ?? null,
            createdAt: entry.createdAt,
          });
          settled.push(() => op.resolve({ id: entry.id }));
        }
      })();
    } catch (error) {
      const failure = storageError(error, this.#file);
      for (const op of ops) if (op.type === 'append') op.reject(failure);
      if (ops.some((op) => op.type === 'update')) this.#onError(failure);
      return;
    }
    for (const settle of settled) settle();
  }

  #runUpdate(id: string, change: OutboxChange): void {
    this.#update.run({
      id,
      status: change.status,
      attempts: change.attempts,
      updatedAt: change.updatedAt,
      messageId: change.messageId ?? null,
      ack: change.ack ?? null,
      sentAt: change.sentAt ?? null,
      errorCode: change.error?.code ?? null,
      errorMessage: change.error?.message ?? null,
    });
  }

  /** Reads see every write made before them. */
  #sync(): void {
    if (this.#ops.length > 0) this.#flush();
  }

  get(id: string): Promise<TrackedSend | undefined> {
    this.#sync();
    const row = this.#get.get(id) as Row | undefined;
    return Promise.resolve(row ? toTracked(row) : undefined);
  }

  list(query: ListQuery): Promise<ListPage> {
    this.#sync();
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.clients) {
      if (query.clients.length === 0) return Promise.resolve({ items: [] });
      where.push(`client IN (${query.clients.map(() => '?').join(', ')})`);
      params.push(...query.clients);
    }
    if (query.status) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.since !== undefined) {
      where.push('created_at >= ?');
      params.push(query.since);
    }
    if (query.cursor) {
      where.push('seq < ?');
      params.push(Number(Buffer.from(query.cursor, 'base64url').toString()));
    }
    const sql = `SELECT * FROM sends ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY seq DESC LIMIT ?`;
    const rows = this.#db.prepare(sql).all(...params, query.limit + 1) as Row[];
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return Promise.resolve({
      items: page.map(toTracked),
      ...(rows.length > query.limit && last
        ? { next: Buffer.from(String(last.seq)).toString('base64url') }
        : {}),
    });
  }

  open(client: string): Promise<OpenEntry[]> {
    this.#sync();
    const rows = this.#db
      .prepare(
        `SELECT * FROM sends WHERE client = ? AND status IN ('queued', 'sending') ORDER BY seq`,
      )
      .all(client) as Row[];
    return Promise.resolve(
      rows.map((row) => ({
        id: row.id,
        client: row.client,
        account: row.account,
        chatId: row.chat_id,
        kind: row.kind,
        priority: row.priority as OpenEntry['priority'],
        content: row.content,
        createdAt: row.created_at,
        status: row.status as TrackingStatus,
        attempts: row.attempts,
      })),
    );
  }

  media(id: string): Promise<Buffer | undefined> {
    const row = this.#db.prepare('SELECT media FROM sends WHERE id = ?').get(id) as
      { media: Buffer | null } | undefined;
    return Promise.resolve(row?.media ?? undefined);
  }

  prune(policy: RetentionPolicy, now: number): Promise<number> {
    this.#sync();
    const finished = [...FINISHED].map((s) => `'${s}'`).join(', ');
    const byAge = this.#db
      .prepare(`DELETE FROM sends WHERE status IN (${finished}) AND updated_at < ?`)
      .run(now - policy.maxAgeMs).changes;
    const byCount = this.#db
      .prepare(
        `DELETE FROM sends WHERE seq IN (SELECT seq FROM sends WHERE status IN (${finished})
          ORDER BY seq DESC LIMIT -1 OFFSET ?)`,
      )
      .run(policy.maxCount).changes;
    return Promise.resolve(byAge + byCount);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    try {
      this.#flush();
    } finally {
      this.#closed = true;
      this.#db.close();
    }
    return Promise.resolve();
  }
}
