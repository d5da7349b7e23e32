/**
 * Webhooks: every matching client event is POSTed as JSON `{ id, event, client, at, data }`, signed
 * the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64
 * HMAC-SHA256 of "id.timestamp.body">`, so a receiver can refuse replays), plus the older
 * `X-Wakit-Signature: sha256=<hex HMAC of the body>` (kept for one version) and `X-Wakit-Event`. Non-2xx
 * answers, network errors and timeouts are retried with exponential backoff up to `maxAttempts`.
 * Delivery runs in the background: `handle()` only schedules, so a slow receiver never blocks a
 * client; beyond `maxPending` deliveries per webhook new events are dropped (logged and counted).
 * In a fleet, the node that consumes an event from the stream's `webhooks` group calls `deliver()`,
 * which settles once every delivery of the event did (delivered, failed for good or dropped); the
 * delivery id is then the stream id, the same whichever node delivers it.
 * Webhooks of clients added at run time (`clientHooks`) are delivered the same way, through the
 * SSRF-guarded transport (guarded-post.ts).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { WakitError } from '../../../src/index.js';
import * as http from '../../../src/entries/http.js';
import type { HubEvent } from './event-hub.js';
import type { RestMetrics } from '../metrics/rest-metrics.js';
import { guardedPost } from './guarded-post.js';
import type { ClientWebhookOptions, WebhookOptions } from '../options.js';

/** What a delivery needs of a webhook: configured ones also carry `clients`. */
type Hook = ClientWebhookOptions;

/** The webhooks of clients added at run time. */
export interface ClientHookSource {
  of(client: string): readonly ClientWebhookOptions[];
  readonly allowPrivateNetworks: boolean;
}

/** Legacy `X-Wakit-Signature` (no timestamp: replayable). Deprecated; removed in the next version. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * The HMAC key of a secret: a Standard Webhooks `whsec_<base64>` secret is its decoded bytes (as
 * their libraries expect); any other secret is its UTF-8 bytes.
 */
function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** `webhook-signature` of Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signStandard(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret))
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(
  hook: Pick<WebhookOptions, 'backoffMs' | 'maxBackoffMs'>,
  attempt: number,
  random: () => number = Math.random,
): number {
  return http.computeBackoff(
    { initialMs: hook.backoffMs, maxMs: hook.maxBackoffMs },
    attempt,
    random,
  );
}

interface Delivery {
  hook: Hook;
  /** A per-client webhook: sent through the guarded transport. */
  guarded: boolean;
  id: string;
  event: string;
  client: string;
  body: string;
  signature: string;
  /** Called once the delivery is over (delivered, failed for good, or the dispatcher closed). */
  settle: () => void;
}

export class WebhookDispatcher {
  readonly #hooks: WebhookOptions[];
  readonly #metrics: RestMetrics | undefined;
  readonly #log: Logger;
  readonly #clientHooks: ClientHookSource | undefined;
  readonly #pending = new Map<Hook, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  /** Deliveries not over yet (settled by close()). */
  readonly #open = new Set<Delivery>();
  #closed = false;
  readonly #report: (error: WakitError, where: { event: string; client: string }) => void;

  constructor(options: {
    hooks: WebhookOptions[];
    clientHooks?: ClientHookSource;
    metrics?: RestMetrics;
    log: Logger;
    /** A delivery failed for good or was dropped (the error sink, source `webhook`). */
    report?: (error: WakitError, where: { event: string; client: string }) => void;
  }) {
    this.#report =
      options.report ?? ((error) => options.log.warn({ err: error }, '%s', error.message));
    this.#hooks = options.hooks;
    this.#clientHooks = options.clientHooks;
    this.#metrics = options.metrics;
    this.#log = options.log;
  }

