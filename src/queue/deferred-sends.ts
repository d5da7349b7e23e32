import type { PendingSends } from './pending-sends.js';
import type { SendEntry } from './send-entry.js';
import type { GovernorInfo } from '../governor/governor-info.js';
import type { GateAnswer, SendGate, SendPriority } from './types.js';

const PRIORITIES: readonly SendPriority[] = ['bulk', 'normal', 'reply'];

/**
 * Sends the send governor keeps until a budget has room (`deferred`, with the budget and the due
 * time): out of the pending lists, so the queue goes on with sends that fit; still `queued` in the
 * outbox. Back at the head of their priority once due, where the governor is asked again.
 */
export class DeferredSends {
  readonly #entries = new Map<string, SendEntry>();

  constructor(
    private readonly gate: SendGate | undefined,
    private readonly pending: PendingSends,
    private readonly emit: (entry: SendEntry) => void,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** A send governor is asked (deferrals kept from before a restart hold only then). */
  get gated(): boolean {
    return this.gate !== undefined;
  }

  /** The governor's view of the account, with the sends it keeps now (`client.info().governor`). */
  info(): GovernorInfo | null {
    const info = this.gate?.info?.();
    return info ? { ...info, deferred: this.#entries.size } : null;
  }

  /** The governor's answer for a message's first attempt ('go' for actions, retries, no governor). */
  ask(entry: SendEntry, now: number): Promise<GateAnswer> | 'go' {
    const job = entry.job;
    if (!this.gate || !job || job.action !== undefined || entry.attempts > 0) return 'go';
    const { id, chatId, level } = entry;
    const send = {
      id,
      chatId,
      priority: PRIORITIES[level],
      bypassBudget: job.bypassBudget === true,
    };
    return this.gate.check(send, now);
  }

  /** Keeps `entry` until `deferral.dueAt`; returns true. */
  add(entry: SendEntry, deferral: { budget: string; dueAt: number }, now: number): true {
    entry.status = 'deferred';
    entry.deferral = { budget: deferral.budget, dueAt: deferral.dueAt };
    entry.updatedAt = now;
    this.#entries.set(entry.id, entry);
    this.emit(entry);
    return true;
  }

  /** How long until a send may go: `next` (the pending lists' wait) or the earliest due time. */
  wait(next: number, now: number): number {
    let due = Infinity;
    for (const entry of this.#entries.values()) due = Math.min(due, entry.deferral!.dueAt);
    return Math.max(Math.min(next, due - now), 1);
  }

  /** Puts the sends due at `now` back at the head of the pending lists, in order, as `queued`. */
  release(now: number): void {
    if (this.#entries.size === 0) return;
    const due = [...this.#entries.values()].filter((entry) => entry.deferral!.dueAt <= now);
    for (const entry of due.reverse()) {
      this.#entries.delete(entry.id);
      entry.status = 'queued';
      entry.deferral = undefined;
      entry.updatedAt = now;
      this.pending.pushFront(entry);
      this.emit(entry);
    }
  }

  takeAll(): SendEntry[] {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    return entries;
  }
}
