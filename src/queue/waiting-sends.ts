import { DeferredSends } from './deferred-sends.js';
import { HeldSends } from './held-sends.js';
import type { WakitError } from '../errors/index.js';
import { PagedBacklog, type WindowHooks } from './paged-backlog.js';
import { PendingSends } from './pending-sends.js';
import { SendEntry, type Level } from './send-entry.js';
import type { BacklogSource, PagedJob, SendGate } from './types.js';

/** What the window needs from its queue when it loads sends back from the outbox. */
export interface PageHooks extends Omit<WindowHooks, 'inWindow' | 'admit'> {
  /** Starts tracking a loaded send. */
  track: (entry: SendEntry) => void;
  /** Fails a loaded send at once (it carries an error). */
  fail: (entry: SendEntry, error: WakitError) => void;
  now: () => number;
}

/**
 * Every send of one queue that waits (none in flight): in turn (`pending`), kept by the send
 * governor until due (`deferred`), held for an engine upgrade (`held`), and, once the queue pages
 * to the outbox, those beyond the memory window (`backlog`). One place answers how many wait and
 * takes them all (on close, hand-off or a failed session).
 */
export class WaitingSends {
  readonly pending = new PendingSends();
  readonly held = new HeldSends();
  readonly deferred: DeferredSends;
  /** The waiting sends beyond the window, once `pageTo` gave the queue somewhere to keep them. */
  backlog: PagedBacklog | undefined;

  constructor(gate: SendGate | undefined, emit: (entry: SendEntry) => void) {
    this.deferred = new DeferredSends(gate, this.pending, emit);
  }

  /** Sends that wait for their turn (held ones do not: they wait for a retry by hand). */
  get size(): number {
    return this.pending.size + this.deferred.size + (this.backlog?.size ?? 0);
  }

  /** Waiting sends of one priority, in memory and paged out. */
  sizeOf(level: Level): number {
    return this.pending.sizeOf(level) + (this.backlog?.sizeOf(level) ?? 0);
  }

  /** Keeps at most `window` waiting sends of each priority in memory, the rest in `source`. */
  pageTo(source: BacklogSource, window: number, hooks: PageHooks): void {
    const { track, fail, now, ...rest } = hooks;
    const backlog = new PagedBacklog(source, window, {
      ...rest,
      inWindow: (level) => this.pending.sizeOf(level),
      admit: (job: PagedJob, level: Level) => {
        const entry = new SendEntry(job.id, job.chatId, job.kind, level, job.createdAt, job);
        track(entry);
        backlog.adopt(entry);
        if (job.error) fail(entry, job.error);
        // deferred before a restart: deferred again until the same due time
        else if (job.deferral && this.deferred.gated) this.deferred.add(entry, job.deferral, now());
        else this.pending.push(entry);
      },
    });
    this.backlog = backlog;
  }

  /**
   * Recovery: the backlog holds `open` unfinished sends per priority (`running`: the one in flight,
   * if any); the others are loaded in their turn. Returns how many those are (0 without a backlog).
   */
  restore(open: Record<'reply' | 'normal' | 'bulk', number>, running: Level | undefined): number {
    return this.backlog?.restore(open, (level) => (running === level ? 1 : 0)) ?? 0;
  }

  /**
   * Loads pages while the window is low: a page of sends deferred before a restart goes to
   * `deferred`, not to the window, so the next page is loaded at once. False when the outbox failed.
   */
  async refill(backlog: PagedBacklog): Promise<boolean> {
    while (backlog.needsPage()) {
      const before = backlog.size;
      if (!(await backlog.refill())) return false;
      if (this.deferred.size === 0 || backlog.size === before) return true;
    }
    return true;
  }

  /** Empties the in-memory lists (not the backlog), returning their sends. */
  takeAll(): SendEntry[] {
    return [...this.pending.takeAll(), ...this.deferred.takeAll(), ...this.held.takeAll()];
  }
}
