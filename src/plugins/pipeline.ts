import { WakitError } from '../errors/index.js';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { Message } from '../client/inbound/message.js';
import type { EventHandler, PluginEvent } from './types.js';
import { ChatLanes } from '../conversations/chat-lanes.js';
import { chatOf } from '../conversations/person-key.js';
import type { PollVote } from '../client/types.js';

/** One registered handler. */
interface Entry {
  plugin: string;
  handler: EventHandler<never>;
  clients: ReadonlySet<string> | undefined;
  /** The handler enforces its own time limit (the command middleware times each command). */
  ownTimeout: boolean;
  /** Runs for chats out of `bot` mode too (the gate lets only these through there). */
  allModes: boolean;
}

/**
 * Decides for a message or poll vote of `chatId` whether the whole chain runs (true) or only the
 * handlers that opted in with `allModes` (handoff: src/handoff/).
 */
export type ChatGate = (client: BotClient, chatId: string, message?: Message) => Promise<boolean>;

export interface PipelineOptions {
  /** A handler not settled after this long is reported (HANDLER_TIMEOUT); 0: never. */
  handlerTimeoutMs?: number;
  /** Chats whose messages are handled at the same time (each chat's in order); default 32. */
  concurrency?: number;
  /** The chat-mode gate of messages and poll votes; none: every chain runs whole. */
  gate?: ChatGate;
}

