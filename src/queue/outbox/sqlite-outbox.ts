import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WakitError } from '../../errors/index.js';
import type { SendPriority, TrackedSend } from '../types.js';
import {
  openError,
  PROGRESS,
  SCHEMA,
  storageError,
  toOpen,
  toTracked,
  type Row,
} from './sqlite-rows.js';
import { listSends, pruneSends } from './sqlite-history.js';
import { SqliteWaiting } from './sqlite-waiting.js';
import { LazyProgress } from './lazy-progress.js';
import { OutcomeLog } from './outcome-log.js';
import {
  insertWrite,
  updateParams,
  UPDATE_SQL,
  type Write,
  type WriteResult,
} from './sqlite-writes.js';
import { WriterThread } from './writer-thread.js';
import {
  type Appended,
  type BulkFailure,
  type ListPage,
  type ListQuery,
  type OpenEntry,
  type OutboxChange,
  type OutboxEntry,
  type OutboxStore,
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

/**
 * WAL pages written before they are folded back into the database (SQLite's default is 1,000). A
 * checkpoint runs inside a commit, on the event loop, and (synchronous=NORMAL) syncs the WAL and the
 * database file: every 1,000 pages that is a stall every fraction of a second under load. At 10,000
 * pages (the WAL file grows to ~40 MB) checkpoints are ten times rarer and each writes a hot page
 * once instead of ten times. Durability is the same: commits go to the WAL either way.
 */
const CHECKPOINT_PAGES = 10_000;

type Op =
  | {
      type: 'append';
      entry: OutboxEntry;
      resolve(v: Appended): void;
      reject(e: WakitError): void;
    }
  | { type: 'update'; id: string; change: OutboxChange };

/**
 * The embedded outbox: one SQLite file (WAL) per SDK, 0600 in a 0700 directory. Appends and status
 * updates of one tick are written in one transaction (group commit) by the writer thread
 * (sqlite-writer.ts), off the event loop; an append resolves only once its transaction committed,
 * and reads wait for the batches in flight, so they see every write made before them. A file that is not a sound SQLite database stops start-up with
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
  readonly #writer: WriterThread;
  readonly #get: Database.Statement;
  readonly #waiting: SqliteWaiting;
  /** Outcomes between group commits (default durability); none with fsync: it commits each. */
  readonly #outcomes: OutcomeLog | undefined;
  /** An outcome is pending that is in no log: `committed()` must commit it. */
  #unlogged = false;

  constructor(options: SqliteOutboxOptions) {
    this.#file = options.file;
    this.#onError = (error) => options.onError(error);
    const dir = path.dirname(options.file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(options.file)) closeSync(openSync(options.file, 'a', 0o600));
    const synchronous = options.durability === 'fsync' ? 'FULL' : 'NORMAL';
    try {
      this.#db = new Database(options.file, { fileMustExist: true });
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma(`synchronous = ${synchronous}`);
      this.#db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
      this.#db.pragma('busy_timeout = 5000');
      if (options.maxPages !== undefined) this.#db.pragma(`max_page_count = ${options.maxPages}`);
      const check = this.#db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw Object.assign(new Error(String(check)), { code: 'SQLITE_CORRUPT' });
      this.#db.exec(SCHEMA);
    } catch (error) {
      throw openError(error, this.#file);
    }
    chmodSync(options.file, 0o600);
    this.#get = this.#db.prepare('SELECT * FROM sends WHERE id = ?');
    this.#waiting = new SqliteWaiting(this.#db);
    if (options.durability !== 'fsync') {
      try {
        this.#outcomes = this.#openOutcomes(`${options.file}-outcomes`);
      } catch (error) {
        this.#db.close();
        throw storageError(error, this.#file);
      }
    }
    this.#writer = new WriterThread({
      file: options.file,
      synchronous,
      checkpointPages: CHECKPOINT_PAGES,
      maxPages: options.maxPages,
    });
  }

  /** Opens the outcome log and writes what a crash left in it (only onto sends still open). */
  #openOutcomes(file: string): OutcomeLog {
    const log = new OutcomeLog(file);
    for (const p of log.paths) chmodSync(p, 0o600);
    const left = log.read();
    if (left.length > 0) {
      const replay = this.#db.prepare(`${UPDATE_SQL} AND status IN ('queued', 'sending')`);
      this.#db.transaction(() => {
        for (const [id, change] of left) replay.run(updateParams(id, change));
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

  update(id: string, change: OutboxChange): void {
    if (this.#closed) return;
    if (PROGRESS.has(change.status)) {
      this.#progress.record(id, change);
      return;
    }
    this.#progress.drop(id);
    this.#ops.push({ type: 'update', id, change });
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
      this.#outcomes.write(id, change, this.#writer.next);
    } catch {
      // The log cannot take it (a full disk, say): committed() commits it instead, or reports.
      this.#unlogged = true;
    }
  }

  /**
   * Outcomes in the outcome log are as durable as a commit already. One that is not (durability
   * `fsync`, or the log failed) is committed now, with whatever else is pending, instead of
   * waiting for the scheduled group commit: a loop iteration per send would make the queue slower
   * than the intake under load.
   */
  committed(): Promise<void> {
    if (!this.#unlogged || this.#closed) return Promise.resolve();
    this.#flush();
    return this.#writer.idle();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#scheduledFlush);
  }

  /**
   * Posts the pending appends and status changes as one batch; appends settle once it committed.
   * Only the last change of a send in a batch is written (each carries its whole state). Delivery
   * progress goes along once it is due (or `all`, for reads and close).
   */
  #flush(all = false): void {
    this.#scheduled = false;
    this.#unlogged = false;
    const ops = this.#ops.splice(0);
    const latest = new Map<string, OutboxChange>();
    for (const op of ops) if (op.type === 'update') latest.set(op.id, op.change);
    for (const [id, change] of this.#progress.take(all)) latest.set(id, change);
    const appends = ops.filter((op) => op.type === 'append');
    if (appends.length === 0 && latest.size === 0) return;
    const writes: Write[] = appends.map((op) => insertWrite(op.entry));
    for (const [id, change] of latest) writes.push({ update: updateParams(id, change) });
    const updates = latest.size;
    const batch = this.#writer.post(writes, (error, out) =>
      this.#done(batch, appends, updates, error, out),
    );
    this.#outcomes?.posted();
  }

  #done(
    batch: number,
    appends: Array<Extract<Op, { type: 'append' }>>,
    updates: number,
    error: { code?: string; message: string } | undefined,
    out: WriteResult | undefined,
  ): void {
    if (error) {
      const failure = storageError(Object.assign(new Error(error.message), error), this.#file);
      for (const op of appends) op.reject(failure);
      if (updates > 0) this.#onError(failure);
      return;
    }
    try {
      this.#outcomes?.committed(batch);
    } catch (failure) {
      // Harmless: written again at the next open, only onto sends still open.
      this.#onError(storageError(failure, this.#file));
    }
    appends.forEach((op, i) => op.resolve(out![i]!));
  }

  /** Reads see every write made before them: pending ones are posted and waited for. */
  async #settled(): Promise<void> {
    if (this.#ops.length > 0 || this.#progress.size > 0) this.#flush(true);
    await this.#writer.idle();
  }

  async get(id: string): Promise<TrackedSend | undefined> {
    await this.#settled();
    const row = this.#get.get(id) as Row | undefined;
    return row ? toTracked(row) : undefined;
  }

  async list(query: ListQuery): Promise<ListPage> {
    await this.#settled();
    return listSends(this.#db, query);
  }

  async open(client: string): Promise<OpenEntry[]> {
    await this.#settled();
    const rows = this.#db
      .prepare(
        `SELECT * FROM sends WHERE client = ? AND status IN ('queued', 'sending') ORDER BY seq`,
      )
      .all(client) as Row[];
    return rows.map(toOpen);
  }

  async openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    await this.#settled();
    return this.#waiting.page(query, limit).map(toOpen);
  }

  async countOpen(client: string): Promise<Record<SendPriority, number>> {
    await this.#settled();
    return this.#waiting.count(client);
  }

  /** Writes on this connection: no batch is in flight then, and none starts before it ends. */
  async failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    await this.#settled();
    try {
      return this.#waiting.fail(query, failure).map(toTracked);
    } catch (error) {
      throw storageError(error, this.#file);
    }
  }

  media(id: string): Promise<Buffer | undefined> {
    const row = this.#db.prepare('SELECT media FROM sends WHERE id = ?').get(id) as
      { media: Buffer | null } | undefined;
    return Promise.resolve(row?.media ?? undefined);
  }

  async prune(policy: RetentionPolicy, now: number): Promise<number> {
    await this.#settled();
    return pruneSends(this.#db, policy, now);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#progress.stop();
    try {
      await this.#settled();
    } finally {
      this.#closed = true;
      await this.#writer.close();
      this.#outcomes?.close();
      this.#db.close();
    }
  }
}
