/**
 * What plugins see of the core event bus (`ctx.events.bus`): listening and replay only. Starting
 * the bus with a buffer size and the fleet's stream is the `eventBus` privileged service (the REST
 * plugin declares it); closing it and publishing are the SDK's own (docs/plugins.md).
 */
import type { BusClient, BusStartOptions } from './bus-types.js';
import type { EventBus } from './event-bus.js';

/** The read-only view: subscribe, observe, replay after an id, the QR a client shows. */
export type EventBusView<C extends BusClient = BusClient> = Pick<
  EventBus<C>,
  | 'fleet'
  | 'qr'
  | 'lastSeq'
  | 'lastId'
  | 'isId'
  | 'compare'
  | 'observe'
  | 'subscribe'
  | 'replayable'
  | 'since'
>;

/** The `eventBus` privileged service: starts keeping records (idempotent; see `EventBus.start`). */
export interface EventBusControl {
  start(options?: BusStartOptions): void;
}

/**
 * A frozen object that forwards the view's members to `bus`: the bus itself is not reachable from
 * it, so a plugin cannot cast its way to `publish`, `notify`, `start` or `close`.
 */
export function eventBusView<C extends BusClient>(bus: EventBus<C>): EventBusView<C> {
  return Object.freeze({
    get fleet() {
      return bus.fleet;
    },
    get lastSeq() {
      return bus.lastSeq;
    },
    get lastId() {
      return bus.lastId;
    },
    qr: (client: string) => bus.qr(client),
    isId: (id: string) => bus.isId(id),
    compare: (a: string, b: string) => bus.compare(a, b),
    observe: bus.observe.bind(bus),
    subscribe: bus.subscribe.bind(bus),
    replayable: (after: string) => bus.replayable(after),
    since: (after: string, limit?: number) => bus.since(after, limit),
  });
}

/** The `eventBus` privileged service over `bus`. */
export function eventBusControl(bus: Pick<EventBus, 'start'>): EventBusControl {
  return Object.freeze({ start: (options?: BusStartOptions) => bus.start(options) });
}
