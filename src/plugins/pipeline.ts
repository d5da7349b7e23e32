import { WakitError } from '../errors/index.js';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { Message } from '../client/message.js';
import type { EventHandler, PluginEvent } from './types.js';

/** One registered handler. */
interface Entry {
  plugin: string;
  handler: EventHandler<never>;
  clients: ReadonlySet<string> | undefined;
}

/** Where a handler failure goes (the host logs and reports it). */
export type HandlerFailure = (failure: {
  plugin: string;
  event: string;
  client: string;
  messageId: string | undefined;
  error: unknown;
}) => void;

function isMessageEvent(name: ClientEventName): boolean {
  return name === 'message' || name === 'message.create';
}

/**
 * The event pipeline: per client event, an ordered middleware chain of plugin handlers. One
 * listener per (client, event) is attached, and only for events somebody handles.
 */
export class EventPipeline {
  readonly #chains = new Map<ClientEventName, Entry[]>();
  readonly #clients = new Set<BotClient>();
  readonly #attached = new WeakMap<BotClient, Map<ClientEventName, (...args: unknown[]) => void>>();

  constructor(private readonly onFailure: HandlerFailure) {}

  /** Adds a handler at the end of the event's chain; returns its remover. */
  add<E extends ClientEventName>(
    plugin: string,
    event: E,
    handler: EventHandler<E>,
    clients?: readonly string[],
  ): () => void {
    const entry: Entry = {
      plugin,
      handler: handler,
      clients: clients ? new Set(clients) : undefined,
    };
    // copy on write: a running chain keeps its snapshot
    this.#chains.set(event, [...(this.#chains.get(event) ?? []), entry]);
    for (const client of this.#clients) this.#attach(client, event);
    return () => {
      const list = this.#chains.get(event) ?? [];
      this.#chains.set(
        event,
        list.filter((e) => e !== entry),
      );
    };
  }

  /** Starts feeding this client's events into the chains. */
  attachClient(client: BotClient): void {
    if (this.#clients.has(client)) return;
    this.#clients.add(client);
    for (const event of this.#chains.keys()) this.#attach(client, event);
  }

  /** Stops listening to every client. */
  detachAll(): void {
    for (const client of this.#clients) {
      const listeners = this.#attached.get(client);
      if (!listeners) continue;
      for (const [event, listener] of listeners) client.off(event, listener);
      this.#attached.delete(client);
    }
    this.#clients.clear();
  }

  #attach(client: BotClient, event: ClientEventName): void {
    let listeners = this.#attached.get(client);
    if (!listeners) {
      listeners = new Map();
      this.#attached.set(client, listeners);
    }
    if (listeners.has(event)) return;
    const listener = (...args: unknown[]): void => {
      void this.dispatch(client, event, args as ClientEvents[typeof event]);
    };
    listeners.set(event, listener);
    client.on(event, listener);
  }

  /**
   * Runs the chain of `event` for one emission. Never rejects. Handlers that answer synchronously
   * (the common "not for me: return next()" case) cost no promise of their own.
   */
  dispatch<E extends ClientEventName>(
    client: BotClient,
    name: E,
    args: ClientEvents[E],
  ): Promise<void> {
    const chain = this.#chains.get(name);
    if (!chain || chain.length === 0) return RESOLVED;
    const data = args[0];
    const message = isMessageEvent(name);
    const event = (message
      ? { name, client, args, data, state: {}, message: data }
      : { name, client, args, data, state: {} }) as unknown as PluginEvent<E>;
    const clientName = client.name;
    const fail = (entry: Entry, error: unknown): void => {
      const messageId = message ? (data as Message).id : undefined;
      this.onFailure({ plugin: entry.plugin, event: name, client: clientName, messageId, error });
    };
    const step = (index: number): Promise<void> => {
      let i = index;
      let entry = chain[i];
      while (entry?.clients && !entry.clients.has(clientName)) entry = chain[++i];
      if (!entry) return RESOLVED;
      const current = entry;
      const nextIndex = i + 1;
      let called = false;
      const next = (): Promise<void> => {
        if (called) {
          throw new WakitError(
            'INVALID_STATE',
            `Plugin ${current.plugin}: next() was called twice for one ${name} event`,
            { details: { plugin: current.plugin, event: name } },
          );
        }
        called = true;
        return step(nextIndex);
      };
      // After a failure the chain goes on, unless the handler already passed the event on.
      const afterFailure = (error: unknown): Promise<void> => {
        fail(current, error);
        return called ? RESOLVED : next();
      };
      let result: unknown;
      try {
        result = (current.handler as EventHandler<E>)(event, next);
      } catch (error) {
        return afterFailure(error);
      }
      if (result === RESOLVED || !isThenable(result)) return RESOLVED;
      return Promise.resolve(result).then(() => undefined, afterFailure);
    };
    return step(0);
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
