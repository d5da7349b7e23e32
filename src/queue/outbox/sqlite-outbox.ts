import { chmodSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { WakitError } from '../../errors/index.js';
import type { SendPriority, TrackedSend } from '../types.js';
import { openOutboxDatabase } from './sqlite-open.js';
import { PROGRESS, storageError, toOpen, toTracked, type Row } from './sqlite-rows.js';
import { listSends, pruneSends } from './sqlite-history.js';
import { SqliteWaiting } from './sqlite-waiting.js';
import { SqliteSchedule } from './sqlite-schedule.js';
import type { ScheduleStore } from './outbox-store.js';
import { LazyProgress } from './lazy-progress.js';
import { OutcomeLog } from './outcome-log.js';
import {
  type Appended,
  type BulkFailure,
  type ListPage,
  type ListQuery,
  type OpenEntry,
  type OutboxChange,
  type OutboxEntry,
  type OutboxStore,
  type Deferral,
  type RetentionPolicy,
  type WaitingQuery,
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

const SET_CHANGE = `UPDATE sends SET status = ?, attempts = ?, updated_at = ?,
  message_id = COALESCE(?, message_id), ack = COALESCE(?, ack),
  sent_at = COALESCE(?, sent_at), error_code = ?, error_message = ?`;
const UPDATE_SQL = `${SET_CHANGE} WHERE id = ?`;
/** A send found by its rowid: one B-tree search instead of two (the id's index, then the row). */
const UPDATE_BY_SEQ_SQL = `${SET_CHANGE} WHERE seq = ? AND id = ?`;

type Op =
  | {
      type: 'append';
      entry: OutboxEntry;
      resolve(v: Appended): void;
      reject(e: WakitError): void;
      /** Set when an idempotency key matched an earlier send. */
      outcome?: Appended;
    }
  | { type: 'update'; id: string; change: OutboxChange; seq: number | undefined };

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
  readonly #progress = new LazyProgress(() => this.#schedule());
  readonly #scheduledFlush = (): void => this.#flush();
  readonly #write: (ops: readonly Op[]) => void;
  readonly #insert: Database.Statement;
  readonly #update: Database.Statement;
  readonly #defer: Database.Statement;
  readonly #updateBySeq: Database.Statement;
  readonly #byKey: Database.Statement;
  readonly #get: Database.Statement;
  readonly #waiting: SqliteWaiting;
  readonly schedule: ScheduleStore;
  /** Outcomes between group commits (default durability); none with fsync: it commits each. */
  readonly #outcomes: OutcomeLog | undefined;
  /** An outcome is pending that is in no log: `committed()` must commit it. */
  #unlogged = false;

  constructor(options: SqliteOutboxOptions) {
    this.#file = options.file;
    this.#onError = (error) => options.onError(error);
    this.#db = openOutboxDatabase(options.file, options.durability, options.maxPages);
    // Positional parameters: binding an object by name costs a property look-up per column.
    this.#insert = this.#db.prepare(
      `INSERT INTO sends (id, client, account, chat_id, kind, priority, content, media, idem_scope,
        idem_key, idem_hash, status, attempts, created_at, updated_at, bypass_budget, send_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
    );
    this.#defer = this.#db.prepare('UPDATE sends SET due_at = ?, due_budget = ? WHERE id = ?');
    this.#update = this.#db.prepare(UPDATE_SQL);
    this.#updateBySeq = this.#db.prepare(UPDATE_BY_SEQ_SQL);
    this.#byKey = this.#db.prepare(
      'SELECT id, idem_hash FROM sends WHERE idem_scope = ? AND idem_key = ?',
    );
    this.#get = this.#db.prepare('SELECT * FROM sends WHERE id = ?');
    this.#waiting = new SqliteWaiting(this.#db);
    this.schedule = new SqliteSchedule(this.#db, () => this.#sync(), this.#file);
    this.#write = this.#db.transaction((ops: readonly Op[]) => this.#writeOps(ops));
    if (options.durability !== 'fsync') {
      try {
        this.#outcomes = this.#openOutcomes(`${options.file}-outcomes`);
      } catch (error) {
        this.#db.close();
        throw storageError(error, this.#file);
      }
    }
  }

  /** Written at once, in its own transaction (a deferral is rare next to the sends that go). */
  defer(id: string, deferral: Deferral): void {
    if (this.#closed) return;
    try {
      this.#defer.run(deferral.dueAt, deferral.budget, id);
    } catch (error) {
      this.#onError(storageError(error, this.#file));
    }
  }

  /** Opens the outcome log and writes what a crash left in it (only onto sends still open). */
  #openOutcomes(file: string): OutcomeLog {
    const log = new OutcomeLog(file);
    chmodSync(file, 0o600);
    const left = log.read();
    if (left.length > 0) {
      const replay = this.#db.prepare(`${UPDATE_SQL} AND status IN ('queued', 'sending')`);
      this.#db.transaction(() => {
        for (const [id, change] of left) this.#runUpdate(id, change, undefined, replay);
      })();
    }
    log.clear();
    return log;
  }

  append(entry: OutboxEntry): Promise<Appended> {
    if (this.#closed)
      return Promise.reject(new WakitError('SHUTTING_DOWN', 'The outbox is closed'));
    return new Promise((resolve, reject) => {
      this.#ops.push({ type: 'append', entry, resolve, reject });
      this.#schedule();
    });
  }

  update(id: string, change: OutboxChange, seq?: number): void {
    if (this.#closed) return;
    if (PROGRESS.has(change.status)) {
      this.#progress.record(id, change, seq);
      return;
    }
    this.#progress.drop(id);
    this.#ops.push({ type: 'update', id, change, seq });
    this.#logOutcome(id, change);
    this.#schedule();
  }

  /** An outcome goes to the log at once, so the next send need not wait for a commit. */
  #logOutcome(id: string, change: OutboxChange): void {
    if (!this.#outcomes) {
      this.#unlogged = true;
      return;
    }
    try {
      this.#outcomes.write(id, change);
    } catch {
      // The log cannot take it (a full disk, say): committed() commits it instead, or reports.
      this.#unlogged = true;
    }
  }

  /**
   * Outcomes in the outcome log are as durable as a commit already. One that is not (durability
   * `fsync`, or the log failed) is committed now, synchronously, with whatever else is pending,
   * instead of waiting for the scheduled group commit: a loop iteration per send would make the
   * queue slower than the intake under load.
   */
  committed(): Promise<void> {
    if (this.#unlogged && !this.#closed && this.#ops.length > 0) this.#flush();
    return Promise.resolve();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#scheduledFlush);
  }

  /**
   * Writes the pending appends and status changes in one transaction; appends settle after it.
   * Delivery progress goes along once it is due (or `all`, for reads and close).
   */
  #flush(all = false): void {
    this.#scheduled = false;
    this.#unlogged = false;
    const ops = this.#ops.splice(0);
    for (const [id, change, seq] of this.#progress.take(all)) {
      ops.push({ type: 'update', id, change, seq });
    }
    if (ops.length === 0) return;
    try {
      this.#write(ops);
    } catch (error) {
      const failure = storageError(error, this.#file);
      for (const op of ops) if (op.type === 'append') op.reject(failure);
      if (ops.some((op) => op.type === 'update')) this.#onError(failure);
      return;
    }
    this.#clearOutcomes();
    for (const op of ops) {
      if (op.type === 'append') op.resolve(op.outcome!);
    }
  }

  /** The body of one group commit (a transaction function made once). */
  #writeOps(ops: readonly Op[]): void {
    // Only the last change of a send in this batch needs writing (each carries its whole state).
    let updates: Map<string, Op & { type: 'update' }> | undefined;
    for (const op of ops) {
      if (op.type === 'update') {
        updates ??= new Map();
        updates.delete(op.id);
        updates.set(op.id, op);
        continue;
      }
      const { entry } = op;
      const idem = entry.idempotency;
      if (idem) {
        const found = this.#byKey.get(idem.scope, idem.key) as
          { id: string; idem_hash: string } | undefined;
        if (found) {
          op.outcome = { id: found.id, duplicateOf: { id: found.id, hash: found.idem_hash } };
          continue;
        }
      }
      const { lastInsertRowid } = this.#insert.run(
        entry.id,
        entry.client,
        entry.account,
        entry.chatId,
        entry.kind,
        entry.priority,
        entry.content,
        entry.media ?? null,
        idem?.scope ?? null,
        idem?.key ?? null,
        idem?.hash ?? null,
        entry.sendAt === undefined ? 'queued' : 'scheduled',
        entry.createdAt,
        entry.createdAt,
        entry.bypassBudget ? 1 : null,
        entry.sendAt ?? null,
      );
      op.outcome = { id: entry.id, seq: Number(lastInsertRowid) };
    }
    if (!updates) return;
    for (const { id, change, seq } of updates.values()) this.#runUpdate(id, change, seq);
  }

  /** The log's outcomes are in the database now. */
  #clearOutcomes(): void {
    try {
      this.#outcomes?.clear();
    } catch (error) {
      // Harmless: written again at the next open, only onto sends still open.
      this.#onError(storageError(error, this.#outcomes!.file));
    }
  }

  /** Writes one change: by `seq` and id when the seq is known, else with `byId`. */
  #runUpdate(id: string, change: OutboxChange, seq?: number, byId = this.#update): void {
    const { status, attempts, updatedAt, error } = change;
    const messageId = change.messageId ?? null;
    const ack = change.ack ?? null;
    const sentAt = change.sentAt ?? null;
    const code = error?.code ?? null;
    const message = error?.message ?? null;
    if (seq === undefined) {
      byId.run(status, attempts, updatedAt, messageId, ack, sentAt, code, message, id);
    } else {
      this.#updateBySeq.run(
        status,
        attempts,
        updatedAt,
        messageId,
        ack,
        sentAt,
        code,
        message,
        seq,
        id,
      );
    }
  }

  /** Reads see every write made before them. */
  #sync(): void {
    if (this.#ops.length > 0 || this.#progress.size > 0) this.#flush(true);
  }

  get(id: string): Promise<TrackedSend | undefined> {
    this.#sync();
    const row = this.#get.get(id) as Row | undefined;
    return Promise.resolve(row ? toTracked(row) : undefined);
  }

  list(query: ListQuery): Promise<ListPage> {
    this.#sync();
    return Promise.resolve(listSends(this.#db, query));
  }

  open(client: string): Promise<OpenEntry[]> {
    this.#sync();
    const rows = this.#db
      .prepare(
        `SELECT * FROM sends WHERE client = ? AND status IN ('queued', 'sending') ORDER BY seq`,
      )
      .all(client) as Row[];
    return Promise.resolve(rows.map(toOpen));
  }

  openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    this.#sync();
    return Promise.resolve(this.#waiting.page(query, limit).map(toOpen));
  }

  countOpen(client: string): Promise<Record<SendPriority, number>> {
    this.#sync();
    return Promise.resolve(this.#waiting.count(client));
  }

  failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    this.#sync();
    try {
      return Promise.resolve(this.#waiting.fail(query, failure).map(toTracked));
    } catch (error) {
      return Promise.reject(storageError(error, this.#file));
    }
  }

  media(id: string): Promise<Buffer | undefined> {
    const row = this.#db.prepare('SELECT media FROM sends WHERE id = ?').get(id) as
      { media: Buffer | null } | undefined;
    return Promise.resolve(row?.media ?? undefined);
  }

  prune(policy: RetentionPolicy, now: number): Promise<number> {
    this.#sync();
    return Promise.resolve(pruneSends(this.#db, policy, now));
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#progress.stop();
    try {
      this.#flush(true);
    } finally {
      this.#closed = true;
      this.#outcomes?.close();
      this.#db.close();
    }
    return Promise.resolve();
  }
}