  /** Deliveries scheduled or in flight, all webhooks together. */
  get pending(): number {
    let n = 0;
    for (const count of this.#pending.values()) n += count;
    return n;
  }

  /** Schedules the deliveries of one event; returns at once. */
  handle(event: HubEvent): void {
    void this.deliver(event);
  }

  /**
   * Schedules the deliveries of one event; resolves once each is over (delivered, failed after
   * `maxAttempts`, dropped, or the dispatcher closed). `deliveryId` (a fleet: the stream id) is the
   * delivery id of every webhook; otherwise each delivery gets a random one.
   */
  deliver(event: HubEvent, deliveryId?: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const runs: Promise<void>[] = [];
    for (const hook of this.#hooks) {
      if (hook.clients && !hook.clients.includes(event.client)) continue;
      runs.push(this.#schedule(hook, event, false, deliveryId));
    }
    for (const hook of this.#clientHooks?.of(event.client) ?? []) {
      runs.push(this.#schedule(hook, event, true, deliveryId));
    }
    return Promise.all(runs).then(() => undefined);
  }

  #schedule(hook: Hook, event: HubEvent, guarded: boolean, deliveryId?: string): Promise<void> {
    if (hook.events && !hook.events.includes(event.event)) return Promise.resolve();
    const pending = this.#pending.get(hook) ?? 0;
    if (pending >= hook.maxPending) {
      this.#metrics?.webhook('dropped');
      const details = {
        webhook: http.redact(hook.url),
        event: event.event,
        maxPending: hook.maxPending,
      };
      this.#report(new WakitError('INTERNAL', 'webhook backlog full: event dropped', { details }), {
        event: event.event,
        client: event.client,
      });
      return Promise.resolve();
    }
    this.#pending.set(hook, pending + 1);
    const id = deliveryId ?? randomUUID();
    const body = JSON.stringify({
      id,
      event: event.event,
      client: event.client,
      at: event.at,
      data: event.data,
    });
    return new Promise<void>((resolve) => {
      const delivery: Delivery = {
        hook,
        guarded,
        id,
        event: event.event,
        client: event.client,
        body,
        signature: signBody(hook.secret, body),
        settle: () => {
          this.#open.delete(delivery);
          resolve();
        },
      };
      this.#open.add(delivery);
      this.#attempt(delivery, 1);
    });
  }

  /** Cancels retries and in-flight attempts; resolves when every attempt has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#abort.abort();
    await Promise.allSettled([...this.#inFlight]);
    this.#pending.clear();
    for (const delivery of [...this.#open]) delivery.settle();
  }

  #attempt(delivery: Delivery, attempt: number): void {
    if (this.#closed) return;
    const run = this.#post(delivery, attempt).then((ok) => {
      if (ok) {
        this.#metrics?.webhook('delivered');
        this.#done(delivery);
      } else if (attempt < delivery.hook.maxAttempts && !this.#closed) {
        this.#metrics?.webhook('retried');
        const timer = setTimeout(
          () => {
            this.#timers.delete(timer);
            this.#attempt(delivery, attempt + 1);
          },
          backoffDelay(delivery.hook, attempt),
        );
        timer.unref();
        this.#timers.add(timer);
      } else {
        this.#metrics?.webhook('failed');
        this.#done(delivery);
        if (!this.#closed) {
          const details = {
            webhook: http.redact(delivery.hook.url),
            event: delivery.event,
            delivery: delivery.id,
            attempts: attempt,
          };
          this.#report(
            new WakitError('INTERNAL', `webhook delivery failed after ${attempt} attempts`, {
              details,
            }),
            { event: delivery.event, client: delivery.client },
          );
        }
      }
    });
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  #done(delivery: Delivery): void {
    delivery.settle();
    const hook = delivery.hook;
    const left = (this.#pending.get(hook) ?? 1) - 1;
    // a replaced per-client hook is forgotten once its last delivery settled
    if (left > 0) this.#pending.set(hook, left);
    else this.#pending.delete(hook);
  }

  async #post(delivery: Delivery, attempt: number): Promise<boolean> {
    const { hook } = delivery;
    // each attempt is signed at its own time (the id stays: receivers deduplicate on it)
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'wakit-webhooks',
      'x-wakit-event': delivery.event,
      'x-wakit-delivery': delivery.id,
      'x-wakit-attempt': String(attempt),
      'x-wakit-signature': delivery.signature,
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signStandard(hook.secret, delivery.id, timestamp, delivery.body),
    };
    const signal = AbortSignal.any([AbortSignal.timeout(hook.timeoutMs), this.#abort.signal]);
    try {
      let status: number;
      if (delivery.guarded) {
        status = await guardedPost(hook.url, {
          headers,
          body: delivery.body,
          signal,
          allowPrivateNetworks: this.#clientHooks?.allowPrivateNetworks ?? false,
        });
      } else {
        const response = await fetch(hook.url, {
          method: 'POST',
          redirect: 'manual',
          headers,
          body: delivery.body,
          signal,
        });
        // not reported: the body is not read; only the status counts
        await response.body?.cancel().catch(() => undefined);
        status = response.status;
      }
      if (status >= 200 && status < 300) return true;
      this.#log.debug(
        { webhook: http.redact(hook.url), status, attempt },
        'webhook answered %d',
        status,
      );
      return false;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.#log.debug(
        {
          webhook: http.redact(hook.url),
          attempt,
          reason: code === 'EPRIVATE' ? code : error instanceof Error ? error.name : 'error',
        },
        'webhook attempt failed',
      );
      return false;
    }
  }
}
