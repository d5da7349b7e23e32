import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { OutboxChange } from './outbox-store.js';

/** One outcome waiting for its group commit: the send's id and its whole new state. */
export type Outcome = readonly [id: string, change: OutboxChange];

/**
 * The SQLite outbox's side log of outcomes (sent, failed) not yet in a group commit: one line of
 * JSON per outcome, appended with one `write` (into the page cache, so it survives a crash of the
 * process like a WAL commit with synchronous=NORMAL does) as the send finishes, and emptied after
 * every commit that carried them. It is what keeps the at-least-once window to one send without a
 * SQLite commit per send: a commit writes whole 4 KiB pages of the table and its indexes, this a
 * line of ~100 bytes. On open, the outcomes still in it are written to the database first.
 * 0600 beside the database; it holds ids, WhatsApp message ids and error texts, never content.
 */
export class OutcomeLog {
  readonly #fd: number;
  #dirty = false;

  constructor(readonly file: string) {
    this.#fd = openSync(file, 'a+', 0o600);
  }

  /** The outcomes a crash left behind, oldest first (a torn last line is one that never was). */
  read(): Outcome[] {
    const text = readFileSync(this.file, 'utf8');
    this.#dirty = text.length > 0;
    const outcomes: Outcome[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        outcomes.push(JSON.parse(line) as Outcome);
      } catch {
        // not reported: a line cut by the crash: its send's outcome was never reported, so it recovers as open.
      }
    }
    return outcomes;
  }

  /** Appends an outcome; throws what the file system throws (the caller commits instead). */
  write(id: string, change: OutboxChange): void {
    writeSync(this.#fd, JSON.stringify([id, change]) + '\n');
    this.#dirty = true;
  }

  /** Empties the log once its outcomes are committed to the database. */
  clear(): void {
    if (!this.#dirty) return;
    ftruncateSync(this.#fd, 0);
    this.#dirty = false;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
