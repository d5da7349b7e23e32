/**
 * The OutboxStore port: where every accepted send is journaled before it is accepted, followed
 * through its life, recovered after a crash and looked up by id. Adapters: SQLite (the default,
 * one file per SDK), memory (opt-out: loses everything on a crash), Redis (a fleet: one outbox
 * shared by every node, `cluster` config; per-client ordered entries, async everywhere).
 */
import type { ErrorCode } from '../../errors/index.js';
import type { SendPriority, TrackedSend, TrackingStatus } from '../types.js';

/** What is journaled when a send is accepted. `content` is JSON; media bytes go in `media`. */
export interface OutboxEntry {
  /** Tracking id. */
  id: string;
  client: string;
  /** The account (`me` id) the send was accepted under; null when accepted before linking. */
  account: string | null;
  chatId: string;
  kind: string;
  priority: SendPriority;
  /** Serialised prepared content (see content-codec.ts). */
  content: string;
  media?: Buffer;
  idempotency?: { scope: string; key: string; hash: string };
  createdAt: number;
  /** Goes out whatever the send governor's budgets say (an operator's override, logged). */
  bypassBudget?: boolean;
  /**
   * A scheduled send: journaled `scheduled`, not waiting (not open) until `releaseDue` makes it
   * `queued` at this time (ms since epoch; docs/scheduling.md).
   */
  sendAt?: number;
}

/** Why and until when the send governor keeps a waiting send (docs/safety.md). */
export interface Deferral {
  budget: string;
  /** When it is asked again (ms since epoch). */
  dueAt: number;
}

/** A status change of a journaled send. */
export interface OutboxChange {
  status: TrackingStatus;
  attempts: number;
  updatedAt: number;
  messageId?: string;
  ack?: number;
  sentAt?: number;
  error?: { code: ErrorCode; message: string };
}

/** An unfinished send, as recovery re-queues it. */
export interface OpenEntry extends OutboxEntry {
  status: TrackingStatus;
  attempts: number;
  /** Sequence number: acceptance order within the store. */
  seq: number;
  /** The send governor's last deferral of it (recovery keeps it deferred until then). */
  deferral?: Deferral;
}

/** Waiting sends of one client and priority after a sequence number (the queue's next page). */
export interface WaitingQuery {
  client: string;
  priority: SendPriority;
  /** Only sends with a sequence number above this one. */
  after: number;
}

/** How waiting sends are failed in bulk (e.g. when the session ended). */
export interface BulkFailure {
  updatedAt: number;
  error: { code: ErrorCode; message: string };
  /** Sends left alone (the one in flight). */
  except?: readonly string[];
}

export interface ListQuery {
  /** Only these clients (the caller's visible ones); all when absent. */
  clients?: readonly string[];
  status?: TrackingStatus;
  /** Created at or after (ms since epoch). */
  since?: number;
  limit: number;
  /** Opaque cursor from the previous page. */
  cursor?: string;
}

export interface ListPage {
  items: TrackedSend[];
  /** Cursor of the next page; absent on the last one. */
  next?: string;
}

export interface RetentionPolicy {
  /** Finished sends kept at most (oldest pruned first). */
  maxCount: number;
  /** Finished sends older than this are pruned. */
  maxAgeMs: number;
}

/** What `append` resolves to: the new send's sequence number, or the send a used key stands for. */
export type Appended =
  | { id: string; seq: number; duplicateOf?: undefined }
  | { id: string; seq?: undefined; duplicateOf: { id: string; hash: string } };

/** A send some node appended to a shared outbox (`OutboxStore.watch`). */
export interface AppendedNotice {
  client: string;
  seq: number;
  /** The node that accepted it. */
  nodeId: string;
  /** True when this process appended it (its own queue has it already). */
  own: boolean;
}

/**
 * The scheduled sends of an outbox (`sendAt`, docs/scheduling.md): journaled `scheduled`, they are
 * not open (recovery, pages and counts skip them) until their time, when `releaseDue` turns them
 * `queued` in one atomic step, so that a send is released once even when two processes ask. Cancel
 * and reschedule are atomic against the release: a send either is still `scheduled` (and changes)
 * or went already (and does not).
 */
