import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { WakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { OutboundQueue, SendPriority } from '../../queue/index.js';
import { newTrackingId } from '../../queue/tracking-id.js';
import { FINISHED, encodeContent, type OutboxStore } from '../../queue/outbox/index.js';
import type { MediaResolver } from '../media/media-resolver.js';
import { outboxBacklog } from './outbox-backlog.js';
import { isActionKind, isLightKind } from './action-contract.js';
import { ScheduledSends } from './scheduled-sends.js';
import { scheduleTime, type ScheduleLimits, type SendAt } from './send-at.js';
import { withTyping, type TypingOption } from './typing.js';
import type { OutgoingContent, SendResult } from '../types.js';

/** A send accepted by the queue: its tracking id and chat now, its WhatsApp id when it is sent. */
export interface QueuedSend {
  trackingId: string;
  /** The normalised chat id the send goes to. */
  chatId: string;
  result: Promise<SendResult>;
  /** True when an idempotency key matched an earlier send: this is that send, not a new one. */
  duplicate?: boolean;
  /** A scheduled send (`sendAt` ahead of now): not before this time (ms since epoch). */
  scheduledAt?: number;
}

export interface AcceptOptions {
  priority: SendPriority;
  idempotencyKey?: string;
  /** Namespace of the key (REST: the token); the client's name is always part of it. */
  idempotencyScope?: string;
  /** Past the send governor's budgets (`EnqueueOptions.bypassBudget`). */
  bypassBudget?: boolean;
  /** Not before this time: journaled `scheduled` until then (docs/scheduling.md). */
  sendAt?: SendAt;
  /** Show "typing…" / "recording…" before the message goes (journaled with its content). */
  typing?: TypingOption;
}

export interface SendIntakeDeps {
  client: string;
  queue: OutboundQueue;
  outbox: OutboxStore;
  media: MediaResolver;
  clock: Clock;
  log: Logger;
  /** `queue.schedule` and `queue.maxSize`: limits of `sendAt`, room a release may take. */
  schedule: ScheduleLimits & { maxSize: number };
  /** This process runs the client and it is READY (scheduled sends are released only then). */
  ready(): boolean;
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
 * Where an accepted send goes and how its result is told. The intake's own route (`local`) queues
 * every send here; a client placement may pass another (src/cluster: a client another node runs).
 */
export interface SendRoute {
  /** Before journaling: throws SHUTTING_DOWN or QUEUE_FULL when the send would be refused. */
  admit(): void | Promise<void>;
  /** False: the send is only journaled (someone else sends it); its result is `follow`'s. */
  readonly queueHere: boolean;
  /** The outcome of an unfinished send this process's queue does not hold (its WhatsApp id). */
  follow(trackingId: string): Promise<{ id: string }>;
  /**
   * Made when a send is queued here: turns the queue's result (`queued`, made only when someone
   * asks for it) into the send's result. Default: the queue's result.
   */
  outcome?(trackingId: string): (queued: () => Promise<SendResult>) => Promise<SendResult>;
}

const queuedResult = (queued: () => Promise<SendResult>): Promise<SendResult> => queued();

/**
 * Takes sends in for one client: journals each in the outbox before it is accepted (so nothing
 * accepted is lost), answers repeated idempotency keys with the first acceptance, and re-queues
 * what a previous process left unfinished, in its original order and priority. The outbox is the
 * queue's backlog: waiting sends beyond the queue's window wait only there.
 */
export class SendIntake {
  readonly #d: SendIntakeDeps;
  /** Idempotency keys whose first request is still being journaled. */
  readonly #accepting = new Set<string>();
  #recovered = false;
  /** Every send queued here, its result from the queue. */
  readonly local: SendRoute;
  /** The client's scheduled sends: released into the queue at their time, cancel, reschedule. */
  readonly scheduled: ScheduledSends;

  constructor(deps: SendIntakeDeps) {
    this.#d = deps;
    deps.queue.pageTo(outboxBacklog(deps));
    this.scheduled = new ScheduledSends({
      ...deps,
      maxSize: deps.schedule.maxSize,
      limits: deps.schedule,
      ...(deps.outbox.watch ? { pollMs: 1_000 } : {}),
    });
    this.local = {
      admit: () => deps.queue.assertCapacity(),
      queueHere: true,
      follow: (trackingId) => deps.queue.follow(trackingId),
    };
  }

  /** The next `recover()` runs again (the client starts running in this process once more). */
  rearm(): void {
    this.#recovered = false;
  }

  async accept(
    chatId: string,
    content: OutgoingContent,
    options: AcceptOptions,
    route: SendRoute = this.local,
  ): Promise<QueuedSend> {
    const { queue, outbox, clock } = this.#d;
    // a media URL the address policy refuses is the caller's error now, never a failed record later
    if ('source' in content) this.#d.media.check?.(content.source);
    const sendAt = scheduleTime(options.sendAt, clock.now(), this.#d.schedule);
    if (sendAt !== undefined && !outbox.schedule) {
      throw new WakitError(
        'SCHEDULE_UNSUPPORTED',
        `The ${outbox.kind} outbox has no scheduled sends`,
      );
    }
    const admitted = route.admit();
    if (admitted) await admitted;
    const bare = await this.#bytesOfPath(content);
    const stored = withTyping(bare, options.typing);
    const { json, media } = encodeContent(stored);
    const id = newTrackingId();
    // one acceptance time for the outbox record and the queue's entry (list and item agree)
    const createdAt = clock.now();
    const account = this.#d.account();
    const idempotency = options.idempotencyKey
      ? {
          scope: `${options.idempotencyScope ?? 'sdk'}:${this.#d.client}`,
          key: options.idempotencyKey,
          // how a send is shown (typing) is not part of "the same request": a conversation's
          // replay with another typing setting is still its first send
          hash: requestHash(
            chatId,
            stored === bare ? json : encodeContent(bare).json,
            media,
            sendAt,
          ),
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
        ...(options.bypassBudget ? { bypassBudget: true } : {}),
        ...(sendAt !== undefined ? { sendAt } : {}),
        createdAt,
      }));
    } finally {
      if (slot) this.#accepting.delete(slot);
    }
    if (duplicateOf) return this.#replay(duplicateOf, idempotency!.hash, route);
    if (!route.queueHere) {
      const journaled = this.#journaledFor(id, chatId, route);
      return sendAt === undefined ? journaled : Object.assign(journaled, { scheduledAt: sendAt });
    }
    if (sendAt !== undefined) return this.#scheduledHere(id, chatId, sendAt);
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
    const queued = (): Promise<SendResult> =>
      handle.result.then(({ id: messageId }) => ({ id: messageId, trackingId: id }));
    const settle = route.outcome?.(id) ?? queuedResult;
    // The result promise is made only when someone asks for it: 100,000 waiting sends that
    // nobody awaits hold no promises.
    let result: Promise<SendResult> | undefined;
    return {
      trackingId: id,
      chatId,
      get result() {
        return (result ??= quiet(settle(queued)));
      },
    };
  }

  /** A send scheduled here: the scheduler releases it into this queue at its time. */
  #scheduledHere(trackingId: string, chatId: string, scheduledAt: number): QueuedSend {
    this.scheduled.poke();
    const scheduled = this.scheduled;
    let result: Promise<SendResult> | undefined;
    return {
      trackingId,
      chatId,
      scheduledAt,
      get result() {
        return (result ??= quiet(
          scheduled.follow(trackingId).then(({ id }) => ({ id, trackingId })),
        ));
      },
    };
  }

  /** A send only journaled here: its result is the route's to follow. */
  #journaledFor(trackingId: string, chatId: string, route: SendRoute): QueuedSend {
    let result: Promise<SendResult> | undefined;
    return {
      trackingId,
      chatId,
      get result() {
        return (result ??= quiet(route.follow(trackingId).then(({ id }) => ({ id, trackingId }))));
      },
    };
  }

  /**
   * Re-queues what a previous process accepted and did not finish (once, when the client first
   * becomes READY): the queue learns how many sends of each priority wait in the outbox and loads
   * them page by page, in their original order, before newer ones of the same priority. A send in
   * flight at the crash is sent again: the at-least-once window. A send accepted for another
   * account than the one linked now is failed with SESSION_EXPIRED when its page is loaded.
   * After `rearm()` it runs again.
   */
  async recover(): Promise<number> {
    this.scheduled.poke();
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

  async #replay(
    first: { id: string; hash: string },
    hash: string,
    route: SendRoute,
  ): Promise<QueuedSend> {
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
      if (!FINISHED.has(record.status)) result = route.follow(first.id);
      else if (record.status === 'failed') {
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
      ...(record.status === 'scheduled' && record.sendAt
        ? { scheduledAt: Date.parse(record.sendAt) }
        : {}),
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
  // not reported: the caller awaits the same promise and gets the failure
  promise.catch(() => undefined);
  return promise;
}

/** What makes two requests with one idempotency key "the same request". */
function requestHash(
  chatId: string,
  json: string,
  media: Buffer | undefined,
  sendAt: number | undefined,
): string {
  const hash = createHash('sha256').update(chatId).update('\n').update(json);
  if (media) hash.update('\n').update(media);
  if (sendAt !== undefined) hash.update(`\nsendAt:${sendAt}`);
  return hash.digest('base64url');
}
