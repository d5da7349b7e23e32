import type { WakitError } from '../errors/index.js';
import type { Level, SendEntry } from './send-entry.js';
import type { BacklogSource, PagedJob, SendPriority, SendResult, TrackedSend } from './types.js';

const PRIORITY: Record<Level, SendPriority> = { 0: 'bulk', 1: 'normal', 2: 'reply' };
const LEVELS: readonly Level[] = [2, 1, 0];
const noop = (): void => {};

/** The sends of one priority that wait only in the outbox. */
interface Side {
  /** Sends of this priority wait beyond the window: a new one waits there too (behind them). */
  paging: boolean;
  /** How many (for sizes and QUEUE_FULL; set right again whenever the outbox runs dry). */
  count: number;
  /** Each of them has a sequence number above this one. */
  after: number;
  /** One was added since the last page was asked for (so that page cannot tell the end). */
  added: boolean;
}

interface Deferred {
  promise: Promise<SendResult>;
  resolve(value: SendResult): void;
  reject(error: WakitError): void;
}

/** What the backlog needs from its queue. */
export interface WindowHooks {
  /** Waiting sends of `level` held in memory. */
  inWindow(level: Level): number;
  /** The queue holds this send already (waiting, in flight, or recently finished). */
  has(trackingId: string): boolean;
  /** Takes a loaded send into the window. */
  admit(job: PagedJob, level: Level): void;
  /** Tells the queue's listeners about a change of a send it does not hold. */
  notify(record: TrackedSend): void;
  onError(error: unknown, what: string): void;
}

/**
 * The waiting sends of a queue that are not held in memory: the queue keeps at most `window` waiting
 * sends of each priority, the rest wait only in the outbox (`BacklogSource`) and are loaded back in
 * pages, in acceptance order, whenever the window of their priority is down to half. Within one
 * priority the window is always the oldest part, so a new send goes behind the paged-out ones;
 * priorities are separate, so a new reply still goes before paged-out bulk sends. It also hands out
 * the results of sends that are paged out, settled once they are loaded and finished.
 */
export class PagedBacklog {
  readonly #source: BacklogSource;
  readonly #window: number;
  readonly #hooks: WindowHooks;
  readonly #sides: [Side, Side, Side] = [side(), side(), side()];
  readonly #parked = new Map<string, Deferred>();
  /** Bumped when the sides are reset: a page asked for before is dropped. */
  #epoch = 0;

  constructor(source: BacklogSource, window: number, hooks: WindowHooks) {
    this.#source = source;
    this.#window = Math.max(1, window);
    this.#hooks = hooks;
  }

  get size(): number {
    return this.#sides[0].count + this.#sides[1].count + this.#sides[2].count;
  }

  sizeOf(level: Level): number {
    return this.#sides[level].count;
  }

