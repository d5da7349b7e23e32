import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { OutboxChange } from './outbox-store.js';

/** One outcome waiting for its group commit: the send's id and its whole new state. */
export type Outcome = readonly [id: string, change: OutboxChange];

/** One of the log's two files, and the last batch that carries an outcome written to it. */
interface LogFile {
  readonly path: string;
  readonly fd: number;
  /** 0 when empty. */
  lastBatch: number;
}

/**
 * The SQLite outbox's side log of outcomes (sent, failed) not yet in a group commit: one line of
 * JSON per outcome, appended with one `write` (into the page cache, so it survives a crash of the
 * process like a WAL commit with synchronous=NORMAL does) as the send finishes. It is what keeps
 * the at-least-once window to one send without a SQLite commit per send: a commit writes whole
 * 4 KiB pages of the table and its indexes, this a line of ~100 bytes.
 *
 * Batches are committed by the writer thread while new outcomes arrive, so the log has two files:
 * outcomes go to one, and when a batch is posted they switch to the other if it is empty; a file is
 * emptied once the batch carrying its last outcome committed. On open, the outcomes left in either
 * are written to the database first (only onto sends still open, so a stale line is harmless).
 * 0600 beside the database; it holds ids, WhatsApp message ids and error texts, never content.
 */
export class OutcomeLog {
  readonly #files: readonly [LogFile, LogFile];
  #current = 0;

  constructor(file: string) {
    const open = (p: string): LogFile => ({ path: p, fd: openSync(p, 'a+', 0o600), lastBatch: 1 }); // unknown: clear() after read()
    this.#files = [open(file), open(`${file}-b`)];
  }

  get paths(): string[] {
    return this.#files.map((f) => f.path);
  }

  /** The outcomes a crash left behind (a torn last line is one that never was). */
  read(): Outcome[] {
    const outcomes: Outcome[] = [];
    for (const { path } of this.#files) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          outcomes.push(JSON.parse(line) as Outcome);
        } catch {
          // A line cut by the crash: its send's outcome was never reported, so it recovers as open.
        }
      }
    }
    return outcomes;
  }

  /** Empties both files (their outcomes are in the database). */
  clear(): void {
    this.committed(Number.POSITIVE_INFINITY);
  }

  /** Appends an outcome that batch `batch` will carry; throws what the file system throws. */
  write(id: string, change: OutboxChange, batch: number): void {
    const file = this.#files[this.#current];
    writeSync(file.fd, JSON.stringify([id, change]) + '\n');
    file.lastBatch = batch;
  }

  /** A batch was posted: later outcomes go to the other file, if it is empty. */
  posted(): void {
    if (this.#files[1 - this.#current].lastBatch === 0) this.#current = 1 - this.#current;
  }

  /** Batches up to `batch` are committed: empties the files all of whose outcomes they carry. */
  committed(batch: number): void {
    for (const file of this.#files) {
      if (file.lastBatch === 0 || file.lastBatch > batch) continue;
      ftruncateSync(file.fd, 0);
      file.lastBatch = 0;
    }
  }

  close(): void {
    for (const file of this.#files) closeSync(file.fd);
  }
}
