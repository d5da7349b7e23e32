/** Order of service: `reply` before `normal` before `bulk`; first in, first out within one priority. */
export type SendPriority = 'reply' | 'normal' | 'bulk';

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
