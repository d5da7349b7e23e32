import type { Logger } from 'pino';
import type { QueueConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import { systemClock, type Clock } from '../kernel/clock.js';
import { Pacing } from './pacing.js';
import { queueErrors } from './queue-errors.js';
import { SendAttempt } from './send-attempt.js';
import { SendEntry, type Level } from './send-entry.js';
import { Handle, PagedHandle } from './send-handle.js';
import { newTrackingId } from './tracking-id.js';
import { TrackingStore, applyAck } from './tracking-store.js';
import { UpdateListeners } from './update-listeners.js';
import { IdleWaiters } from './idle-waiters.js';
import { SendOutcomes } from './send-outcomes.js';
import { DispatchLoop } from './dispatch-loop.js';
import { WaitingSends } from './waiting-sends.js';
import type { GovernorInfo } from '../governor/governor-info.js';
import type { OutboundQueueOptions } from './queue-options.js';
import type {
  BacklogSource,
  DrainResult,
  QueueJob,
  QueueStats,
  SendGate,
  SendHandle,
  SendPriority,
  SendResult,
  TrackedSend,
  UpdateListener,
} from './types.js';

const LEVELS: Record<SendPriority, Level> = { reply: 2, normal: 1, bulk: 0 };

/**
 * The outbound queue of one client: paces sends (one at a time, a global gap with jitter, a per-chat
 * gap), orders them by priority, bounds them, retries transient failures, times them out and tracks
 * every accepted send until its last ack. Waiting sends live in `WaitingSends`; `DispatchLoop` runs
 * one dispatch at a time and carries pause/resume. Semantics and defaults: docs/queue.md.
 */
export class OutboundQueue {
  readonly client: string;
  readonly #config: QueueConfig;
  readonly #clock: Clock;
  readonly #log: Logger | undefined;
  readonly #onChange: ((entry: SendEntry) => void) | undefined;
  readonly #durable: (() => Promise<void>) | undefined;
  readonly #waiting: WaitingSends;
  /** The send governor of this client's account, if any (`OutboundQueueOptions.gate`). */
  readonly gate: SendGate | undefined;
  readonly #tracking: TrackingStore;
  readonly #listeners: UpdateListeners;
  readonly #idle: IdleWaiters;
  readonly #outcomes: SendOutcomes;
  #running: SendEntry | undefined;
  #attempt: SendAttempt | undefined;
  readonly #loop: DispatchLoop;
  readonly #pacing: Pacing;
  /** Bumped by `handOff`, with its error: a send in flight then must not come back here. */
  #handOffs = 0;
  #handOffError: WakitError | undefined;
  #intake: 'open' | 'draining' | 'closed' = 'open';

  constructor(options: OutboundQueueOptions) {
    this.client = options.client;
    this.#config = options.config;
    this.#clock = options.clock ?? systemClock;
    const random = options.random ?? Math.random;
    this.#pacing = new Pacing(options.config, random);
    this.#log = options.logger;
    this.#onChange = options.onChange;
    this.#durable = options.durable;
    this.gate = options.gate;
    this.#waiting = new WaitingSends(options.gate, (e) => this.#emit(e));
    this.#tracking = new TrackingStore(options.config.trackLimit);
    this.#loop = new DispatchLoop({
      clock: this.#clock,
      hasWork: () => this.#intake !== 'closed' && this.#waiting.size > 0,
      nextAnyAt: () => this.#pacing.nextAnyAt,
      sendNext: (sending) => this.#sendNext(sending),
      onError: (error) =>
        this.#log?.error({ err: error, client: this.client }, 'outbound queue dispatch failed'),
    });
    this.#listeners = new UpdateListeners((error) =>
      this.#log?.error({ err: error, client: this.client }, 'queue update listener threw'),
    );
    this.#idle = new IdleWaiters(this.#clock);
    this.#outcomes = new SendOutcomes({
      client: this.client,
      config: this.#config,
      tracking: this.#tracking,
      pending: this.#waiting.pending,
      random,
      log: this.#log,
      closed: () => this.#intake === 'closed',
      emit: (entry) => this.#emit(entry),
      held: this.#waiting.held,
    });
  }

  get paused(): boolean {
    return this.#loop.paused;
  }

  /** Throws SHUTTING_DOWN or QUEUE_FULL (with `details.retryAfterMs`) when a send would be refused. */
  assertCapacity(): void {
    this.assertRoomFor(this.#size());
  }

  /**
   * The same bound for a client another node runs: QUEUE_FULL when the shared outbox holds
   * `open` unfinished sends of it already (`queue.maxSize`); SHUTTING_DOWN while this one stops.
   */
  assertRoomFor(open: number): void {
    if (this.#intake !== 'open') throw queueErrors.closed(this.client);
    if (open >= this.#config.maxSize) throw queueErrors.full(this.client, open, this.#config);
  }

  /** From now on at most `queue.memoryWindow` waiting sends a priority in memory, the rest in `source`. */
  pageTo(source: BacklogSource): void {
    this.#waiting.pageTo(source, this.#config.memoryWindow, {
      has: (id) => this.#tracking.get(id) !== undefined,
      track: (entry) => this.#tracking.add(entry),
      fail: (entry, error) => this.#outcomes.fail(entry, error, this.#clock.now()),
      now: () => this.#clock.now(),
      notify: (record) => this.#listeners.notify(record),
      onError: (error, what) => this.#log?.error({ err: error, client: this.client }, what),
    });
  }

  /** Recovery: the backlog holds `open` unfinished sends per priority (`WaitingSends.restore`). */
  restore(open: Record<SendPriority, number>): number {
    if (this.#intake === 'closed') return 0;
    const found = this.#waiting.restore(open, this.#running?.level);
    this.#loop.pump();
    return found;
  }

  /** Accepts a send. Throws QUEUE_FULL (with `details.retryAfterMs`) or SHUTTING_DOWN synchronously. */
  enqueue(job: QueueJob): SendHandle {
    this.assertCapacity();
    const level = LEVELS[job.priority ?? 'normal'] as Level | undefined;
    if (level === undefined || typeof job.run !== 'function') {
      throw queueErrors.badJob(job.priority, Object.keys(LEVELS));
    }
    const known = job.id === undefined ? undefined : this.#tracking.get(job.id);
    if (known) return new Handle(known); // loaded from the backlog already
    const entry = new SendEntry(
      job.id ?? newTrackingId(),
      job.chatId,
      job.kind,
      level,
      job.createdAt ?? this.#clock.now(),
      job,
    );
    const seq = job.seq;
    const { pending, backlog } = this.#waiting;
    if (seq !== undefined && backlog?.pageOut(level, seq, pending.sizeOf(level))) {
      // Beyond the window: it waits only in the outbox (the entry is dropped) until its page.
      if (this.#listeners.any) this.#listeners.notify(entry.snapshot(this.client));
      this.#loop.pump();
      return new PagedHandle(entry.id, this);
    }
    this.#tracking.add(entry);
    if (job.sendAt !== undefined) pending.pushFront(entry);
    else pending.push(entry);
    this.#emit(entry);
    this.#loop.pump();
    return new Handle(entry);
  }

  /** Holds sends (the client calls it when it leaves READY); a send in flight finishes. */
  pause(): void {
    if (this.#intake !== 'closed') this.#loop.pause();
  }

  resume(): void {
    if (this.#intake !== 'closed') this.#loop.resume();
  }

  stats(): QueueStats {
    const { size, held } = this.#waiting;
    return { pending: size, held: held.size, running: this.#running ? 1 : 0 };
  }

  /** Puts the held sends (ENGINE_INCOMPATIBLE) back at the head of the queue; returns how many. */
  retryHeld(): number {
    if (this.#intake === 'closed') return 0;
    const { held, pending } = this.#waiting;
    const released = held.release(pending, this.#clock.now(), (e) => this.#emit(e));
    this.#loop.pump();
    return released;
  }

  /** The send governor's view of the account, with the sends it defers now; null without one. */
  governorInfo(): GovernorInfo | null {
    return this.#waiting.deferred.info();
  }

  /** Waiting sends of one priority (in memory and paged out). */
  pendingBy(priority: SendPriority): number {
    return this.#waiting.sizeOf(LEVELS[priority]);
  }

  /** The result of a send this queue tracks (waiting, in flight or recently finished). */
  resultOf(trackingId: string): Promise<SendResult> | undefined {
    return this.#tracking.get(trackingId)?.result();
  }

  /**
   * The result of a waiting send of this queue, also when it waits only in the outbox (then it
   * settles once it was loaded and finished; a send that is not waiting never settles).
   */
  follow(trackingId: string): Promise<SendResult> {
    const result = this.resultOf(trackingId) ?? this.#waiting.backlog?.follow(trackingId);
    if (result) return result;
    const missing = Promise.reject(
      new WakitError('MESSAGE_NOT_FOUND', `No waiting send ${trackingId}`),
    );
    // not reported: the caller gets the rejection (MESSAGE_NOT_FOUND is an answer)
    missing.catch(() => undefined);
    return missing;
  }

  /** Tracking ids of the sends not finished yet that are held in memory (waiting and in flight). */
  unfinishedIds(): string[] {
    const ids = this.#waiting.pending.ids();
    if (this.#running) ids.push(this.#running.id);
    return ids;
  }

  /**
   * Fails every waiting send (not the one in flight) with `error`, e.g. when the session ended;
   * those paged out are failed in the outbox at once (a `message.status` each while followed).
   */
  failWaiting(error: WakitError): number {
    const now = this.#clock.now();
    const entries = this.#waiting.takeAll();
    for (const entry of entries) this.#outcomes.fail(entry, error, now);
    const paged = this.#waiting.backlog?.failAll(
      error,
      now,
      this.#running ? [this.#running.id] : [],
    );
    this.#checkIdle();
    return entries.length + (paged ?? 0);
  }

  /**
   * Another process runs the client now (a fleet): forgets every waiting send without failing it,
   * in memory and paged out: they stay queued in the shared outbox for the new owner, and if this
   * process runs the client again, recovery loads them afresh (so none is sent twice from here).
   * Results handed out reject with `error`; the send in flight finishes. Returns how many.
   */
  handOff(error: WakitError): number {
    this.#handOffs++;
    this.#handOffError = error;
    const { backlog } = this.#waiting;
    const entries = this.#waiting.takeAll();
    for (const entry of entries) this.#outcomes.forget(entry, error);
    const paged = backlog?.size ?? 0;
    backlog?.handOff(error);
    this.#checkIdle();
    return entries.length + paged;
  }

  get(trackingId: string): TrackedSend | undefined {
    return this.#tracking.get(trackingId)?.snapshot(this.client);
  }

  /** Applies a `message_ack` of the engine (-1 failed, 0/1 sent, 2 delivered, 3 read, 4 played). */
  ackUpdate(messageId: string, ack: number): void {
    const entry = this.#tracking.byMessageId(messageId);
    if (!entry) {
      // The ack may beat the send call's own answer: keep it for the send in flight.
      if (this.#running && Number.isInteger(ack)) this.#tracking.rememberEarlyAck(messageId, ack);
      return;
    }
    if (applyAck(entry, ack, this.#clock.now())) this.#emit(entry);
  }

  on(event: 'update', listener: UpdateListener): this {
    this.#listeners.add(event, listener);
    return this;
  }

  off(event: 'update', listener: UpdateListener): this {
    this.#listeners.delete(event, listener);
    return this;
  }

  /** Stops intake and waits until every accepted send finished, or the deadline passed. */
  drain(deadlineMs: number): Promise<DrainResult> {
    if (this.#intake === 'open') this.#intake = 'draining';
    return this.#idle.wait(deadlineMs, () => this.#size());
  }

  /** Fails every waiting send and aborts the one in flight with SHUTTING_DOWN; clears all timers. */
  close(): void {
    if (this.#intake === 'closed') return;
    this.#intake = 'closed';
    this.#loop.close();
    const now = this.#clock.now();
    for (const entry of this.#waiting.takeAll()) {
      this.#outcomes.fail(
        entry,
        this.#shuttingDown('The queue was closed before the send was made'),
        now,
      );
    }
    this.#attempt?.abort(this.#shuttingDown('The queue was closed while the send was in flight'));
    this.#waiting.backlog?.close(
      this.#shuttingDown('The queue was closed before the send was made'),
    );
    this.#checkIdle();
  }

  #size(): number {
    return this.#waiting.size + (this.#running ? 1 : 0);
  }

  /** One step of the dispatch loop: the best eligible send, if one may go now. */
  async #sendNext(sending: () => void): Promise<boolean> {
    const { backlog, pending, deferred } = this.#waiting;
    if (backlog?.needsPage() && !(await this.#waiting.refill(backlog))) this.#loop.wakeIn(1_000);
    const now = this.#clock.now();
    deferred.release(now);
    const next = this.#intake === 'closed' ? Infinity : pending.take(now, this.#pacing.nextSendAt);
    if (typeof next === 'number') {
      // Nothing may go now (chats cooling down, retries or budgets waiting): wake when one may.
      const wait = deferred.wait(next, now);
      if (wait !== Infinity) this.#loop.wakeIn(wait);
      return false;
    }
    const handOffs = this.#handOffs;
    const answer = await deferred.ask(next, now);
    if (handOffs !== this.#handOffs || this.#intake === 'closed') return this.#drop(next);
    if (answer !== 'go') return deferred.add(next, answer, this.#clock.now());
    sending();
    await this.#send(next);
    await this.#durable?.();
    return true;
  }

  /** Closed or handed off while the send governor answered: as the others were. */
  #drop(entry: SendEntry): true {
    if (this.#intake !== 'closed') this.#outcomes.forget(entry, this.#handOffError!);
    else this.#outcomes.fail(entry, this.#shuttingDown('Closed'), this.#clock.now());
    this.#checkIdle();
    return true;
  }

  async #send(entry: SendEntry): Promise<void> {
    const action = entry.job?.action;
    const handOffs = this.#handOffs;
    try {
      this.#running = entry;
      entry.status = 'sending';
      entry.attempts++;
      entry.updatedAt = this.#clock.now();
      this.#emit(entry);
      const attempt = new SendAttempt();
      this.#attempt = attempt;
      const outcome = await attempt.outcome(entry.job!, this.#config.sendTimeoutMs, this.#clock, {
        client: this.client,
        chatId: entry.chatId,
        trackingId: entry.id,
      });
      this.#running = undefined;
      this.#attempt = undefined;
      const end = this.#clock.now();
      if (outcome.ok) this.#outcomes.succeed(entry, outcome.id, end, action !== undefined);
      else if (handOffs !== this.#handOffs) {
        // Handed off while in flight: not retried here; the new owner sends it from the outbox.
        this.#outcomes.forget(entry, this.#handOffError!);
      } else this.#outcomes.failOrRetry(entry, outcome.error, end);
      if (action !== 'light' && this.#config.perChatGapMs > 0) {
        this.#waiting.pending.cool(entry.chatId, end + this.#config.perChatGapMs);
      }
      this.#pacing.ended(end, action === 'light');
    } finally {
      this.#running = undefined;
      this.#attempt = undefined;
      this.#checkIdle();
    }
  }

  #checkIdle(): void {
    this.#idle.settle(this.#size());
  }

  #emit(entry: SendEntry): void {
    this.#onChange?.(entry);
    if (this.#listeners.any) this.#listeners.notify(entry.snapshot(this.client));
  }

  #shuttingDown(message: string): WakitError {
    return queueErrors.shuttingDown(this.client, message);
  }
}
