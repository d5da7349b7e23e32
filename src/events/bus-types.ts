/** The shapes of the event bus: its records, its clients, what it needs. */
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { FleetEvent, FleetEventStream } from '../cluster/cluster-view.js';
import type { ExposedEventName } from './event-types.js';

export interface BusEvent {
  /**
   * The SSE `id:`: one server, the sequence number in decimal (increasing by one per event); a
   * fleet, the stream id (`<ms>-<n>`, increasing across the fleet).
   */
  id: string;
  event: ExposedEventName;
  client: string;
  at: string;
  data: unknown;
}

export type BusListener = (event: BusEvent) => void;

/**
 * What the bus needs of a client (a BotClient: the bus imports no client code, so that the kernel's
 * tokens can name it without an import cycle).
 */
export interface BusClient {
  readonly name: string;
  on<E extends ClientEventName>(event: E, listener: (...args: ClientEvents[E]) => unknown): unknown;
  off<E extends ClientEventName>(
    event: E,
    listener: (...args: ClientEvents[E]) => unknown,
  ): unknown;
}

/** One emission of a client event, as it happens. */
export interface LiveEvent<E extends ClientEventName = ClientEventName, C = BusClient> {
  type: E;
  client: C;
  args: ClientEvents[E];
}

export interface EventBusDeps<C extends BusClient = BusClient> {
  /** Calls `listener` for every client, existing and future. */
  onClient(listener: (client: C) => void): () => void;
  /** A listener or observer failed (the error sink). */
  report(error: unknown, where: { event: string; client?: string }): void;
  /** This node's fleet stream (`cluster` config): records go through it. */
  fleet?: FleetEventStream;
}

export interface BusStartOptions {
  /** Records kept for replay (one server); the largest asked for wins. Default 1000. */
  bufferSize?: number;
  /** The fleet's stream, when the SDK has none of its own (the first `start` decides). */
  fleet?: FleetEventStream;
  /** A publish to the fleet's stream failed (Redis away): the event is lost. */
  onPublishError?: (error: unknown) => void;
}

/** A fleet stream entry as a bus record. */
export function busEventOf(event: FleetEvent): BusEvent {
  return {
    id: event.id,
    event: event.event as ExposedEventName,
    client: event.client,
    at: event.at,
    data: event.data,
  };
}

/** Now as an ISO string, formatted once per millisecond (several events share one under load). */
let lastMs = NaN;
let lastIso = '';
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
