import type { WakitError } from '../errors/index.js';
import type { QueueJob, SendResult, TrackedSend, TrackingStatus } from './types.js';

const noop = (): void => {};

let lastMs = NaN;
let lastIso = '';
/**
 * `new Date(ms).toISOString()`, remembering the last answer: under load many status changes fall
 * in the same millisecond, and formatting a date was most of what a snapshot cost.
 */
function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** Priority as an index: 0 bulk, 1 normal, 2 reply (higher is served first). */
export type Level = 0 | 1 | 2;

/**
 * One accepted send: its tracking data and, while pending, the job. Kept deliberately small (a
 * queued send costs a few hundred bytes): times are numbers, the snapshot handed out is built on
 * demand, and the result promise is only created when someone asks for it.
 */
export class SendEntry {
  status: TrackingStatus = 'queued';
  attempts = 0;
  /** Earliest time of the next attempt (retry backoff); 0 when not delayed. */
  notBefore = 0;
  /** While `deferred` by the send governor: the budget and when it is due. */
  deferral: { budget: string; dueAt: number } | undefined = undefined;
  messageId: string | undefined = undefined;
  ack: number | undefined = undefined;
  error: WakitError | undefined = undefined;
  /** The last status written to the outbox (it skips changes that do not change it). */
  journaled: TrackingStatus | undefined = undefined;
  sentAt = 0;
  updatedAt: number;
  /** The job (its `run` performs the send); dropped once the send finished. */
  job: QueueJob | undefined;
  /** Its sequence number in the outbox, when journaled (`QueueJob.seq`). */
  readonly seq: number | undefined;
  /** A scheduled send: its `sendAt` (`QueueJob.sendAt`). */
  readonly sendAt: number | undefined;
  #outcome: 0 | 1 | 2 = 0; // pending | resolved | rejected
  #createdIso: string | undefined = undefined;
  #sentIso: string | undefined = undefined;
  #promise: Promise<SendResult> | undefined = undefined;
  /** Settles `#promise`; only exists while someone holds a pending result. */
  #settle: { resolve(value: SendResult): void; reject(error: WakitError): void } | undefined =
    undefined;

  constructor(
    readonly id: string,
    readonly chatId: string,
    readonly kind: string,
    readonly level: Level,
    readonly createdAt: number,
    job: QueueJob,
  ) {
    this.updatedAt = createdAt;
    this.job = job;
    this.seq = job.seq;
    this.sendAt = job.sendAt;
  }

  /** True once the send succeeded or failed for good (acks may still follow). */
  get settled(): boolean {
    return this.#outcome !== 0;
  }

  /** The promise handed to the caller: resolves with the message id, rejects with the coded error. */
  result(): Promise<SendResult> {
    if (this.#promise) return this.#promise;
    if (this.#outcome === 1) {
      this.#promise = Promise.resolve({ id: this.messageId ?? '' });
    } else if (this.#outcome === 2) {
      this.#promise = Promise.reject(this.error!);
      // Handled here so that a caller who never looks at it gets no unhandled rejection.
      this.#promise.catch(noop);
    } else {
      this.#promise = new Promise<SendResult>((resolve, reject) => {
        this.#settle = { resolve, reject };
      });
    }
    return this.#promise;
  }

  /** Takes over a result handed out while the send waited only in the outbox. */
  adopt(result: {
    promise: Promise<SendResult>;
    resolve(value: SendResult): void;
    reject(error: WakitError): void;
  }): void {
    this.#promise = result.promise;
    this.#settle = result;
  }

  resolve(messageId: string): void {
    this.#outcome = 1;
    this.job = undefined;
    this.#settle?.resolve({ id: messageId });
    this.#settle = undefined;
  }

  /** Held (ENGINE_INCOMPATIBLE): the caller's result rejects now; the job stays for a retry. */
  hold(error: WakitError): void {
    const job = this.job;
    this.reject(error);
    this.job = job;
  }

  reject(error: WakitError): void {
    this.#outcome = 2;
    this.job = undefined;
    if (this.#settle) {
      // A handler on the caller's promise itself (the derived promise never rejects), attached
      // before rejecting: no unhandled rejection, while callers who await it still get the error.
      this.#promise!.catch(noop);
      this.#settle.reject(error);
    }
    this.#settle = undefined;
  }

  snapshot(client: string): TrackedSend {
    const record: TrackedSend = {
      id: this.id,
      client,
      chatId: this.chatId,
      kind: this.kind,
      status: this.status,
      attempts: this.attempts,
      createdAt: (this.#createdIso ??= isoOf(this.createdAt)),
      updatedAt: isoOf(this.updatedAt),
    };
    if (this.messageId !== undefined) record.messageId = this.messageId;
    if (this.ack !== undefined) record.ack = this.ack;
    if (this.error) record.error = { code: this.error.code, message: this.error.message };
    if (this.sentAt) record.sentAt = this.#sentIso ??= isoOf(this.sentAt);
    if (this.sendAt !== undefined) record.sendAt = new Date(this.sendAt).toISOString();
    if (this.deferral) {
      record.budget = this.deferral.budget;
      record.dueAt = new Date(this.deferral.dueAt).toISOString();
    }
    return record;
  }
}
