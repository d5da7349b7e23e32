/**
 * Collects the events of every client of the SDK (existing and future) as plain, serialisable
 * records with an id, and fans them out to subscribers (SSE streams, webhooks, metrics). It also
 * remembers the QR code each client currently shows.
 *
 * One server: the id is a sequence number increasing by one per event, starting above every id an
 * earlier process gave (from the start time: ids are never reused across restarts), and the last
 * events are kept in a bounded ring buffer for SSE `Last-Event-ID` resume. A fleet (`host.cluster`): the events of the
 * clients this node runs are published to the fleet's stream instead, and subscribers are fed from
 * that stream, so every node sees every client's events in one order; the id is the stream id
 * (`<ms>-<n>`) and resume reads the stream (see docs/scaling.md, "One event stream").
 */
import {
  compareStreamIds,
  isStreamId,
  type BotClient,
  type ClientEventName,
  type FleetEvent,
  type FleetEventStream,
} from '../../src/index.js';
import type { RestHost } from './context.js';
import type { EventType } from './options.js';

export interface HubEvent {
  /**
   * The SSE `id:`: one server, the sequence number in decimal (increasing by one per event); a
   * fleet, the stream id (`<ms>-<n>`, increasing across the fleet).
   */
  id: string;
  event: EventType;
  client: string;
  at: string;
  data: unknown;
}

export type HubListener = (event: HubEvent) => void;

/** A fleet stream entry as a hub event. */
export function hubEventOf(event: FleetEvent): HubEvent {
  return {
    id: event.id,
    event: event.event as EventType,
    client: event.client,
    at: event.at,
    data: event.data,
  };
}

const SEQUENCE_ID = /^\d{1,15}$/;

function plain(value: unknown): unknown {
  return value && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : value;
}

/** Now as an ISO string, formatted once per millisecond (several events share one under load). */
let lastMs = NaN;
let lastIso = '';
function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

export class EventHub {
  readonly #buffer: (HubEvent | undefined)[];
  #seq: number;
  /** Id of this process's first event: the start time in 1/100 ms, above any earlier process's ids. */
  readonly #first: number;
  /** The fleet's stream (cluster mode), else undefined. */
  readonly #fleet: FleetEventStream | undefined;
  #lastFleetId = '0';
  readonly #onPublishError: (error: unknown) => void;
  readonly #listeners = new Set<HubListener>();
  readonly #qr = new Map<string, string>();
  readonly #detach: (() => void)[] = [];
  readonly #onListenerError: (error: unknown) => void;
  readonly #clients: BotClient[] = [];
  /** Subscribers that want `message.status` (many per send): followed only while there are some. */
  #statusWanted = 0;
  readonly #statusListeners = new Map<BotClient, (send: unknown) => void>();