/** The chat of an event that must keep its chat's order (messages, poll votes); else undefined. */
function chatOfEvent(name: ClientEventName, args: unknown[]): string | undefined {
  if (name === 'message') return chatOf(args[0] as Message).chatId;
  if (name === 'poll.vote') {
    const vote = args[0] as PollVote;
    const isGroup = vote.chatId.endsWith('@g.us');
    return chatOf({ chatId: vote.chatId, isGroup, sender: { id: vote.voter } }).chatId;
  }
  return undefined;
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

/** What handlers and observers receive for one emission of `name`. */
export function pluginEventOf<E extends ClientEventName>(
  client: BotClient,
  name: E,
  args: ClientEvents[E],
): PluginEvent<E> {
  const data = args[0];
  return (isMessageEvent(name)
    ? { name, client, args, data, state: {}, message: data }
    : { name, client, args, data, state: {} }) as unknown as PluginEvent<E>;
}

/**
 * The event pipeline: per client event, an ordered middleware chain of plugin handlers. One
 * listener per (client, event) is attached, and only for events somebody handles.
 */
export class EventPipeline {
  readonly #chains = new Map<ClientEventName, Entry[]>();
  readonly #clients = new Set<BotClient>();
  readonly #attached = new WeakMap<BotClient, Map<ClientEventName, (...args: unknown[]) => void>>();

  readonly #timeoutMs: number;
  readonly #gate: ChatGate | undefined;
  /** Per-chat order: one message of a chat at a time, chats in parallel up to a bound. */
  readonly #lanes: ChatLanes;

  constructor(
    private readonly onFailure: HandlerFailure,
    options: PipelineOptions = {},
  ) {
    this.#timeoutMs = options.handlerTimeoutMs ?? 0;
    this.#gate = options.gate;
    this.#lanes = new ChatLanes(options.concurrency ?? 32);
  }

  /** Adds a handler at the end of the event's chain; returns its remover. */
  add<E extends ClientEventName>(
    plugin: string,
    event: E,
    handler: EventHandler<E>,
    clients?: readonly string[],
    options: { ownTimeout?: boolean; allModes?: boolean } = {},
  ): () => void {
    const entry: Entry = {
      plugin,
      handler: handler,
      clients: clients ? new Set(clients) : undefined,
      ownTimeout: options.ownTimeout ?? false,
      allModes: options.allModes ?? false,
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

  /** Runs `work` in a chat's lane (`chatId` as `chatOf` keys it), after its messages before. */
  inLane(client: BotClient, chatId: string, work: () => Promise<void>): Promise<void> {
    return this.#lanes.run(`${client.name}\n${chatId}`, work);
  }

  /** Resolves once every chat's messages in flight were handled. */
  idle(): Promise<void> {
    return this.#lanes.idle();
  }

  /** Starts feeding this client's events into the chains and observers. */
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
      const chat = chatOfEvent(event, args);
      if (chat === undefined) void this.dispatch(client, event, args as ClientEvents[typeof event]);
      else
        void this.#lanes.run(`${client.name}\n${chat}`, () =>
          this.dispatch(client, event, args as ClientEvents[typeof event]),
        );
    };
    listeners.set(event, listener);
    client.on(event, listener);
  }

  /**
   * Runs the chain of `event` for one emission (a message or a vote past the chat-mode gate: the
   * whole chain, or only its `allModes` handlers). Never rejects.
   */
  dispatch<E extends ClientEventName>(
    client: BotClient,
    name: E,
    args: ClientEvents[E],
  ): Promise<void> {
    const chain = this.#chains.get(name) ?? [];
    const chat = this.#gate && chain.length > 0 ? chatOfEvent(name, args) : undefined;
    if (chat === undefined || !this.#gate) return this.#run(client, name, args, chain);
    const message = name === 'message' ? (args[0] as Message) : undefined;
    return this.#gate(client, chat, message).then(
      (open) => this.#run(client, name, args, open ? chain : chain.filter((e) => e.allModes)),
      (error: unknown) => {
        // the mode could not be read: the bot answers rather than going silent (reported)
        this.onFailure({
          plugin: 'wakit',
          event: name,
          client: client.name,
          messageId: message?.id,
          error,
        });
        return this.#run(client, name, args, chain);
      },
    );
  }

  /**
   * Runs `chain` for one emission. Handlers that answer synchronously (the common "not for me:
   * return next()" case) cost no promise of their own.
   */
  #run<E extends ClientEventName>(
    client: BotClient,
    name: E,
    args: ClientEvents[E],
    chain: Entry[],
  ): Promise<void> {
    if (chain.length === 0) return RESOLVED;
    const event = pluginEventOf(client, name, args);
    const message = isMessageEvent(name);
    const data = args[0];
    const clientName = client.name;
    const fail = (entry: { plugin: string }, error: unknown): void => {
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
      let downstreamDone = false;
      const next = (): Promise<void> => {
        if (called) {
          throw new WakitError(
            'INVALID_STATE',
            `Plugin ${current.plugin}: next() was called twice for one ${name} event`,
            { details: { plugin: current.plugin, event: name } },
          );
        }
        called = true;
        const downstream = step(nextIndex);
        if (downstream === RESOLVED) downstreamDone = true;
        else
          void downstream.then(() => {
            downstreamDone = true;
          });
        downstreamPromise = downstream;
        return downstream;
      };
      let downstreamPromise: Promise<void> | undefined;
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
      if (this.#timeoutMs <= 0 || current.ownTimeout) {
        return Promise.resolve(result).then(() => undefined, afterFailure);
      }
      return this.#watch(Promise.resolve(result), {
        fail: (error) => fail(current, error),
        goOn: () => (called ? RESOLVED : next()),
        downstream: () => (downstreamDone ? undefined : downstreamPromise),
        timedOut: () =>
          new WakitError(
            'HANDLER_TIMEOUT',
            `Plugin ${current.plugin} did not finish handling ${name} within ${this.#timeoutMs} ms`,
            {
              details: {
                plugin: current.plugin,
                event: name,
                client: clientName,
                timeoutMs: this.#timeoutMs,
              },
            },
          ),
      });
    };
    return step(0);
  }

  /**
   * Settles when the handler's promise does, or `timeoutMs` after it started: then the handler is
   * reported (HANDLER_TIMEOUT) and the chain goes on without it. Time spent in the handlers after
   * it (through `next()`) is theirs: while they run, the clock of this one waits.
   */
  #watch(
    result: Promise<unknown>,
    hooks: {
      fail(error: unknown): void;
      /** Passes the event on unless the handler already did. */
      goOn(): Promise<void>;
      /** The rest of the chain while it is still running. */
      downstream(): Promise<void> | undefined;
      timedOut(): WakitError;
    },
  ): Promise<void> {
    return new Promise<void>((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        timer = setTimeout(onTimeout, this.#timeoutMs);
        timer.unref();
      };
      const onTimeout = (): void => {
        if (done) return;
        const downstream = hooks.downstream();
        if (downstream) {
          // a later handler is the one still running: it has its own clock; wait for it
          void downstream.then(() => {
            if (!done) arm();
          });
          return;
        }
        done = true;
        hooks.fail(hooks.timedOut());
        void hooks.goOn().then(resolve);
      };
      arm();
      result.then(
        () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve();
        },
        (error: unknown) => {
          // reported even after a timeout: a late failure is still a failure
          hooks.fail(error);
          if (done) return;
          done = true;
          clearTimeout(timer);
          void hooks.goOn().then(resolve);
        },
      );
    });
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
