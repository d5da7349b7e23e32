/**
 * Prometheus metrics of one REST server, in its own prom-client registry (never the global one, so
 * two servers in one process do not collide).
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { registerFleetGauges } from './fleet-metrics.js';
import { registerHealthGauges } from './health-metrics.js';
import { registerGovernorGauges } from './governor-metrics.js';
import { registerChatModeMetrics } from './chat-mode-metrics.js';
import { TalliedCounter } from './tallied-counter.js';
import { TalliedHistogram } from './tallied-histogram.js';
import { PluginFamilies } from './plugin-families.js';
import { type BotClient, type TrackedSend } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import type { RestHost } from '../rest-host.js';
import type { RestFleet } from '../fleet-view.js';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export type WebhookOutcome = 'delivered' | 'retried' | 'failed' | 'dropped';

export class RestMetrics {
  readonly registry = new Registry();
  readonly #sends: TalliedCounter<'client' | 'outcome' | 'code'>;
  readonly #sendLatency: TalliedHistogram<'client'>;
  readonly #ackLatency: TalliedHistogram<'client' | 'status'>;
  readonly #events: TalliedCounter<'type'>;
  readonly #webhooks: Counter<'outcome'>;
  readonly #http: TalliedCounter<'method' | 'route' | 'status'>;
  readonly #httpDuration: TalliedHistogram<'method' | 'route'>;
  readonly #plugins: PluginFamilies;

  constructor(sdk: RestHost, fleet: RestFleet) {
    const registers = [this.registry];
    new Gauge({
      name: 'wakit_clients',
      help: 'Clients by state',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const counts = new Map<string, number>(contract.CLIENT_STATES.map((s) => [s, 0]));
        for (const client of sdk.clients.list())
          counts.set(client.state, (counts.get(client.state) ?? 0) + 1);
        for (const [state, n] of counts) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'wakit_queue_depth',
      help: 'Outbound sends per client: pending (waiting), held (ENGINE_INCOMPATIBLE) and running',
      labelNames: ['client', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const client of sdk.clients.list()) {
          const { pending, held, running } = client.info().queue;
          this.set({ client: client.name, kind: 'pending' }, pending);
          this.set({ client: client.name, kind: 'held' }, held);
          this.set({ client: client.name, kind: 'running' }, running);
        }
      },
    });
    registerFleetGauges(this.registry, sdk, fleet);
    registerHealthGauges(this.registry, sdk);
    registerGovernorGauges(this.registry, sdk);
    registerChatModeMetrics(this.registry, sdk);
    this.#plugins = new PluginFamilies(
      this.registry,
      () => sdk.metrics,
      (error) => sdk.events.report(error),
    );
    new Gauge({
      name: 'wakit_event_loop_delay_seconds',
      help: 'Event-loop delay: max, mean and p99 of the last watchdog window, worst since start',
      labelNames: ['stat'],
      registers,
      collect() {
        const stats = sdk.eventLoop.stats();
        this.set({ stat: 'max' }, stats.maxMs / 1000);
        this.set({ stat: 'mean' }, stats.meanMs / 1000);
        this.set({ stat: 'p99' }, stats.p99Ms / 1000);
        this.set({ stat: 'worst' }, stats.worstMs / 1000);
      },
    });
    const registry = this.registry;
    this.#sends = new TalliedCounter({
      name: 'wakit_sends_total',
      help: 'Finished sends by outcome (sent, failed) and error code',
      labelNames: ['client', 'outcome', 'code'],
      registry,
    });
    this.#sendLatency = new TalliedHistogram({
      name: 'wakit_send_latency_seconds',
      help: 'Time from acceptance to sent',
      buckets: LATENCY_BUCKETS,
      registry,
    });
    this.#ackLatency = new TalliedHistogram({
      name: 'wakit_ack_latency_seconds',
      help: 'Time from sent to each ack status (delivered, read, played)',
      buckets: LATENCY_BUCKETS,
      registry,
    });
    this.#events = new TalliedCounter({
      name: 'wakit_events_total',
      help: 'Client events seen by the REST server',
      labelNames: ['type'],
      registry,
    });
    this.#webhooks = new Counter({
      name: 'wakit_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, retried, failed, dropped)',
      labelNames: ['outcome'],
      registers,
    });
    this.#http = new TalliedCounter({
      name: 'wakit_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registry,
    });
    this.#httpDuration = new TalliedHistogram({
      name: 'wakit_http_request_duration_seconds',
      help: 'HTTP request duration by method and route',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registry,
    });
  }

  /** Follows the outbound queue of a client; returns a detach function. */
  watch(client: BotClient): () => void {
    const listener = (record: TrackedSend): void => this.#onUpdate(record);
    client.on('message.status', listener);
    return () => client.off('message.status', listener);
  }

  event(type: string): void {
    this.#events.inc(type, () => ({ type }));
  }

  webhook(outcome: WebhookOutcome): void {
    this.#webhooks.inc({ outcome });
  }

  http(method: string, route: string, status: number, seconds: number): void {
    this.#http.inc(`${method}\0${status}\0${route}`, () => ({
      method,
      route,
      status: String(status),
    }));
    this.#httpDuration.observe(`${method}\0${route}`, () => ({ method, route }), seconds);
  }

  async text(): Promise<string> {
    this.#plugins.sync();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Counts a send from the change itself, with no memory per send: the queue reports each change
   * once, `sent` first without an ack (later `sent` records only carry ack 0/1), then each of
   * delivered, read, played at most once (acks only move forward), and `failed` once.
   */
  #onUpdate(record: TrackedSend): void {
    const client = record.client;
    switch (record.status) {
      case 'failed': {
        const code = record.error?.code ?? 'INTERNAL';
        this.#sends.inc(`${client}\0failed\0${code}`, () => ({ client, outcome: 'failed', code }));
        return;
      }
      case 'sent':
        if (record.ack !== undefined || !record.sentAt) return;
        this.#sends.inc(`${client}\0sent`, () => ({ client, outcome: 'sent', code: '' }));
        this.#sendLatency.observe(
          client,
          () => ({ client }),
          seconds(record.createdAt, record.sentAt),
        );
        return;
      case 'delivered':
      case 'read':
      case 'played':
        if (record.sentAt) {
          const status = record.status;
          this.#ackLatency.observe(
            `${client}\0${status}`,
            () => ({ client, status }),
            seconds(record.sentAt, record.updatedAt),
          );
        }
        return;
      default:
        return;
    }
  }
}

