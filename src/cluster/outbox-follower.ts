import { WakitError } from '../errors/index.js';
import { FINISHED, type OutboxStore } from '../queue/outbox/index.js';
import type { SendResult } from '../client/types.js';

/** How often the followed sends are read from the outbox. */
export const FOLLOW_INTERVAL_MS = 300;

interface Waiter {
  promise: Promise<SendResult>;
  resolve(value: SendResult): void;
  reject(error: WakitError): void;
}

/**
 * Results of sends another process makes: a node that accepted a send for a client it does not
 * run journals it in the shared outbox and follows its record there, reading every followed send
 * once per FOLLOW_INTERVAL_MS, until the owner recorded its outcome (sent or later: resolves;
 * failed: rejects with the recorded error; gone from the outbox: MESSAGE_NOT_FOUND). A read that
 * fails (Redis down) is tried again at the next round. One timer for all of a client's sends.
 */
export class OutboxFollower {
  readonly #outbox: OutboxStore;
  readonly #waiting = new Map<string, Waiter>();
  #timer: NodeJS.Timeout | undefined;
  #closed: WakitError | undefined;

  constructor(outbox: OutboxStore) {
    this.#outbox = outbox;
  }

  follow(trackingId: string): Promise<SendResult> {
    if (this.#closed) return quietReject(this.#closed);
    let waiter = this.#waiting.get(trackingId);
    if (!waiter) {
      let settle!: Pick<Waiter, 'resolve' | 'reject'>;
      const promise = new Promise<SendResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // not reported: the caller awaits the same promise and gets the failure
      promise.catch(() => undefined);
      waiter = { promise, ...settle };
      this.#waiting.set(trackingId, waiter);
      this.#arm();
    }
    return waiter.promise;
  }

  /** Rejects every followed result with `error` (the send itself stays journaled). */
  close(error: WakitError): void {
    this.#closed = error;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }

  #arm(): void {
    if (this.#timer || this.#closed || this.#waiting.size === 0) return;
    this.#timer = setTimeout(() => void this.#poll(), FOLLOW_INTERVAL_MS);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    await Promise.all(
      [...this.#waiting].map(async ([id, waiter]) => {
        let record;
        try {
          record = await this.#outbox.get(id);
        } catch {
          return; // not reported: the outbox cannot be read now; the next round reads again
        }
        if (record && !FINISHED.has(record.status)) return;
        if (this.#waiting.get(id) !== waiter) return;
        this.#waiting.delete(id);
        if (!record) {
          waiter.reject(new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${id}`));
        } else if (record.status === 'failed') {
          waiter.reject(
            new WakitError(record.error?.code ?? 'ENGINE_ERROR', record.error?.message),
          );
        } else waiter.resolve({ id: record.messageId ?? '', trackingId: id });
      }),
    );
    this.#timer = undefined;
    this.#arm();
  }
}

function quietReject(error: WakitError): Promise<never> {
  const promise = Promise.reject(error);
  // not reported: the caller gets the rejection
  promise.catch(() => undefined);
  return promise;
}
