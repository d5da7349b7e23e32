/**
 * Collects the events of every client of the SDK (existing and future) as plain, serialisable
 * records with a sequence number, keeps the last ones in a bounded ring buffer (for SSE
 * `Last-Event-ID` resume) and fans them out to subscribers (SSE streams, webhooks, metrics).
 * It also remembers the QR code each client currently shows.
 */
import type { BotClient, ClientEventName } from '../../src/index.js';
import type { RestHost } from './context.js';
import type { EventType } from './options.js';

export interface HubEvent {
  /** Sequence number, increasing by one per event; the SSE `id:`. */
  seq: number;
  event: EventType;
  client: string;
  at: string;
  data: unknown;
}

export type HubListener = (event: HubEvent) => void;

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
  #seq = 0;
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
    options: { bufferSize: number; onListenerError?: (error: unknown) => void },
  ) {
    this.#buffer = new Array<HubEvent | undefined>(options.bufferSize);
    this.#onListenerError = options.onListenerError ?? (() => undefined);
    this.#detach.push(sdk.onClient((client) => this.#attach(client)));
  }

  /** The QR code the client currently shows, if it is waiting for a scan. */
  qr(client: string): string | undefined {
    return this.#qr.get(client);
  }

  /** Sequence number of the last event (0 before any). */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * Adds a subscriber; `types` are the event types it wants (all when absent). `message.status`
   * (several per send) is collected only while some subscriber wants it.
   */
  subscribe(listener: HubListener, types?: ReadonlySet<string>): () => void {
    this.#listeners.add(listener);
    const wantsStatus = !types || types.has('message.status');
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

  /** Buffered events after `seq`, oldest first (as many as the buffer still holds). */
  since(seq: number): HubEvent[] {
    const size = this.#buffer.length;
    const from = Math.max(seq + 1, this.#seq - size + 1, 1);
    const out: HubEvent[] = [];
    for (let s = from; s <= this.#seq; s++) {
      const event = this.#buffer[s % size];
      if (event && event.seq === s) out.push(event);
    }
    return out;
  }

  /** Stops listening to clients (subscribers are kept; nothing new will reach them). */
  close(): void {
    for (const detach of this.#detach.splice(0)) detach();
    for (const [client, handler] of this.#statusListeners) client.off('message.status', handler);
    this.#statusListeners.clear();
  }

  publish(client: string, event: EventType, data: unknown): HubEvent {
    const record: HubEvent = {
      seq: ++this.#seq,
      event,
      client,
      at: nowIso(),
      data,
    };
    this.#buffer[record.seq % this.#buffer.length] = record;
    for (const listener of this.#listeners) {
      try {
        listener(record);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
    return record;
  }

  #attach(client: BotClient): void {
    const name = client.name;
    this.#clients.push(client);
    if (this.#statusWanted > 0) this.#followStatus(client);
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
    for (const event of ['message.reaction', 'message.edit', 'message.revoke'] as const) {
      on(event, (update: unknown) => this.publish(name, event, plain(update)));
    }
    on('state', (change: { from: string; to: string; at: string }) => {
      if (change.to !== 'SCAN_QR') this.#qr.delete(name);
      this.publish(name, 'state', { ...change });
    });
  }
}