  /**
   * Where a new send (sequence number `seq`) waits: true when only in the outbox, because the
   * window of its priority is full or older sends of it already wait there.
   */
  pageOut(level: Level, seq: number, inWindow: number): boolean {
    const side = this.#sides[level];
    if (!side.paging) {
      if (inWindow < this.#window) return false;
      Object.assign(side, { paging: true, after: seq - 1 });
    }
    side.count++;
    side.added = true;
    return true;
  }

  /**
   * Recovery: the outbox holds `open` unfinished sends per priority, of which the queue holds those
   * in its window and `inFlight(level)`; the others are now paged out (from the first). Returns how
   * many of them this process did not know of.
   */
  restore(open: Record<SendPriority, number>, inFlight: (level: Level) => number): number {
    this.#epoch++;
    let found = 0;
    for (const level of LEVELS) {
      const side = this.#sides[level];
      const known = this.#hooks.inWindow(level) + inFlight(level);
      const waiting = Math.max(0, open[PRIORITY[level]] - known);
      found += Math.max(0, waiting - side.count);
      if (open[PRIORITY[level]] > 0) {
        Object.assign(side, { paging: true, count: waiting, after: 0, added: false });
      }
    }
    return found;
  }

  /** True when a page should be loaded before the next send is chosen. */
  needsPage(): boolean {
    return LEVELS.some((level) => this.#low(level));
  }

  /**
   * Loads the next page of each priority whose window is down to half, highest first. Resolves to
   * false when the outbox failed (reported; the queue tries again later).
   */
  async refill(): Promise<boolean> {
    const hooks = this.#hooks;
    try {
      for (const level of LEVELS) {
        if (!this.#low(level)) continue;
        const side = this.#sides[level];
        const epoch = this.#epoch;
        const limit = this.#window - hooks.inWindow(level);
        side.added = false;
        const jobs = await this.#source.load(PRIORITY[level], side.after, limit);
        if (epoch !== this.#epoch) return true;
        for (const job of jobs) {
          side.after = Math.max(side.after, job.seq);
          if (hooks.has(job.id)) continue;
          side.count = Math.max(0, side.count - 1);
          hooks.admit(job, level);
        }
        if (jobs.length < limit && !side.added) Object.assign(side, { paging: false, count: 0 });
      }
      return true;
    } catch (error) {
      hooks.onError(error, 'loading waiting sends from the outbox failed');
      return false;
    }
  }

  /** The result of a send that waits only in the outbox. */
  follow(trackingId: string): Promise<SendResult> {
    let parked = this.#parked.get(trackingId);
    if (!parked) {
      let settle!: Pick<Deferred, 'resolve' | 'reject'>;
      const promise = new Promise<SendResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // An ignored result never becomes an unhandled rejection; whoever awaits it still gets it.
      promise.catch(noop);
      parked = { promise, ...settle };
      this.#parked.set(trackingId, parked);
    }
    return parked.promise;
  }

  /** A loaded send takes over the result handed out while it was paged out. */
  adopt(entry: SendEntry): void {
    const parked = this.#parked.get(entry.id);
    if (!parked) return;
    this.#parked.delete(entry.id);
    entry.adopt(parked);
  }

  /**
   * Fails every send waiting only in the outbox (not `except`) with `error`, returning how many
   * there were. The outbox is asked at once (sends accepted afterwards are not touched); results
   * handed out reject and listeners hear of each failed send once it answered.
   */
  failAll(error: WakitError, now: number, except: readonly string[]): number {
    const size = this.size;
    this.#epoch++;
    const failing: Promise<TrackedSend[]>[] = [];
    for (const level of LEVELS) {
      const side = this.#sides[level];
      if (side.paging) {
        failing.push(this.#source.fail(PRIORITY[level], side.after, error, now, except));
      }
      Object.assign(side, { paging: false, count: 0, added: false });
    }
    Promise.all(failing)
      .then((lists) => {
        for (const record of lists.flat()) {
          if (this.#hooks.has(record.id)) continue; // in the window: failed there already
          this.#reject(record.id, error);
          this.#hooks.notify(record);
        }
      })
      .catch((failure: unknown) => this.#hooks.onError(failure, 'failing paged-out sends failed'));
    return size;
  }

  /**
   * Forgets every paged-out send (another process runs the client now; they stay journaled):
   * results handed out reject with `error`, a later `restore` counts them afresh.
   */
  handOff(error: WakitError): void {
    this.close(error);
    for (const side of this.#sides) Object.assign(side, { paging: false, count: 0, added: false });
  }

  /** Rejects every result handed out for paged-out sends (the queue closes; they stay journaled). */
  close(error: WakitError): void {
    this.#epoch++;
    for (const id of [...this.#parked.keys()]) this.#reject(id, error);
  }

  #low(level: Level): boolean {
    return this.#sides[level].paging && this.#hooks.inWindow(level) <= this.#window >> 1;
  }

  #reject(trackingId: string, error: WakitError): void {
    const parked = this.#parked.get(trackingId);
    if (!parked) return;
    this.#parked.delete(trackingId);
    parked.reject(error);
  }
}

function side(): Side {
  return { paging: false, count: 0, after: 0, added: false };
}
