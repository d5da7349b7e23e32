import type { ErrorCode, WakitError } from '../errors/index.js';
import type { SendPriority } from './send-gate.js';

export type { GateAnswer, SendGate, SendPriority } from './send-gate.js';

/**
 * Life of one accepted send: queued → sending → sent → delivered → read → played, or failed;
 * `held` when the engine cannot make it on this WhatsApp Web build (ENGINE_INCOMPATIBLE): it waits,
 * still queued in the outbox, for `retryHeld()` (after an upgrade or reload); `deferred` when the
 * send governor keeps it until `dueAt` (a budget is spent: `budget`), still queued in the outbox;
 * `scheduled` while a send with `sendAt` waits in the outbox for its time (then `queued`), and
 * `cancelled` when it was cancelled before that (it never goes; docs/scheduling.md).
 */
export type TrackingStatus =
  | 'scheduled'
  | 'queued'
  | 'sending'
  | 'held'
  | 'deferred'
  | 'sent'
  | 'delivered'
  | 'read'
  | 'played'
  | 'failed'
  | 'cancelled';

/** A snapshot of one tracked send, as REST, SSE and metrics see it (plain, serialisable data). */
export interface TrackedSend {
  /** Tracking id (a time-ordered version 7 UUID), not the WhatsApp message id. */
  id: string;
  client: string;
  chatId: string;
  kind: string;
  status: TrackingStatus;
  /** WhatsApp message id, once sent. */
  messageId?: string;
  /** Last ack: -1 error, 0 pending, 1 server, 2 delivered, 3 read, 4 played. */
  ack?: number;
  error?: { code: ErrorCode; message: string };
  /** Send attempts made so far (retries included). */
  attempts: number;
  /** While `deferred`: the budget it waits for (docs/safety.md) and when it is due. */
  budget?: string;
  dueAt?: string;
  /** A scheduled send: not before this time (docs/scheduling.md); kept once it went. */
  sendAt?: string;
  createdAt: string;
  sentAt?: string;
  updatedAt: string;
}

export interface SendResult {
  /** WhatsApp message id. */
  id: string;
}

/**
 * One send handed to the queue. `run` performs it; it should honour `signal` (aborted on timeout or
 * close). A `run` declaring no parameter gets a shared signal that never aborts (no controller is
 * made for it); its attempt still fails with SEND_TIMEOUT / SHUTTING_DOWN.
 */
export interface QueueJob {
  /** Tracking id to use (a journaled or recovered send); a new one when absent. */
  id?: string;
  /** When the send was accepted (ms since epoch); now when absent. */
  createdAt?: number;
  /** Its sequence number in the outbox: with a backlog, a send beyond the window waits only there. */
  seq?: number;
  chatId: string;
  /** What is sent (`text`, `image`, ...): informational, for tracking and metrics. */
  kind: string;
  priority?: SendPriority;
  /**
   * An action on existing messages or presence (reaction, edit, delete, seen, presence, online):
   * its result id is the message acted on, not a new message, so acks are not followed for it.
   * `light` (reactions, presence) skips the per-chat gap and waits only `lightGapMs` (docs/queue.md).
   */
  action?: 'light' | 'paced';
  /** Goes out whatever the send governor's budgets say (an operator's override, logged). */
  bypassBudget?: boolean;
  /** A scheduled send whose time came (its `sendAt`): it goes at the head of its priority. */
  sendAt?: number;
  run(signal: AbortSignal): Promise<SendResult>;
}

/** What `enqueue` hands back. `result` settles once the send finished (rejects with a WakitError). */
export interface SendHandle {
  readonly trackingId: string;
  readonly result: Promise<SendResult>;
}

export interface QueueStats {
  /**
   * Accepted sends waiting for their turn (retries waiting for their backoff and sends deferred by
   * the send governor included).
   */
  pending: number;
  /** Sends held because the engine cannot make them on this build (ENGINE_INCOMPATIBLE). */
  held: number;
  /** Sends in flight (0 or 1). */
  running: number;
}

export interface DrainResult {
  drained: boolean;
  /** Sends still pending or running when the deadline passed (0 when drained). */
  remaining: number;
}

export type UpdateListener = (record: TrackedSend) => void;

/** A waiting send loaded back from the backlog. */
export interface PagedJob extends QueueJob {
  id: string;
  seq: number;
  createdAt: number;
  /** Fail it at once instead of sending it (e.g. accepted for another account). */
  error?: WakitError;
  /** The send governor keeps it until then (its journaled deferral): not asked before. */
  deferral?: { budget: string; dueAt: number };
}

/**
 * Where the waiting sends beyond the queue's window are (the outbox): they are loaded back in pages,
 * in acceptance order per priority, as the window drains.
 */
export interface BacklogSource {
  /** Up to `limit` waiting sends of `priority` with a sequence number above `after`, in order. */
  load(priority: SendPriority, after: number, limit: number): Promise<PagedJob[]>;
  /** Fails those waiting sends (but `except`) at once; resolves to their failed records. */
  fail(
    priority: SendPriority,
    after: number,
    error: WakitError,
    now: number,
    except: readonly string[],
  ): Promise<TrackedSend[]>;
}
