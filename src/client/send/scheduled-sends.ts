import type { Logger } from 'pino';
import { WakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { OutboundQueue } from '../../queue/index.js';
import { FINISHED, type OpenEntry, type OutboxStore } from '../../queue/outbox/index.js';
import type { ScheduleStore } from '../../queue/outbox/outbox-store.js';
import type { TrackedSend } from '../../queue/types.js';
import { scheduleTime, type ScheduleLimits, type SendAt } from './send-at.js';
import { journaledJob, type OutboxBacklogDeps } from './outbox-backlog.js';

/** Released at most this many at once (then again at once while more are due). */
const BATCH = 100;
/** The longest wait between two looks (a timer cannot wait for months; nothing is lost by looking). */
const MAX_WAIT_MS = 3_600_000;
/** After a failure, or with a full queue, look again after this long. */
const RETRY_MS = 1_000;

export interface ScheduledSendsDeps extends Pick<OutboxBacklogDeps, 'deliver' | 'account'> {
  client: string;
  outbox: OutboxStore;
  queue: OutboundQueue;
  clock: Clock;
  log: Logger;
  /** `queue.maxSize`: a release never makes the queue refuse a send. */
  maxSize: number;
  /** `queue.schedule`: the limits of a new `sendAt` (reschedule). */
  limits: ScheduleLimits;
  /** This process runs the client and it is READY: only then are sends released (and sent). */
  ready(): boolean;
  /**
   * A shared outbox (a fleet): other nodes schedule, cancel and reschedule this client's sends, so
   * the outbox is looked at at least this often; results handed out here for sends another node
   * cancelled or sent settle then too (also while this node does not run the client).
   */
  pollMs?: number;
}

interface Waiter {
  promise: Promise<{ id: string }>;
  resolve(value: { id: string }): void;
  reject(error: unknown): void;
}

/**
 * The scheduled sends of one client (docs/scheduling.md): they wait in the outbox (`scheduled`),
 * not in the queue; a timer on the client's clock wakes at the earliest `sendAt`, releases the sends
 * due (atomically `queued` in the outbox, so each is released once, even by two processes) and
 * puts them at the head of their priority in the queue, where pacing and the send governor apply as
 * to any send: never before its time, late by the queue's pacing. Only while the client is READY in
 * this process; otherwise they stay in the outbox for whoever runs it next.
 */
export class ScheduledSends {
  readonly #d: ScheduledSendsDeps;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  #again = false;
  #closed = false;
  /** Results handed out for sends scheduled here (made only when asked for). */
  readonly #waiters = new Map<string, Waiter>();

  constructor(deps: ScheduledSendsDeps) {
    this.#d = deps;
  }

  /** Looks at the outbox now (a send was scheduled or moved, or the client became READY). */
  poke(): void {
    if (this.#closed) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    void this.#tick();
  }

  /** The result of a send scheduled here: settles once it went (rejects when cancelled). */
  follow(trackingId: string): Promise<{ id: string }> {
    const released = this.#d.queue.resultOf(trackingId);
    if (released) return released;
    let waiter = this.#waiters.get(trackingId);
    if (!waiter) {
      let settle!: Pick<Waiter, 'resolve' | 'reject'>;
      const promise = new Promise<{ id: string }>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // not reported: whoever awaits the result gets the failure
      promise.catch(() => undefined);
      waiter = { promise, ...settle };
      this.#waiters.set(trackingId, waiter);
      this.#settleFromOutbox(trackingId);
    }
    return waiter.promise;
  }

  /** A result asked for after the send was cancelled, or went from another process, settles too. */
  #settleFromOutbox(trackingId: string): void {
    this.#d.outbox.get(trackingId).then(
      (record) => {
        const waiter = this.#waiters.get(trackingId);
        if (!waiter || !record || !FINISHED.has(record.status)) return;
        this.#waiters.delete(trackingId);
        if (record.status === 'cancelled') waiter.reject(cancelledError(trackingId));
        else if (record.error)
          waiter.reject(new WakitError(record.error.code, record.error.message));
        else waiter.resolve({ id: record.messageId ?? '' });
      },
      // not reported: the result stays pending; the send's status is in the outbox
      () => undefined,
    );
  }

  /**
   * Cancels a scheduled send of this client: it never goes (`cancelled`); a result handed out
   * rejects with SEND_CANCELLED. MESSAGE_NOT_FOUND / MESSAGE_NOT_SCHEDULED (its time came already).
   */
  async cancel(trackingId: string): Promise<TrackedSend> {
    const record = await this.#change(trackingId, (schedule, now) =>
      schedule.cancel(trackingId, now),
    );
    if (record.status !== 'cancelled') throw notScheduled(record);
    const waiter = this.#waiters.get(trackingId);
    this.#waiters.delete(trackingId);
    waiter?.reject(cancelledError(trackingId));
    return record;
  }

  /** Moves a scheduled send of this client to `sendAt` (validated as on accept; past: now). */
  async reschedule(trackingId: string, sendAt: SendAt): Promise<TrackedSend> {
    const at = scheduleTime(sendAt, this.#d.clock.now(), this.#d.limits) ?? this.#d.clock.now();
    const record = await this.#change(trackingId, (schedule, now) =>
      schedule.reschedule(trackingId, at, now),
    );
    if (record.status !== 'scheduled' || record.sendAt !== new Date(at).toISOString()) {
      throw notScheduled(record);
    }
    this.poke();
    return record;
  }

  async #change(
    trackingId: string,
    change: (schedule: ScheduleStore, now: number) => Promise<TrackedSend | undefined>,
  ): Promise<TrackedSend> {
    const { outbox, client, clock } = this.#d;
    if (!outbox.schedule) {
      throw new WakitError(
        'SCHEDULE_UNSUPPORTED',
        `The ${outbox.kind} outbox has no scheduled sends`,
      );
    }
    const found = await outbox.get(trackingId);
    if (found?.client !== client) {
      throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${trackingId}`);
    }
    return (await change(outbox.schedule, clock.now())) ?? found;
  }

  /** Stops the timer for good (the client closes); the sends stay scheduled in the outbox. */
  close(): void {
    this.#closed = true;
    if (this.#timer) this.#d.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #tick(): Promise<void> {
    const { clock, outbox, queue } = this.#d;
    const ready = (): boolean => this.#d.ready();
    this.#busy = true;
    if (this.#timer) clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      const schedule = outbox.schedule;
      const poll = this.#d.pollMs;
      // a shared outbox: results handed out here settle when another node cancelled or sent it
      if (poll !== undefined) for (const id of this.#waiters.keys()) this.#settleFromOutbox(id);
      if (!schedule || !ready()) {
        if (poll !== undefined && this.#waiters.size > 0) this.#arm(poll);
        return;
      }
      for (;;) {
        if (!this.#room()) return this.#arm(RETRY_MS);
        const { pending, running } = queue.stats();
        const room = Math.min(BATCH, this.#d.maxSize - pending - running);
        const rows = await schedule.releaseDue(this.#d.client, clock.now(), room);
        this.#enqueue(rows);
        if (rows.length < room || this.#closed || !ready()) break;
      }
      if (this.#closed || !ready()) return;
      const next = await schedule.nextDue(this.#d.client);
      const wait = next === undefined ? (this.#d.pollMs ?? MAX_WAIT_MS) : next - clock.now();
      this.#arm(Math.min(wait, this.#d.pollMs ?? MAX_WAIT_MS));
    } catch (error) {
      const code = (error as WakitError).code;
      // stopping, or an outbox without scheduled sends (nothing can be scheduled there)
      if (code === 'SHUTTING_DOWN' || code === 'SCHEDULE_UNSUPPORTED') return;
      this.#d.log.error({ err: error, client: this.#d.client }, 'releasing scheduled sends failed');
      this.#arm(RETRY_MS);
    } finally {
      this.#busy = false;
      if (this.#again) {
        this.#again = false;
        this.poke();
      }
    }
  }

  /** Released sends go to the head of their priority, earliest first. */
  #enqueue(rows: readonly OpenEntry[]): void {
    const account = this.#d.account();
    for (const row of [...rows].reverse()) {
      const { seq: _seq, deferral: _deferral, error, ...job } = journaledJob(this.#d, row, account);
      const waiter = this.#waiters.get(row.id);
      this.#waiters.delete(row.id);
      if (error) {
        this.#d.outbox.update(row.id, {
          status: 'failed',
          attempts: 0,
          updatedAt: this.#d.clock.now(),
          error: { code: error.code, message: error.message },
        });
        waiter?.reject(error);
        continue;
      }
      // no seq: it is held in memory, whatever the window (its place is the head, not its seq)
      try {
        const handle = this.#d.queue.enqueue({ ...job, sendAt: row.sendAt ?? this.#d.clock.now() });
        if (waiter)
          handle.result.then(
            (sent) => waiter.resolve(sent),
            (e) => waiter.reject(e),
          );
      } catch (refused) {
        // not reported: only a queue that closes refuses (room was checked); the send is `queued`
        // in the outbox now, and the next start recovers it like any other waiting send
        waiter?.reject(refused);
      }
    }
  }

  /** False while the queue is full; throws SHUTTING_DOWN while it stops (sends stay scheduled). */
  #room(): boolean {
    try {
      this.#d.queue.assertCapacity();
      return true;
    } catch (error) {
      if ((error as WakitError).code === 'QUEUE_FULL') return false;
      throw error;
    }
  }

  #arm(ms: number): void {
    if (this.#closed) return;
    this.#timer = this.#d.clock.setTimeout(() => this.poke(), Math.max(1, ms));
    // a timer that waits for a send must not keep a stopped process alive
    this.#timer.unref?.();
  }
}

function cancelledError(trackingId: string): WakitError {
  return new WakitError('SEND_CANCELLED', `The scheduled send ${trackingId} was cancelled`);
}

function notScheduled(record: TrackedSend): WakitError {
  return new WakitError(
    'MESSAGE_NOT_SCHEDULED',
    `The message ${record.id} is ${record.status}, not scheduled`,
    { details: { status: record.status } },
  );
}
