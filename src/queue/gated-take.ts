import type { PendingSends } from './pending-sends.js';
import type { SendEntry } from './send-entry.js';
import type { SendGate, SendPriority } from './send-gate.js';

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
