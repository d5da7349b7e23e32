/**
 * The OutboxStore port: where every accepted send is journaled before it is accepted, followed
 * through its life, recovered after a crash and looked up by id. Adapters: SQLite (the default,
 * one file per SDK), memory (opt-out: loses everything on a crash); a shared store for several
 * servers plugs in here (per-client ordered entries, async everywhere).
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

export interface OutboxStore {
  readonly kind: 'sqlite' | 'memory';
  /**
   * Journals an accepted send. Resolves once it is durable (group-committed with the other
   * appends of the same tick); rejects with STORAGE_UNAVAILABLE / STORAGE_FULL, storing nothing.
   * With an idempotency key already used in its scope, resolves to the id of that first send.
   */
  append(entry: OutboxEntry): Promise<{ id: string; duplicateOf?: { id: string; hash: string } }>;
  /** Records a status change; written with the next group commit (failures are reported). */
  update(id: string, change: OutboxChange): void;
  get(id: string): Promise<TrackedSend | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** Unfinished sends (queued or in flight) of a client, in acceptance order. */
  open(client: string): Promise<OpenEntry[]>;
  /** Media bytes of an entry, if it has any. */
  media(id: string): Promise<Buffer | undefined>;
  /** Removes finished sends beyond the policy; returns how many. */
  prune(policy: RetentionPolicy, now: number): Promise<number>;
  close(): Promise<void>;
}

export const FINISHED: ReadonlySet<TrackingStatus> = new Set([
  'sent',
  'delivered',
  'read',
  'played',
  'failed',
]);
