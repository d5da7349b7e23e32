/**
 * Conversations for every client: the definitions, the active runs, their triggers and timers,
 * and what the SDK and REST see of them. Messages reach it in each chat's order (ChatLanes in the
 * pipeline); a timer and a message of one chat never run at once (a lane of its own per chat).
 * Its parts: ConversationRuns (runs and lanes), ConversationInbound (messages, votes, triggers),
 * fireTimer (timers), ConversationOperator (start, list, get, end).
 */
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import type { PollVote } from '../client/types.js';
import type { SendContent } from '../client/send/send-contract.js';
import type { WakitConfig } from '../config/schema.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { ChatStates } from './chat-state.js';
import { ConversationInbound } from './conversation-inbound.js';
import { ConversationOperator } from './conversation-operator.js';
import { createConversationStore } from './conversation-records.js';
import type { RunHost } from './conversation-run.js';
import { ConversationRuns, type AnyDefinition } from './conversation-runs.js';
import { fireTimer } from './conversation-timer-fire.js';
import { ConversationTimers } from './conversation-timers.js';
import { createRunHost } from './run-host.js';
import type { ConversationStore } from './store/conversation-store.js';
import type { ConversationInfo } from './types.js';

export interface ConversationServiceDeps {
  config: Readonly<WakitConfig>;
  baseDir: string;
  clock: Clock;
  logger: Logger;
  clients: { get(name: string): BotClient };
  /** The WhatsApp id of a tracked send once sent. */
  sentMessageId(trackingId: string): Promise<string | null>;
  report(report: ErrorReport): void;
  /** Is this text a command someone registered? */
  isCommand(body: string): boolean;
  /** A store to use instead of the configured one. */
  store?: ConversationStore;
  /** Is the chat out of `bot` mode (handoff)? Its conversations' timers wait meanwhile. */
  held?(client: string, chatId: string): Promise<boolean>;
}

export class ConversationService {
  #store: ConversationStore | undefined;
  readonly states: ChatStates;
  readonly #d: ConversationServiceDeps;
  readonly #runs: ConversationRuns;
  readonly #timers: ConversationTimers;
  readonly #host: RunHost;
  readonly #inbound: ConversationInbound;
  readonly #operator: ConversationOperator;

