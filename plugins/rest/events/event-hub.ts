import type { RestHost } from '../rest-host.js';
import type { RestFleet } from '../fleet-view.js';
import type * as http from '../../../src/entries/http.js';

type Bus = RestHost['events']['bus'];

/** One record of the bus: what SSE frames and webhooks deliver. */
export type HubEvent = Parameters<Parameters<Bus['subscribe']>[0]>[0];

export type HubListener = (event: HubEvent) => void;

/** A fleet stream entry as a hub event. */
export function hubEventOf(event: http.FleetEvent): HubEvent {
  return {
    id: event.id,
    event: event.event as HubEvent['event'],
    client: event.client,
    at: event.at,
    data: event.data,
  };
}

export class EventHub {
  readonly #bus: Bus;
  readonly #subscriptions = new Set<() => void>();

  constructor(
    sdk: RestHost,
    options: {
      /** The fleet (its event stream); one server: none. */
      fleet?: RestFleet;
      bufferSize: number;
      /** A publish to the fleet's stream failed (Redis away): the event is lost. */
      onPublishError?: (error: unknown) => void;
    },
  ) {
    this.#bus = sdk.events.bus;
    sdk.eventBus.start({
      bufferSize: options.bufferSize,
      ...(options.fleet?.view ? { fleet: options.fleet.view.events } : {}),
      ...(options.onPublishError ? { onPublishError: options.onPublishError } : {}),
    });
  }

  /** Whether events come from the fleet's stream (ids are stream ids). */
  get fleet(): boolean {
    return this.#bus.fleet;
  }

  /** The QR code the client currently shows, if it is waiting for a scan. */
  qr(client: string): string | undefined {
    return this.#bus.qr(client);
  }

  /** One server: the sequence number of the last event (the one before the first before any). */
  get lastSeq(): number {
    return this.#bus.lastSeq;
  }

  /** Id of the last event seen. */
  get lastId(): string {
    return this.#bus.lastId;
  }

  /** Whether `id` can be an event id (for `Last-Event-ID` and `?since=`). */
  isId(id: string): boolean {
    return this.#bus.isId(id);
  }

  /** Negative, zero or positive as event id `a` comes before, equals or comes after `b`. */
  compare(a: string, b: string): number {
    return this.#bus.compare(a, b);
  }

  /** Whether every event after `after` can still be replayed (see the bus). */
  replayable(after: string): boolean {
    return this.#bus.replayable(after);
  }

  /** Events after id `after`, oldest first, at most `limit` (see the bus). */
  since(after: string, limit?: number): Promise<HubEvent[]> {
    return this.#bus.since(after, limit);
  }

  /** Adds a subscriber for `types` (all when absent); ended at the latest by `close()`. */
  subscribe(listener: HubListener, types?: ReadonlySet<string>): () => void {
    const unsubscribe = this.#bus.subscribe(listener, types);
    const done = (): void => {
      this.#subscriptions.delete(done);
      unsubscribe();
    };
    this.#subscriptions.add(done);
    return done;
  }

  /** Ends every subscription of the server (the bus goes on for the SDK's other readers). */
  close(): void {
    for (const done of [...this.#subscriptions]) done();
  }
}
