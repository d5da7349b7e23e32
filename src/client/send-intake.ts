import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { Ownership } from '../cluster/ownership.js';
import type { OutboundQueue, SendPriority } from '../queue/index.js';
import { newTrackingId } from '../queue/tracking-id.js';
import { FINISHED, encodeContent, type OutboxStore } from '../queue/outbox/index.js';
import type { MediaResolver } from './media-resolver.js';
import { outboxBacklog } from './outbox-backlog.js';
import { OutboxFollower } from './outbox-follower.js';
import { OwnerCatchUp } from './owner-catch-up.js';
import { isActionKind, isLightKind } from './action-contract.js';
import type { OutgoingContent, SendResult } from './types.js';

/** A send accepted by the queue: its tracking id and chat now, its WhatsApp id when it is sent. */
export interface QueuedSend {
  trackingId: string;
  /** The normalised chat id the send goes to. */
  chatId: string;
  result: Promise<SendResult>;
  /** True when an idempotency key matched an earlier send: this is that send, not a new one. */
  duplicate?: boolean;
}

export interface AcceptOptions {
  priority: SendPriority;
  idempotencyKey?: string;
  /** Namespace of the key (REST: the token); the client's name is always part of it. */
  idempotencyScope?: string;
  /** Past the send governor's budgets (`EnqueueOptions.bypassBudget`). */
  bypassBudget?: boolean;
}

export interface SendIntakeDeps {
  client: string;
  queue: OutboundQueue;
  outbox: OutboxStore;
  media: MediaResolver;
  clock: Clock;
  log: Logger;
  /** Which clients this process runs (a fleet: sends for others are journaled for their owner). */
  ownership: Ownership;
  /** The linked account (`me` id) now, or null. */
  account(): string | null;
  /** Makes the send through the engine, refusing another account than `account`. */
  deliver(
    chatId: string,
    content: OutgoingContent,
    account: string | null,
  ): Promise<{ id: string }>;
}

/**
 * Takes sends in for one client: journals each in the outbox before it is accepted (so nothing
 * accepted is lost), answers repeated idempotency keys with the first acceptance, and re-queues
 * what a previous process left unfinished, in its original order and priority. The outbox is the
 * queue's backlog: waiting sends beyond the queue's window wait only there.
 *
 * In a fleet (a shared outbox) a send for a client another node runs, or nobody runs for a moment
 * (failover), is only journaled here: the owner pages it in (`OwnerCatchUp`) and sends it with its
 * pacing; its `result` follows the record in the outbox (`OutboxFollower`). While this process runs
 * the client it watches the outbox for such sends, and recovery runs again each time it starts
 * running the client (`ownershipChanged`).
 */
/** Rejects the results of waiting sends when another node takes the client over (never shown). */
const HANDED_OFF = new WakitError(
  'CLIENT_UNAVAILABLE',
  'The client runs on another node now: the send waits in the shared outbox for it',
);

export class SendIntake {
  readonly #d: SendIntakeDeps;
  /** Idempotency keys whose first request is still being journaled. */
  readonly #accepting = new Set<string>();
  readonly #follower: OutboxFollower;
  readonly #catchUp: OwnerCatchUp;
  #recovered = false;
  /** Hand-offs so far: a send accepted before one may be another node's (or finished) since. */
  #handOffs = 0;

  constructor(deps: SendIntakeDeps) {
    this.#d = deps;
    deps.queue.pageTo(outboxBacklog(deps));
    this.#follower = new OutboxFollower(deps.outbox);
    this.#catchUp = new OwnerCatchUp(deps);
    if (deps.ownership.isLocal(deps.client)) this.#catchUp.start();
  }

