import type { PendingSends } from './pending-sends.js';
import type { SendEntry } from './send-entry.js';
import type { SendPriority } from './types.js';

/** The send a gate is asked about: the next one the pacing would let go now. */
export interface GatedSend {
  /** Tracking id. */
  id: string;
  chatId: string;
  kind: string;
  priority: SendPriority;
  /** Attempts made so far (0: never tried). */
  attempts: number;
}

/** `go`, or: not before `deferUntil` (ms since epoch), for `reason` (e.g. the budget's name). */
export type GateVerdict = 'go' | { deferUntil: number; reason: string };

/**
 * Asked by a client's outbound queue before each send goes out (the kernel's `SEND_GATE`, one per
 * client). A deferred send stays accepted and waiting; the queue goes on with the sends after it.
 */
export interface SendGate {
  check(send: GatedSend, now: number): GateVerdict;
}

/** The default gate: every send may go. */
export class OpenGate implements SendGate {
  check(): GateVerdict {
    return 'go';
  }
}

const PRIORITIES: readonly SendPriority[] = ['bulk', 'normal', 'reply'];

/**
 * The next send that may go at `now` and that `gate` lets go, or how long to wait for one. A send
 * the gate defers goes back to the front of its priority, not before its due time.
 */
export function takeThroughGate(
  pending: PendingSends,
  gate: SendGate | undefined,
  now: number,
  messagesFrom: number,
): SendEntry | number {
  for (;;) {
    const next = pending.take(now, messagesFrom);
    if (typeof next === 'number' || !gate) return next;
    const verdict = gate.check(
      {
        id: next.id,
        chatId: next.chatId,
        kind: next.kind,
        priority: PRIORITIES[next.level],
        attempts: next.attempts,
      },
      now,
    );
    if (verdict === 'go') return next;
    next.notBefore = Math.max(verdict.deferUntil, now + 1);
    pending.pushFront(next);
  }
}
