/**
 * The core event bus: every client's events (existing and future clients), for SSE, webhooks,
 * metrics and any plugin. Two ways to listen:
 * - `observe(type, fn)`: each emission as it happens, with the client and its live arguments
 *   (`ctx.events.observe` of plugins reads from here);
 * - `subscribe(fn, types?)`: plain, serialisable records with an id (`BusEvent`), kept for replay.
 *   It also remembers the QR code each client currently shows.
 *
 * Records, one server: the id is a sequence number increasing by one per event, starting above
 * every id an earlier process gave (from the start time: ids are never reused across restarts),
 * and the last events are kept in a bounded ring buffer for SSE `Last-Event-ID` resume. A fleet
 * (`start({ fleet })`): the events of the clients this node runs are published to the fleet's
 * stream instead, and subscribers are fed from that stream, so every node sees every client's
 * events in one order; the id is the stream id (`<ms>-<n>`) and resume reads the stream (see
 * docs/scaling.md, "One event stream").
 *
 * Nothing is listened to until somebody observes, subscribes or starts the bus.
 */
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { FleetEvent, FleetEventStream } from '../cluster/cluster-view.js';
import {
  busEventOf,
  nowIso,
  type BusClient,
  type BusEvent,
  type BusListener,
  type BusStartOptions,
  type EventBusDeps,
  type LiveEvent,
} from './bus-types.js';
import { Listeners } from '../kernel/listeners.js';
import { EVENT_TABLE, plain, type ExposedEventName, type TableEventName } from './event-types.js';

/** Every client event has its row in EVENT_TABLE, and nothing else has one (checked by tsc). */
const tableCoversClientEvents: [TableEventName] extends [ClientEventName]
  ? [ClientEventName] extends [TableEventName]
    ? true
    : never
  : never = true;
void tableCoversClientEvents;

const SEQUENCE_ID = /^\d{1,15}$/;
const DEFAULT_BUFFER = 1_000;

type Handler = (...args: unknown[]) => void;

export type { BusClient, BusEvent, BusListener, BusStartOptions, EventBusDeps, LiveEvent };
export { busEventOf };

export class EventBus<C extends BusClient = BusClient> {
  readonly #deps: EventBusDeps<C>;
  #buffer: (BusEvent | undefined)[] = [];
  #seq: number;
  /** Id of this process's first event: the start time in 1/100 ms, above any earlier process's ids. */
  readonly #first: number;
  /** The fleet's stream (cluster mode), else undefined. */
  #fleet: FleetEventStream | undefined;
  #lastFleetId = '0';
  #onPublishError: (error: unknown) => void = () => undefined;
  readonly #listeners: Listeners<[event: BusEvent]>;
  readonly #observers = new Map<
    ClientEventName,
    Listeners<[event: LiveEvent<ClientEventName, C>]>
  >();
  readonly #qr = new Map<string, string>();
  readonly #detach: (() => void)[] = [];
  readonly #clients: C[] = [];
  /** Per client, the handler attached for each event type. */
  readonly #taps = new Map<C, Map<ClientEventName, Handler>>();
  #watching = false;
  #started = false;
  /** Subscribers that want `message.status` (many per send): followed only while there are some. */
  #statusWanted = 0;
  readonly #statusListeners = new Map<C, (send: unknown) => void>();