export interface ScheduleStore {
  /** The earliest `sendAt` of a client's scheduled sends; undefined when none is scheduled. */
  nextDue(client: string): Promise<number | undefined>;
  /**
   * Makes up to `limit` scheduled sends of `client` due at `now` (sendAt ≤ now) `queued`, earliest
   * first, and returns them as open entries (as recovery would load them). Durable when it resolves.
   */
  releaseDue(client: string, now: number, limit: number): Promise<OpenEntry[]>;
  /**
   * Cancels a scheduled send (`cancelled`: it never goes). Resolves to its record afterwards:
   * `cancelled` when this call cancelled it, any other status when it was not scheduled (any
   * more); undefined when there is no such send.
   */
  cancel(id: string, now: number): Promise<TrackedSend | undefined>;
  /** Moves a scheduled send to `sendAt`; the record afterwards, as for `cancel`. */
  reschedule(id: string, sendAt: number, now: number): Promise<TrackedSend | undefined>;
}

export interface OutboxStore {
  readonly kind: 'sqlite' | 'memory' | 'redis';
  /**
   * Journals an accepted send. Resolves once it is durable (group-committed with the other
   * appends of the same tick); rejects with STORAGE_UNAVAILABLE / STORAGE_FULL, storing nothing.
   * With an idempotency key already used in its scope, resolves to the id of that first send.
   */
  append(entry: OutboxEntry): Promise<Appended>;
  /**
   * Records a status change; written with the next group commit (failures are reported). `seq` is
   * the send's sequence number when the caller has it (what `append` gave): a store may find the
   * send by it rather than by its id.
   */
  update(id: string, change: OutboxChange, seq?: number): void;
  /**
   * Resolves once every change recorded so far is committed (or its failure reported). The queue
   * waits for it after each send before the next one starts, so a crash can only repeat the one
   * send whose `sent` was not yet written: the at-least-once window stays one message.
   */
  committed(): Promise<void>;
  /**
   * Records that the send governor keeps the waiting send `id` until `deferral.dueAt` (it stays
   * `queued`): written with the send, so a restart keeps it deferred with the same due time.
   */
  defer(id: string, deferral: Deferral, seq?: number): void;
  get(id: string): Promise<TrackedSend | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** Unfinished sends (queued or in flight) of a client, in acceptance order. */
  open(client: string): Promise<OpenEntry[]>;
  /** Up to `limit` unfinished sends of `query`, in acceptance order (the outbound queue's pages). */
  openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]>;
  /** How many unfinished sends a client has, by priority. */
  countOpen(client: string): Promise<Record<SendPriority, number>>;
  /** Fails the unfinished sends of `query` (but `failure.except`) at once; returns them, failed. */
  failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]>;
  /** Media bytes of an entry, if it has any. */
  media(id: string): Promise<Buffer | undefined>;
  /** Removes finished sends beyond the policy; returns how many. */
  prune(policy: RetentionPolicy, now: number): Promise<number>;
  /**
   * Optional, for stores shared by several processes (Redis): calls `listener` whenever any node
   * appends a send for `client`, so the process running it pages the send into its queue. Returns a
   * function that stops it. Notices may be lost (pub/sub has no replay): callers poll as well.
   * Stores of one process (SQLite, memory) do not implement it: every send is accepted locally.
   */
  watch?(client: string, listener: (notice: AppendedNotice) => void): () => void;
  /** Scheduled sends (`OutboxEntry.sendAt`); a store without it refuses them (SCHEDULE_UNSUPPORTED). */
  readonly schedule?: ScheduleStore;
  close(): Promise<void>;
}

/**
 * One page of a newest-first listing: `rows` holds up to `limit + 1` rows (the extra one says there
 * is a next page); the cursor is the last row's sequence number.
 */
export function pageOf<R>(
  rows: readonly R[],
  limit: number,
  seqOf: (row: R) => number,
  toSend: (row: R) => TrackedSend,
): ListPage {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toSend),
    ...(rows.length > limit && last !== undefined
      ? { next: Buffer.from(String(seqOf(last))).toString('base64url') }
      : {}),
  };
}

/** The sequence number a cursor of `pageOf` stands for. */
export function cursorSeq(cursor: string): number {
  return Number(Buffer.from(cursor, 'base64url').toString());
}

export const FINISHED: ReadonlySet<TrackingStatus> = new Set([
  'sent',
  'delivered',
  'read',
  'played',
  'failed',
  'cancelled',
]);

/** An unfinished send that waits for its turn (queued or in flight), not a scheduled one. */
export function isOpen(status: TrackingStatus): boolean {
  return !FINISHED.has(status) && status !== 'scheduled';
}
