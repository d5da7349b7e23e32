/**
 * Webhooks: every matching client event is POSTed as JSON `{ id, event, client, at, data }` with
 * `X-Wakit-Signature: sha256=<hex HMAC-SHA256 of the raw body>` and `X-Wakit-Event`. Non-2xx
 * answers, network errors and timeouts are retried with exponential backoff up to `maxAttempts`.
 * Delivery runs in the background: `handle()` only schedules, so a slow receiver never blocks a
 * client; beyond `maxPending` deliveries per webhook new events are dropped (logged and counted).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { computeBackoff, redact } from '../../src/index.js';
import type { HubEvent } from './event-hub.js';
import type { RestMetrics } from './metrics.js';
import type { WebhookOptions } from './options.js';

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(
  hook: Pick<WebhookOptions, 'backoffMs' | 'maxBackoffMs'>,
  attempt: number,
  random: () => number = Math.random,
): number {
  return computeBackoff({ initialMs: hook.backoffMs, maxMs: hook.maxBackoffMs }, attempt, random);
}

interface Delivery {
  hook: WebhookOptions;
  id: string;
  event: string;
  body: string;
  signature: string;
}

export class WebhookDispatcher {
  readonly #hooks: WebhookOptions[];
  readonly #metrics: RestMetrics | undefined;
  readonly #log: Logger;
  readonly #pending = new Map<WebhookOptions, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #closed = false;

  constructor(options: { hooks: WebhookOptions[]; metrics?: RestMetrics; log: Logger }) {
    this.#hooks = options.hooks;
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
    if (this.#closed) return;
    for (const hook of this.#hooks) {
      if (hook.events && !hook.events.includes(event.event)) continue;
      if (hook.clients && !hook.clients.includes(event.client)) continue;
      const pending = this.#pending.get(hook) ?? 0;
      if (pending >= hook.maxPending) {
        this.#metrics?.webhook('dropped');
        this.#log.warn(
          { webhook: redact(hook.url), event: event.event },
          'webhook backlog full: event dropped',
        );
        continue;
      }
      this.#pending.set(hook, pending + 1);
      const id = randomUUID();
      const body = JSON.stringify({
        id,
        event: event.event,
        client: event.client,
        at: event.at,
        data: event.data,
      });
      this.#attempt(
        { hook, id, event: event.event, body, signature: signBody(hook.secret, body) },
        1,
      );
    }
  }

  /** Cancels retries and in-flight attempts; resolves when every attempt has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#abort.abort();
    await Promise.allSettled([...this.#inFlight]);
    this.#pending.clear();
  }

  #attempt(delivery: Delivery, attempt: number): void {
    if (this.#closed) return;
    const run = this.#post(delivery, attempt).then((ok) => {
      if (ok) {
        this.#metrics?.webhook('delivered');
        this.#done(delivery.hook);
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
        this.#done(delivery.hook);
        if (!this.#closed) {
          this.#log.warn(
            {
              webhook: redact(delivery.hook.url),
              event: delivery.event,
              delivery: delivery.id,
              attempts: attempt,
            },
            'webhook delivery failed after %d attempts',
            attempt,
          );
        }
      }
    });
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  #done(hook: WebhookOptions): void {
    this.#pending.set(hook, Math.max(0, (this.#pending.get(hook) ?? 1) - 1));
  }

  async #post(delivery: Delivery, attempt: number): Promise<boolean> {
    const { hook } = delivery;
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'wakit-webhooks',
          'x-wakit-event': delivery.event,
          'x-wakit-delivery': delivery.id,
          'x-wakit-attempt': String(attempt),
          'x-wakit-signature': delivery.signature,
        },
        body: delivery.body,
        signal: AbortSignal.any([AbortSignal.timeout(hook.timeoutMs), this.#abort.signal]),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return true;
      this.#log.debug(
        { webhook: redact(hook.url), status: response.status, attempt },
        'webhook answered %d',
        response.status,
      );
      return false;
    } catch (error) {
      this.#log.debug(
        {
          webhook: redact(hook.url),
          attempt,
          reason: error instanceof Error ? error.name : 'error',
        },
        'webhook attempt failed',
      );
      return false;
    }
  }
}