  /**
   * This process starts (`local`) or stops running the client: it watches the outbox for sends
   * other nodes accept only while it runs it, and recovers again the next time (call `recover`).
   */
  ownershipChanged(local: boolean): void {
    this.#recovered = false;
    if (local) {
      this.#catchUp.start();
      return;
    }
    this.#catchUp.stop();
    // Its waiting sends are the new owner's now: forgotten here (still queued in the outbox), so
    // that they are never sent from here; results handed out follow the outbox instead.
    this.#handOffs++;
    this.#d.queue.handOff(HANDED_OFF);
  }

  /** Stops watching; results followed in the outbox reject with SHUTTING_DOWN (sends stay journaled). */
  close(): void {
    this.#catchUp.stop();
    this.#follower.close(
      new WakitError('SHUTTING_DOWN', 'Stopped following the send: it stays in the outbox'),
    );
  }

  async accept(
    chatId: string,
    content: OutgoingContent,
    options: AcceptOptions,
  ): Promise<QueuedSend> {
    const { queue, outbox, clock } = this.#d;
    // a media URL the address policy refuses is the caller's error now, never a failed record later
    if ('source' in content) this.#d.media.check?.(content.source);
    const local = this.#d.ownership.isLocal(this.#d.client);
    if (local) queue.assertCapacity();
    else queue.assertRoomFor(sum(await outbox.countOpen(this.#d.client)));
    const stored = await this.#bytesOfPath(content);
    const { json, media } = encodeContent(stored);
    const id = newTrackingId();
    // one acceptance time for the outbox record and the queue's entry (list and item agree)
    const createdAt = clock.now();
    const account = this.#d.account();
    const idempotency = options.idempotencyKey
      ? {
          scope: `${options.idempotencyScope ?? 'sdk'}:${this.#d.client}`,
          key: options.idempotencyKey,
          hash: requestHash(chatId, json, media),
        }
      : undefined;
    const slot = idempotency && `${idempotency.scope}\n${idempotency.key}`;
    if (slot) {
      if (this.#accepting.has(slot)) {
        throw new WakitError(
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this idempotency key is still being accepted: retry it in a moment',
        );
      }
      this.#accepting.add(slot);
    }
    let duplicateOf: { id: string; hash: string } | undefined;
    let seq: number | undefined;
    try {
      ({ duplicateOf, seq } = await outbox.append({
        id,
        client: this.#d.client,
        account,
        chatId,
        kind: content.kind,
        priority: options.priority,
        content: json,
        ...(media ? { media } : {}),
        ...(idempotency ? { idempotency } : {}),
        createdAt,
      }));
    } finally {
      if (slot) this.#accepting.delete(slot);
    }
    if (duplicateOf) return this.#replay(duplicateOf, idempotency!.hash);
    if (!local) return this.#journaledFor(id, chatId);
    let handle;
    try {
      handle = queue.enqueue({
        id,
        seq,
        createdAt,
        chatId,
        kind: content.kind,
        priority: options.priority,
        ...(options.bypassBudget ? { bypassBudget: true } : {}),
        ...(isActionKind(content.kind)
          ? { action: isLightKind(content.kind) ? 'light' : 'paced' }
          : {}),
        run: () => this.#d.deliver(chatId, stored, account),
      });
    } catch (error) {
      // Refused after all (the queue filled up meanwhile): journaled as failed, never sent.
      const refused = error as WakitError;
      outbox.update(id, {
        status: 'failed',
        attempts: 0,
        updatedAt: clock.now(),
        error: { code: refused.code, message: refused.message },
      });
      throw error;
    }
    const follower = this.#follower;
    const handOffs = this.#handOffs;
    const handedOffSince = (): boolean => this.#handOffs !== handOffs;
    // The result promise is made only when someone asks for it: 100,000 waiting sends that
    // nobody awaits hold no promises.
    let result: Promise<SendResult> | undefined;
    return {
      trackingId: id,
      chatId,
      get result() {
        // First asked for after a hand-off: this queue forgot the send (it waits in the outbox for
        // the new owner, or is finished by it), so only the outbox knows how it ends.
        if (!result && handedOffSince()) result = quiet(follower.follow(id));
        return (result ??= quiet(
          handle.result.then(
            ({ id: messageId }) => ({ id: messageId, trackingId: id }),
            (error: unknown) => {
              if (error === HANDED_OFF) return follower.follow(id);
              throw error;
            },
          ),
        ));
      },
    };
  }

  /** A send for a client another node runs: journaled only; its result follows the outbox. */
  #journaledFor(trackingId: string, chatId: string): QueuedSend {
    const follower = this.#follower;
    let result: Promise<SendResult> | undefined;
    return {
      trackingId,
      chatId,
      get result() {
        return (result ??= quiet(follower.follow(trackingId)));
      },
    };
  }

  /**
   * Re-queues what a previous process accepted and did not finish (once, when the client first
   * becomes READY): the queue learns how many sends of each priority wait in the outbox and loads
   * them page by page, in their original order, before newer ones of the same priority. A send in
   * flight at the crash is sent again: the at-least-once window. A send accepted for another
   * account than the one linked now is failed with SESSION_EXPIRED when its page is loaded. In a
   * fleet it runs again each time this process starts running the client.
   */
  async recover(): Promise<number> {
    if (this.#recovered) return 0;
    this.#recovered = true;
    const { outbox, queue, log, client } = this.#d;
    const found = queue.restore(await outbox.countOpen(client));
    if (found > 0) {
      log.info({ count: found }, 'client %s: %d sends recovered from the outbox', client, found);
    }
    return found;
  }

  /** Tracking ids of this client's sends the outbox still holds as waiting (left for the next start). */
  async waitingIds(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#d.outbox.list({
        clients: [this.#d.client],
        status: 'queued',
        limit: 1_000,
        ...(cursor ? { cursor } : {}),
      });
      for (const item of page.items) ids.push(item.id);
      cursor = page.next;
    } while (cursor);
    return ids;
  }

  async #replay(first: { id: string; hash: string }, hash: string): Promise<QueuedSend> {
    if (first.hash !== hash) {
      throw new WakitError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was used for a different request',
        { details: { trackingId: first.id } },
      );
    }
    const record = await this.#d.outbox.get(first.id);
    if (!record)
      throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${first.id}`);
    let result = this.#d.queue.resultOf(first.id);
    if (!result) {
      if (!FINISHED.has(record.status)) {
        result = this.#d.ownership.isLocal(this.#d.client)
          ? this.#d.queue.follow(first.id)
          : this.#follower.follow(first.id);
      } else if (record.status === 'failed') {
        result = Promise.reject(
          new WakitError(record.error?.code ?? 'ENGINE_ERROR', record.error?.message),
        );
      } else result = Promise.resolve({ id: record.messageId ?? '', trackingId: first.id });
    }
    const trackingId = first.id;
    return {
      trackingId,
      chatId: record.chatId,
      result: quiet(result.then(({ id }) => ({ id, trackingId }))),
      duplicate: true,
    };
  }

  /** A `path` source is read now: a recovered send must not depend on a file that may be gone. */
  async #bytesOfPath(content: OutgoingContent): Promise<OutgoingContent> {
    if (!('source' in content) || !('path' in content.source)) return content;
    const file = await this.#d.media.resolve(content.source, content.filename);
    return {
      ...content,
      source: { buffer: file.data, mimetype: file.mimetype },
      ...(content.filename === undefined && file.filename ? { filename: file.filename } : {}),
    };
  }
}

/**
 * A result promise a caller may ignore (REST's 202, fire-and-forget sends): its rejection is
 * handled here, so it never becomes an unhandled rejection, while callers who await it still get it.
 */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function sum(counts: Record<SendPriority, number>): number {
  return counts.reply + counts.normal + counts.bulk;
}

/** What makes two requests with one idempotency key "the same request". */
function requestHash(chatId: string, json: string, media: Buffer | undefined): string {
  const hash = createHash('sha256').update(chatId).update('\n').update(json);
  if (media) hash.update('\n').update(media);
  return hash.digest('base64url');
}
