/**
 * The Redis outbox's data model: key names (all under `<keyPrefix>:outbox:`), and a send's hash
 * back to the port's types. Layout (docs/scaling.md, "The shared outbox (Redis)"):
 *
 * - `<p>:seq` fleet-wide sequence counter (INCR): acceptance order across every node;
 * - `<p>:send:<id>` hash of one send (entry, status, outcome);
 * - `<p>:media:<id>` its media bytes, when it has any;
 * - `<p>:idem:<len>:<scope>:<key>` `"<id>\n<hash>"` of the send an idempotency key stands for;
 * - `<p>:open:<client>:<priority>` ZSET of unfinished sends by seq (the owner's pages);
 * - `<p>:scheduled:<client>` ZSET of scheduled sends by sendAt (released into `open` at their time);
 * - `<p>:list` and `<p>:list:<client>` ZSETs of every send by seq (newest-first listing);
 * - `<p>:done` ZSET of finished sends by last update time (retention);
 * - channel `<keyPrefix>:outbox:appended`: `{client, seq, nodeId}` per append.
 */
import type { ErrorCode } from '../../errors/index.js';
import type { SendPriority, TrackedSend, TrackingStatus } from '../../queue/types.js';
import type { OpenEntry, OutboxChange } from '../../queue/outbox/outbox-store.js';

/** A send's hash as HGETALL returns it (every field a string; absent ones missing). */
export type SendHash = Record<string, string>;

export class OutboxKeys {
  /** `<keyPrefix>:outbox` */
  readonly base: string;
  readonly channel: string;

  constructor(keyPrefix: string) {
    this.base = `${keyPrefix}:outbox`;
    this.channel = `${keyPrefix}:outbox:appended`;
  }

  get seq(): string {
    return `${this.base}:seq`;
  }

  get list(): string {
    return `${this.base}:list`;
  }

  get done(): string {
    return `${this.base}:done`;
  }

  send(id: string): string {
    return `${this.base}:send:${id}`;
  }

  media(id: string): string {
    return `${this.base}:media:${id}`;
  }

  open(client: string, priority: SendPriority): string {
    return `${this.base}:open:${client}:${priority}`;
  }

  /** A client's scheduled sends by sendAt (same name as in redis-schedule-scripts.ts). */
  scheduled(client: string): string {
    return `${this.base}:scheduled:${client}`;
  }

  clientList(client: string): string {
    return `${this.base}:list:${client}`;
  }

  /** Length-prefixed, so no scope/key pair can spell another's name (same as the Lua). */
  idem(scope: string, key: string): string {
    return `${this.base}:idem:${Buffer.byteLength(scope)}:${scope}:${key}`;
  }
}

export const PRIORITIES: readonly SendPriority[] = ['reply', 'normal', 'bulk'];

/** A change as the update script's arguments (after the prefix and id). */
export function changeArgs(change: OutboxChange, finished: boolean, ttlMs: number): string[] {
  return [
    change.status,
    String(change.attempts),
    String(change.updatedAt),
    change.messageId ?? '',
    change.ack === undefined ? '' : String(change.ack),
    change.sentAt === undefined ? '' : String(change.sentAt),
    change.error?.code ?? '',
    change.error?.message ?? '',
    finished ? '1' : '0',
    String(ttlMs),
  ];
}

export function toOpen(hash: SendHash): OpenEntry {
  return {
    id: hash.id,
    client: hash.client,
    account: hash.account ?? null,
    chatId: hash.chatId,
    kind: hash.kind,
    priority: hash.priority as SendPriority,
    content: hash.content,
    createdAt: Number(hash.createdAt),
    status: hash.status as TrackingStatus,
    attempts: Number(hash.attempts),
    seq: Number(hash.seq),
    ...(hash.bypassBudget === '1' ? { bypassBudget: true } : {}),
    ...(hash.sendAt !== undefined ? { sendAt: Number(hash.sendAt) } : {}),
    ...(hash.dueAt
      ? { deferral: { budget: hash.dueBudget ?? '', dueAt: Number(hash.dueAt) } }
      : {}),
  };
}

export function toTracked(hash: SendHash): TrackedSend {
  const record: TrackedSend = {
    id: hash.id,
    client: hash.client,
    chatId: hash.chatId,
    kind: hash.kind,
    status: hash.status as TrackingStatus,
    attempts: Number(hash.attempts),
    createdAt: new Date(Number(hash.createdAt)).toISOString(),
    updatedAt: new Date(Number(hash.updatedAt)).toISOString(),
  };
  if (hash.messageId !== undefined) record.messageId = hash.messageId;
  if (hash.ack !== undefined) record.ack = Number(hash.ack);
  if (hash.errorCode !== undefined)
    record.error = { code: hash.errorCode as ErrorCode, message: hash.errorMessage ?? '' };
  if (hash.sentAt !== undefined) record.sentAt = new Date(Number(hash.sentAt)).toISOString();
  if (hash.sendAt !== undefined) record.sendAt = new Date(Number(hash.sendAt)).toISOString();
  return record;
}

/** HGETALL of a missing key is `{}`. */
export function isPresent(hash: SendHash | undefined): hash is SendHash {
  return hash !== undefined && hash.id !== undefined;
}