  constructor(deps: EventBusDeps<C>) {
    this.#deps = deps;
    this.#first = Date.now() * 100 + 1;
    this.#seq = this.#first - 1;
    this.#listeners = new Listeners((error, event) =>
      deps.report(error, { event: `events:${event.event}`, client: event.client }),
    );
  }

  /**
   * Starts keeping records (idempotent): attaches to every client, and to the fleet's stream when
   * one is given. `subscribe` starts the bus with the defaults.
   */
  start(options: BusStartOptions = {}): void {
    if (this.#started) {
      this.#grow(options.bufferSize ?? 0);
      return;
    }
    this.#started = true;
    this.#fleet = this.#deps.fleet ?? options.fleet;
    if (options.onPublishError) this.#onPublishError = options.onPublishError;
    this.#buffer = new Array<BusEvent | undefined>(
      this.#fleet ? 0 : (options.bufferSize ?? DEFAULT_BUFFER),
    );
    if (this.#fleet) this.#detach.push(this.#fleet.subscribe((event) => this.#receive(event)));
    this.#watch();
    for (const client of this.#clients) this.#tapAll(client);
  }

  /** One server: keeps at least `size` records from now on (those kept already stay). */
  #grow(size: number): void {
    const old = this.#buffer;
    if (this.#fleet || size <= old.length) return;
    this.#buffer = new Array<BusEvent | undefined>(size);
    for (let s = Math.max(this.#first, this.#seq - old.length + 1); s <= this.#seq; s++) {
      this.#buffer[s % size] = old[s % old.length];
    }
  }

  /** Whether records come from the fleet's stream (ids are stream ids). */
  get fleet(): boolean {
    return this.#fleet !== undefined;
  }

  /** The QR code the client currently shows, if it is waiting for a scan. */
  qr(client: string): string | undefined {
    return this.#qr.get(client);
  }

  /** One server: the sequence number of the last event (the one before the first before any). */
  get lastSeq(): number {
    return this.#seq;
  }

  /** Id of the last event seen. */
  get lastId(): string {
    return this.#fleet ? this.#lastFleetId : String(this.#seq);
  }

  /** Whether `id` can be an event id of this bus (for `Last-Event-ID` and `?since=`). */
  isId(id: string): boolean {
    return this.#fleet ? this.#fleet.isId(id) : SEQUENCE_ID.test(id);
  }

  /** Negative, zero or positive as event id `a` comes before, equals or comes after `b`. */
  compare(a: string, b: string): number {
    return this.#fleet ? this.#fleet.compareIds(a, b) : Number(a) - Number(b);
  }

  /**
   * Observes one event type as it happens, on every client (or those named); returns the remover.
   * A throw or rejection of `observer` goes to the error sink; the others still run.
   */
  observe<E extends ClientEventName>(
    type: E,
    observer: (event: LiveEvent<E, C>) => unknown,
    clients?: readonly string[],
  ): () => void {
    let list = this.#observers.get(type);
    if (!list) {
      list = new Listeners((error, event) =>
        this.#deps.report(error, { event: type, client: event.client.name }),
      );
      this.#observers.set(type, list);
    }
    const only = clients ? new Set(clients) : undefined;
    const remove = list.add((event) =>
      only && !only.has(event.client.name) ? undefined : observer(event as LiveEvent<E, C>),
    );
    this.#watch();
    this.#sync(type);
    return () => {
      remove();
      this.#sync(type);
    };
  }

  /** Hands one emission to the observers of its type (what a client emitting it does). */
  notify<E extends ClientEventName>(client: C, type: E, args: ClientEvents[E]): void {
    this.#observers.get(type)?.emit({ type, client, args });
  }

  /**
   * Adds a record subscriber; `types` are the event types it wants (all when absent).
   * `message.status` (several per send) is collected only while some subscriber wants it.
   */
  subscribe(listener: BusListener, types?: ReadonlySet<string>): () => void {
    this.start();
    const remove = this.#listeners.add(listener);
    // in a fleet the owner cannot know what other nodes want: message.status is always published
    const wantsStatus = !this.#fleet && (!types || types.has('message.status'));
    if (wantsStatus && ++this.#statusWanted === 1) {
      for (const client of this.#clients) this.#followStatus(client);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      remove();
      if (wantsStatus && --this.#statusWanted === 0) {
        for (const [client, handler] of this.#statusListeners)
          client.off('message.status', handler);
        this.#statusListeners.clear();
      }
    };
  }

  #followStatus(client: C): void {
    if (this.#statusListeners.has(client)) return;
    const handler = (send: unknown): void => {
      this.publish(client.name, 'message.status', plain(send));
    };
    this.#statusListeners.set(client, handler);
    client.on('message.status', handler);
  }

  /**
   * Whether every event after `after` can still be replayed: one server, false for an id of an
   * earlier process (before a restart), one older than the buffer holds, or one not given yet;
   * `0` asks for whatever is buffered. A fleet's stream is judged by the stream.
   */
  replayable(after: string): boolean {
    if (this.#fleet) return true;
    const seq = Number(after);
    if (seq === 0) return true;
    const oldest = Math.max(this.#first, this.#seq - this.#buffer.length + 1);
    return seq >= oldest - 1 && seq <= this.#seq;
  }

  /**
   * Events after id `after`, oldest first, at most `limit`: one server, as many as the buffer still
   * holds; a fleet, as many as the stream still holds (STORAGE_UNAVAILABLE while Redis is away).
   */
  async since(after: string, limit = Number.MAX_SAFE_INTEGER): Promise<BusEvent[]> {
    if (this.#fleet) return (await this.#fleet.since(after, limit)).map(busEventOf);
    const seq = Number(after);
    const size = this.#buffer.length;
    const from = Math.max(seq + 1, this.#seq - size + 1, this.#first);
    const out: BusEvent[] = [];
    for (let s = from; s <= this.#seq && out.length < limit; s++) {
      const event = this.#buffer[s % size];
      if (event && event.id === String(s)) out.push(event);
    }
    return out;
  }

  /** Stops listening to clients and the fleet (at `sdk.stop()`); nothing new reaches anybody. */
  close(): void {
    for (const detach of this.#detach.splice(0)) detach();
    for (const [client, handler] of this.#statusListeners) client.off('message.status', handler);
    this.#statusListeners.clear();
    for (const [client, taps] of this.#taps) {
      for (const [type, handler] of taps) client.off(type, handler);
    }
    this.#taps.clear();
  }

  /**
   * An event of a client of this process: one server, buffered and fanned out at once; a fleet,
   * published to the stream (subscribers get it from there, like every node).
   */
  publish(client: string, event: ExposedEventName, data: unknown): void {
    if (this.#fleet) {
      this.#fleet.publish(client, event, data).catch(this.#onPublishError);
      return;
    }
    const seq = ++this.#seq;
    const record: BusEvent = { id: String(seq), event, client, at: nowIso(), data };
    this.#buffer[seq % this.#buffer.length] = record;
    this.#listeners.emit(record);
  }

  /** An event of the fleet's stream. */
  #receive(event: FleetEvent): void {
    this.#seq += 1;
    this.#lastFleetId = event.id;
    const record = busEventOf(event);
    if (record.event === 'qr') {
      const qr = (record.data as { qr?: unknown } | null)?.qr;
      if (typeof qr === 'string') this.#qr.set(record.client, qr);
    } else if (record.event === 'state') {
      if ((record.data as { to?: unknown } | null)?.to !== 'SCAN_QR')
        this.#qr.delete(record.client);
    }
    this.#listeners.emit(record);
  }

  /** Follows the clients (once), from the first observer or `start`. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    this.#detach.push(this.#deps.onClient((client) => this.#attach(client)));
  }

  #attach(client: C): void {
    this.#clients.push(client);
    this.#taps.set(client, new Map());
    if (this.#started && (this.#fleet || this.#statusWanted > 0)) this.#followStatus(client);
    this.#tapAll(client);
  }

  /** Whether a handler for `type` must be on the clients: records are kept, or somebody observes. */
  #needs(type: ClientEventName): boolean {
    const row = EVENT_TABLE[type];
    const records = this.#started && row.exposed && !('onDemand' in row);
    return records || (this.#observers.get(type)?.size ?? 0) > 0;
  }

  #tapAll(client: C): void {
    for (const type of Object.keys(EVENT_TABLE) as ClientEventName[]) {
      if (this.#needs(type)) this.#tap(client, type);
    }
  }

  /** Attaches or detaches the handlers of `type` on every client, as `#needs` says. */
  #sync(type: ClientEventName): void {
    const needed = this.#needs(type);
    for (const [client, taps] of this.#taps) {
      const handler = taps.get(type);
      if (needed && !handler) this.#tap(client, type);
      else if (!needed && handler) {
        client.off(type, handler);
        taps.delete(type);
      }
    }
  }

  #tap(client: C, type: ClientEventName): void {
    const taps = this.#taps.get(client);
    if (!taps || taps.has(type)) return;
    const name = client.name;
    const row = EVENT_TABLE[type];
    const keep = row.exposed && !('onDemand' in row);
    const handler: Handler = (...args) => {
      this.#observers
        .get(type)
        ?.emit({ type, client, args } as unknown as LiveEvent<ClientEventName, C>);
      if (!keep || !this.#started) return;
      if (type === 'qr') this.#qr.set(name, args[0] as string);
      else if (type === 'state' && (args[0] as { to: string }).to !== 'SCAN_QR') {
        this.#qr.delete(name);
      }
      this.publish(name, type as ExposedEventName, (row.data as Handler)(...args));
    };
    taps.set(type, handler);
    client.on(type, handler);
  }
}