  constructor(
    sdk: RestHost,
    options: {
      bufferSize: number;
      onListenerError?: (error: unknown) => void;
      /** A publish to the fleet's stream failed (Redis away): the event is lost. */
      onPublishError?: (error: unknown) => void;
    },
  ) {
    this.#first = Date.now() * 100 + 1;
    this.#seq = this.#first - 1;
    this.#fleet = sdk.cluster?.events;
    this.#buffer = new Array<HubEvent | undefined>(this.#fleet ? 0 : options.bufferSize);
    this.#onListenerError = options.onListenerError ?? (() => undefined);
    this.#onPublishError = options.onPublishError ?? (() => undefined);
    if (this.#fleet) this.#detach.push(this.#fleet.subscribe((event) => this.#receive(event)));
    this.#detach.push(sdk.onClient((client) => this.#attach(client)));
  }

  /** Whether events come from the fleet's stream (ids are stream ids). */
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

  /** Whether `id` can be an event id of this hub (for `Last-Event-ID` and `?since=`). */
  isId(id: string): boolean {
    return this.#fleet ? isStreamId(id) : SEQUENCE_ID.test(id);
  }

  /** Negative, zero or positive as event id `a` comes before, equals or comes after `b`. */
  compare(a: string, b: string): number {
    return this.#fleet ? compareStreamIds(a, b) : Number(a) - Number(b);
  }

  /**
   * Adds a subscriber; `types` are the event types it wants (all when absent). `message.status`
   * (several per send) is collected only while some subscriber wants it.
   */
  subscribe(listener: HubListener, types?: ReadonlySet<string>): () => void {
    this.#listeners.add(listener);
    // in a fleet the owner cannot know what other nodes want: message.status is always published
    const wantsStatus = !this.#fleet && (!types || types.has('message.status'));
    if (wantsStatus && ++this.#statusWanted === 1) {
      for (const client of this.#clients) this.#followStatus(client);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#listeners.delete(listener);
      if (wantsStatus && --this.#statusWanted === 0) {
        for (const [client, handler] of this.#statusListeners)
          client.off('message.status', handler);
        this.#statusListeners.clear();
      }
    };
  }

  #followStatus(client: BotClient): void {
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
  async since(after: string, limit = Number.MAX_SAFE_INTEGER): Promise<HubEvent[]> {
    if (this.#fleet) return (await this.#fleet.since(after, limit)).map(hubEventOf);
    const seq = Number(after);
    const size = this.#buffer.length;
    const from = Math.max(seq + 1, this.#seq - size + 1, this.#first);
    const out: HubEvent[] = [];
    for (let s = from; s <= this.#seq && out.length < limit; s++) {
      const event = this.#buffer[s % size];
      if (event && event.id === String(s)) out.push(event);
    }
    return out;
  }

  /** Stops listening to clients (subscribers are kept; nothing new will reach them). */
  close(): void {
    for (const detach of this.#detach.splice(0)) detach();
    for (const [client, handler] of this.#statusListeners) client.off('message.status', handler);
    this.#statusListeners.clear();
  }

  /**
   * An event of a client of this process: one server, buffered and fanned out at once; a fleet,
   * published to the stream (subscribers get it from there, like every node).
   */
  publish(client: string, event: EventType, data: unknown): void {
    if (this.#fleet) {
      this.#fleet.publish(client, event, data).catch(this.#onPublishError);
      return;
    }
    const seq = ++this.#seq;
    const record: HubEvent = { id: String(seq), event, client, at: nowIso(), data };
    this.#buffer[seq % this.#buffer.length] = record;
    this.#fanOut(record);
  }

  /** An event of the fleet's stream. */
  #receive(event: FleetEvent): void {
    this.#seq += 1;
    this.#lastFleetId = event.id;
    const record = hubEventOf(event);
    if (record.event === 'qr') {
      const qr = (record.data as { qr?: unknown } | null)?.qr;
      if (typeof qr === 'string') this.#qr.set(record.client, qr);
    } else if (record.event === 'state') {
      if ((record.data as { to?: unknown } | null)?.to !== 'SCAN_QR')
        this.#qr.delete(record.client);
    }
    this.#fanOut(record);
  }

  #fanOut(record: HubEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(record);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  #attach(client: BotClient): void {
    const name = client.name;
    this.#clients.push(client);
    if (this.#fleet || this.#statusWanted > 0) this.#followStatus(client);
    const on = (event: ClientEventName, handler: (...args: never[]) => void): void => {
      const listener = handler as never;
      client.on(event, listener);
      this.#detach.push(() => client.off(event, listener));
    };
    on('qr', (qr: string) => {
      this.#qr.set(name, qr);
      this.publish(name, 'qr', { qr });
    });
    on('authenticated', (session: unknown) => this.publish(name, 'authenticated', plain(session)));
    on('auth_failure', (error: { code: string; message: string }) =>
      this.publish(name, 'auth_failure', { code: error.code, message: error.message }),
    );
    on('ready', () => this.publish(name, 'ready', {}));
    on('disconnected', (reason: string) => this.publish(name, 'disconnected', { reason }));
    on('message', (message: unknown) => this.publish(name, 'message', plain(message)));
    on('message.create', (message: unknown) =>
      this.publish(name, 'message.create', plain(message)),
    );
    on('message.ack', (update: unknown) => this.publish(name, 'message.ack', plain(update)));
    on('group.join', (event: unknown) => this.publish(name, 'group.join', plain(event)));
    on('group.leave', (event: unknown) => this.publish(name, 'group.leave', plain(event)));
    on('group.update', (event: unknown) => this.publish(name, 'group.update', plain(event)));
    on('call', (call: unknown) => this.publish(name, 'call', plain(call)));
    on('poll.vote', (vote: unknown) => this.publish(name, 'poll.vote', plain(vote)));
    on('engine.health', (health: unknown) => this.publish(name, 'engine.health', plain(health)));
    for (const event of ['account.restricted', 'account.resumed'] as const) {
      on(event, (restriction: unknown) => this.publish(name, event, plain(restriction)));
    }
    for (const event of ['message.reaction', 'message.edit', 'message.revoke'] as const) {
      on(event, (update: unknown) => this.publish(name, event, plain(update)));
    }
    on('state', (change: { from: string; to: string; at: string }) => {
      if (change.to !== 'SCAN_QR') this.#qr.delete(name);
      this.publish(name, 'state', { ...change });
    });
  }
}