  constructor(deps: ConversationServiceDeps) {
    this.#d = deps;
    const now = (): number => deps.clock.now();
    this.#store = deps.store;
    const settings = deps.config.conversations;
    const store = (): ConversationStore => this.store;
    this.states = new ChatStates(store, {
      maxBytes: settings.stateMaxBytes,
      ttlMs: settings.stateTtlDays * 86_400_000,
      now,
    });
    this.#timers = new ConversationTimers(deps.clock, (id) =>
      fireTimer(
        {
          store,
          runs: this.#runs,
          host: this.#host,
          timers: this.#timers,
          clock: deps.clock,
          runsHere: (client) => this.#runsHere(client),
          held: (client, chatId) => deps.held?.(client, chatId) ?? Promise.resolve(false),
        },
        id,
      ).catch((error: unknown) =>
        deps.report({ source: 'conversation', event: 'conversation:timer', error }),
      ),
    );
    this.#runs = new ConversationRuns({
      store,
      host: () => this.#host,
      timers: this.#timers,
      clock: deps.clock,
      log: deps.logger.child({ component: 'conversations' }),
    });
    this.#host = createRunHost({
      store,
      timers: this.#timers,
      states: this.states,
      clock: deps.clock,
      clients: deps.clients,
      sentMessageId: (trackingId) => deps.sentMessageId(trackingId),
      report: (report) => deps.report(report),
      finishRecord: (record, reason) => this.#runs.finishRecord(record, reason),
    });
    const runs = this.#runs;
    const host = this.#host;
    this.#inbound = new ConversationInbound({
      runs,
      host,
      clock: deps.clock,
      isCommand: (body) => deps.isCommand(body),
    });
    this.#operator = new ConversationOperator({ store, runs, host, clients: deps.clients });
  }

  /** The store, opened on first use (an SDK that never starts opens no file). */
  get store(): ConversationStore {
    this.#store ??= createConversationStore(this.#d.config, this.#d.baseDir, () =>
      this.#d.clock.now(),
    );
    return this.#store;
  }

  /** Registers a definition (plugins, during setup). */
  define(definition: AnyDefinition): void {
    this.#runs.define(definition);
  }

  get definitions(): readonly AnyDefinition[] {
    return this.#runs.definitions;
  }

  /** A chat back in `bot` mode: the timers of its conversations start again from now. */
  async restartTimers(client: string, chatId: string): Promise<void> {
    for (const record of await this.store.list(client)) {
      const seconds = this.#runs.definitions.find((d) => d.name === record.name)?.timeout?.seconds;
      if (record.chatId !== chatId || record.wait.dueAt === undefined || !seconds) continue;
      await this.#runs.exclusive(client, chatId, record.member, async () => {
        const wait = { ...record.wait, dueAt: this.#d.clock.now() + seconds * 1000 };
        await this.store.setWait(record.id, wait);
        this.#timers.set(record.id, wait.dueAt);
        return true;
      });
    }
  }

  /** Loads the timers of every active conversation (after a restart they fire as planned). */
  async load(): Promise<void> {
    for (const { id, dueAt } of await this.store.timers()) this.#timers.set(id, dueAt);
  }

  /**
   * Replays the conversations of a client that became READY that were cut off in the middle of a
   * step (an answer journaled, its reply not sent yet): they go on by themselves. Those that wait
   * for their person are replayed when the person writes or their timer fires (nothing to do now:
   * a restart with 10,000 of them open costs one query). The client's timers are armed here: in a
   * fleet this is how they follow the client to the node that took it over.
   */
  async resumeAll(clientName: string): Promise<number> {
    let resumed = 0;
    const runs = this.#runs;
    for (const { id, dueAt } of await this.store.timers(clientName)) this.#timers.set(id, dueAt);
    for (const record of await this.store.interrupted(clientName)) {
      await runs.exclusive(record.client, record.chatId, record.member, async () => {
        if (await runs.live(record.client, record.chatId, record.member)) resumed += 1;
        return true;
      });
    }
    return resumed;
  }

  async close(): Promise<void> {
    this.#timers.close();
    await this.#store?.close();
  }

  /** A client runs on this node when it is READY here (in a fleet, only on its owner). */
  #runsHere(client: string): boolean {
    try {
      return this.#d.clients.get(client).state === 'READY';
    } catch {
      // not reported: a client removed since its conversation started has no node to run on
      return false;
    }
  }

  /** See ConversationInbound.onMessage. Returns true when the message was consumed. */
  onMessage(client: BotClient, message: Message): Promise<boolean> {
    return this.#inbound.onMessage(client, message);
  }

  /** The pipeline's `message` middleware: a message a conversation consumed goes no further. */
  readonly middleware = async (
    { client, message }: { client: BotClient; message: Message },
    next: () => Promise<void>,
  ): Promise<void> => {
    if (!(await this.onMessage(client, message))) await next();
  };

  /** The pipeline's `poll.vote` middleware: the vote may answer a conversation; others see it too. */
  readonly voteMiddleware = async (
    { client, data }: { client: BotClient; data: PollVote },
    next: () => Promise<void>,
  ): Promise<void> => {
    await this.onVote(client, data);
    await next();
  };

  /** Conversations cut off in the middle of a step go on each time `client` is READY. */
  watch(client: BotClient): void {
    const resume = (): void => {
      void this.resumeAll(client.name).catch((error: unknown) =>
        this.#d.report({ source: 'conversation', client: client.name, event: 'resume', error }),
      );
    };
    client.on('ready', resume);
    if (client.state === 'READY') resume();
  }

  /** A poll vote: the answer of the conversation of the voter, if it waits. */
  onVote(client: BotClient, vote: PollVote): Promise<void> {
    return this.#inbound.onVote(client, vote);
  }

  /** A trigger (command) starting `name` for the sender of `message`. */
  trigger(client: BotClient, message: Message, name: string, input: unknown): Promise<void> {
    return this.#inbound.trigger(client, message, name, input);
  }

  /** See ConversationOperator.start: CONVERSATION_ACTIVE when the chat has one already. */
  start(
    clientName: string,
    chatId: string,
    name: string,
    options: { input?: unknown; member?: string } = {},
  ): Promise<ConversationInfo> {
    return this.#operator.start(clientName, chatId, name, options);
  }

  /** The chat as conversations and chat state key it: a person by phone or LID alike. */
  personChat(clientName: string, chatId: string): Promise<string> {
    return this.#operator.personChat(clientName, chatId);
  }

  list(client?: string): Promise<ConversationInfo[]> {
    return this.#operator.list(client);
  }

  get(id: string): Promise<ConversationInfo> {
    return this.#operator.get(id);
  }

  /** Ends an active conversation (an operator's hand), optionally with a last message. */
  end(id: string, message?: SendContent): Promise<void> {
    return this.#operator.end(id, message);
  }
}