/** Milliseconds since midnight of an ISO timestamp `YYYY-MM-DDTHH:mm:ss.sssZ` (as wakit writes them). */
function msOfDay(iso: string): number {
  return (
    (iso.charCodeAt(11) * 10 + iso.charCodeAt(12) - 528) * 3_600_000 +
    (iso.charCodeAt(14) * 10 + iso.charCodeAt(15) - 528) * 60_000 +
    (iso.charCodeAt(17) * 10 + iso.charCodeAt(18) - 528) * 1_000 +
    iso.charCodeAt(20) * 100 +
    iso.charCodeAt(21) * 10 +
    iso.charCodeAt(22) -
    5_328
  );
}

function sameUtcDay(a: string, b: string): boolean {
  if (a.length !== 24 || b.length !== 24 || a.charCodeAt(23) !== 90 || b.charCodeAt(23) !== 90) {
    return false;
  }
  for (let i = 0; i < 11; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * Seconds between two ISO timestamps. Most pairs fall on one UTC day: their difference is read off
 * the time of day (Date.parse of both was 1 % of the REST server's busy time).
 */
export function seconds(from: string, to: string): number {
  const ms = sameUtcDay(from, to) ? msOfDay(to) - msOfDay(from) : Date.parse(to) - Date.parse(from);
  return Math.max(0, ms / 1000);
}
