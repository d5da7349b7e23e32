import type { GovernorInfo } from '../governor/governor-info.js';

/** Order of service: `reply` before `normal` before `bulk`; first in, first out within one priority. */
export type SendPriority = 'reply' | 'normal' | 'bulk';

/** What a send gate answers for one send: it may go, or waits until `dueAt` for `budget`. */
export type GateAnswer = 'go' | { budget: string; dueAt: number };

/**
 * Asked by a client's outbound queue once per message before its first attempt (not for actions,
 * not for retries): the kernel's `SEND_GATE`, one per client; the send governor (src/governor/)
 * by default. A deferred send stays accepted (`deferred`, still queued in the outbox) and the queue
 * goes on with the sends after it. Must not throw (an error lets the send go).
 */
export interface SendGate {
  check(
    send: { id: string; chatId: string; priority: SendPriority; bypassBudget: boolean },
    now: number,
  ): Promise<GateAnswer>;
  /** Budget use, limits and restriction of the account (`client.info().governor`). */
  info?(): GovernorInfo;
}
