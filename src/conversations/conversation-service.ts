/**
 * Conversations for every client: the definitions, the active runs, their triggers and timers,
 * and what the SDK and REST see of them. Messages reach it in each chat's order (ChatLanes in the
 * pipeline); a timer and a message of one chat never run at once (a lane of its own per chat).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import type { PollVote } from '../client/types.js';
import type { SendContent } from '../client/send/send-contract.js';
import type { WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { ChatLanes } from './chat-lanes.js';
import { ChatStates } from './chat-state.js';
import { ConversationRun, type RunHost } from './conversation-run.js';
import { createRunHost } from './run-host.js';
import { createConversationStore, info, keyOf, notFound, replyOf } from './conversation-records.js';
import { ConversationTimers } from './conversation-timers.js';
import { chatOf, personChat } from './person-key.js';
import { normalize } from './prompts.js';
import type {
  ConversationRecord,
  ConversationStore,
  ConversationWait,
} from './store/conversation-store.js';
import type { ConversationDefinition, ConversationInfo, EndReason } from './types.js';

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
  /** A store to use instead of the configured one (a fleet's). */
  store?: ConversationStore;
  /** Is the chat out of `bot` mode (handoff)? Its conversations' timers wait meanwhile. */
  held?(client: string, chatId: string): Promise<boolean>;
}

type AnyDefinition = ConversationDefinition<never>;
const DEFAULT_CANCEL = ['cancel'];

export class ConversationService {
  #store: ConversationStore | undefined;
  readonly states: ChatStates;
  readonly #d: ConversationServiceDeps;
  readonly #definitions = new Map<string, AnyDefinition>();
  /** Runs in memory by chat key (client, chat, member). */
  readonly #runs = new Map<string, ConversationRun>();
  readonly #lanes = new ChatLanes();
  readonly #timers: ConversationTimers;
  readonly #log: Logger;
  readonly #host: RunHost;

  constructor(deps: ConversationServiceDeps) {
    this.#d = deps;
    const now = (): number => deps.clock.now();
    this.#store = deps.store;
    const settings = deps.config.conversations;
    this.states = new ChatStates(() => this.store, {
      maxBytes: settings.stateMaxBytes,
      ttlMs: settings.stateTtlDays * 86_400_000,
      now,
    });
    this.#log = deps.logger.child({ component: 'conversations' });
    this.#timers = new ConversationTimers(deps.clock, (id) =>
      this.#fire(id).catch((error: unknown) =>
        deps.report({ source: 'conversation', event: 'conversation:timer', error }),
      ),
    );
    this.#host = createRunHost({
      store: () => this.store,
      timers: this.#timers,
      states: this.states,
      clock: deps.clock,
      clients: deps.clients,
      sentMessageId: (trackingId) => deps.sentMessageId(trackingId),
      report: (report) => deps.report(report),
      finishRecord: (record, reason) => this.#finishRecord(record, reason),
    });
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
    if (this.#definitions.has(definition.name)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `A conversation named ${definition.name} is already defined`,
        {
          details: { conversation: definition.name },
        },
      );
    }
    this.#definitions.set(definition.name, definition);
  }

  get definitions(): readonly AnyDefinition[] {
    return [...this.#definitions.values()];
  }

  /** Loads the timers of every active conversation (after a restart they fire as planned). */
  async load(): Promise<void> {
    for (const { id, dueAt } of await this.store.timers()) this.#timers.set(id, dueAt);
  }

  /**
   * Replays the conversations of a client that became READY that were cut off in the middle of a
   * step (an answer journaled, its reply not sent yet): they go on by themselves. Those that wait
   * for their person are replayed when the person writes or their timer fires (nothing to do now:
   * a restart with 10,000 of them open costs one query).
   */
  async resumeAll(clientName: string): Promise<number> {
    let resumed = 0;
    for (const record of await this.store.interrupted(clientName)) {
      await this.#exclusive(record.client, record.chatId, record.member, async () => {
        if (await this.#live(record.client, record.chatId, record.member)) resumed += 1;
        return true;
      });
    }
    return resumed;
  }

  async close(): Promise<void> {
    this.#timers.close();
    await this.#store?.close();
  }

  /**
   * The `message` middleware (ahead of commands): a message of a chat with an active conversation
   * is its answer (a cancel word ends it; a command interrupts it by its policy); without one, a
   * keyword or pattern may start one. Returns true when the message was consumed.
   */
  async onMessage(client: BotClient, message: Message): Promise<boolean> {
    if (message.fromMe || message.isStatus || message.broadcast || message.isChannel) return false;
    const { chatId, member } = chatOf(message);
    return this.#exclusive(client.name, chatId, member, async () => {
      const run = await this.#live(client.name, chatId, member);
      if (run) return this.#answer(run, message);
      const definition = this.#keywordTrigger(message);
      if (!definition) return false;
      await this.#begin(client.name, chatId, member, definition, message.body.trim());
      return true;
    });
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
  async onVote(client: BotClient, vote: PollVote): Promise<void> {
    const isGroup = vote.chatId.endsWith('@g.us');
    // the voter as one person id: a vote may name the number where messages came by LID
    const known = await client.resolveContact(vote.voter).catch(() => {
      // not reported: a voter the client cannot look up keeps the id the vote came with
      return undefined;
    });
    const sender = {
      id: vote.voter,
      ...(known?.lid ? { lid: known.lid } : {}),
      ...(known?.phone ? { phone: known.phone } : {}),
    };
    const { chatId, member } = chatOf({
      chatId: isGroup ? vote.chatId : (sender.lid ?? vote.chatId),
      isGroup,
      sender,
    });
    await this.#exclusive(client.name, chatId, member, async () => {
      const run = await this.#live(client.name, chatId, member);
      if (!run?.waiting) return false;
      await run.feed({
        kind: 'vote',
        pollMessageId: vote.pollMessageId,
        selected: vote.selectedOptions,
        at: this.#d.clock.now(),
      });
      return true;
    });
  }

  /** A trigger (command) starting `name` for the sender of `message`. */
  async trigger(client: BotClient, message: Message, name: string, input: unknown): Promise<void> {
    const definition = this.#definition(name);
    const { chatId, member } = chatOf(message);
    await this.#exclusive(client.name, chatId, member, () =>
      this.#begin(client.name, chatId, member, definition, input).then(() => true),
    );
  }

  /**
   * Starts `name` in a chat from code or REST (a bot that writes first): CONVERSATION_ACTIVE when
   * the chat has one already (unless it lets itself be replaced).
   */
  async start(
    clientName: string,
    chatId: string,
    name: string,
    options: { input?: unknown; member?: string } = {},
  ): Promise<ConversationInfo> {
    const definition = this.#definition(name);
    chatId = await this.personChat(clientName, chatId);
    const member = options.member ?? '';
    let started: ConversationRecord | undefined;
    // the lane does not pass failures on (it serves messages): this one goes to the caller
    let refused: WakitError | undefined;
    await this.#exclusive(clientName, chatId, member, async () => {
      const active = await this.#live(clientName, chatId, member);
      if (active && this.#policy(active).onConflict !== 'replace') {
        refused = new WakitError(
          'CONVERSATION_ACTIVE',
          `Chat ${chatId} already has conversation ${active.record.name} (${active.record.id})`,
          {
            details: {
              client: clientName,
              chatId,
              conversation: active.record.id,
              name: active.record.name,
            },
          },
        );
        return true;
      }
      started = await this.#begin(clientName, chatId, member, definition, options.input ?? null);
      return true;
    });
    if (refused !== undefined) throw refused;
    return info(started as ConversationRecord);
  }

  /** The chat as conversations and chat state key it: a person by phone or LID alike. */
  personChat(clientName: string, chatId: string): Promise<string> {
    return personChat(this.#d.clients.get(clientName), chatId);
  }

  async list(client?: string): Promise<ConversationInfo[]> {
    return (await this.store.list(client)).map(info);
  }

  async get(id: string): Promise<ConversationInfo> {
    const record = await this.store.get(id);
    if (!record) throw notFound(id);
    return info(record);
  }

  /** Ends an active conversation (an operator's hand), optionally with a last message. */
  async end(id: string, message?: SendContent): Promise<void> {
    const record = await this.store.get(id);
    if (!record) throw notFound(id);
    await this.#exclusive(record.client, record.chatId, record.member, async () => {
      if (message !== undefined) await this.#host.send(record, `${id}:operator-end`, message);
      await this.#finishRecord(record, 'ended');
      return true;
    });
  }

  /** A chat back in `bot` mode: the timers of its conversations start again from now. */
  async restartTimers(client: string, chatId: string): Promise<void> {
    for (const record of await this.store.list(client)) {
      const seconds = this.#definitions.get(record.name)?.timeout?.seconds;
      if (record.chatId !== chatId || record.wait.dueAt === undefined || !seconds) continue;
      await this.#exclusive(client, chatId, record.member, async () => {
        const wait = { ...record.wait, dueAt: this.#d.clock.now() + seconds * 1000 };
        await this.store.setWait(record.id, wait);
        this.#timers.set(record.id, wait.dueAt);
        return true;
      });
    }
  }

  // -------------------------------------------------------------------------------------------

  #exclusive(
    client: string,
    chatId: string,
    member: string,
    work: () => Promise<boolean>,
  ): Promise<boolean> {
    let consumed = false;
    let failure: { error: unknown } | undefined;
    return this.#lanes
      .run(keyOf({ client, chatId, member }), async () => {
        try {
          consumed = await work();
        } catch (error) {
          // handed on below: the lane keeps going, the caller gets the failure
          failure = { error };
        }
      })
      .then(() => {
        if (failure) throw failure.error;
        return consumed;
      });
  }

  async #answer(run: ConversationRun, message: Message): Promise<boolean> {
    if (run.seen(message.id)) return true;
    const policy = this.#policy(run);
    const text = normalize(message.body);
    const cancelWords = (policy.cancelWords ?? DEFAULT_CANCEL).map(normalize);
    if (message.type === 'chat' && cancelWords.includes(text)) {
      await this.#host.send(
        run.record,
        `${run.record.id}:cancel`,
        policy.cancelled ?? 'Cancelled.',
      );
      await this.#stop(run, 'cancelled');
      return true;
    }
    if (message.type === 'chat' && this.#d.isCommand(message.body)) {
      if (policy.onInterrupt === 'end') await this.#stop(run, 'ended');
      return false;
    }
    if (!run.waiting) return true;
    await run.feed(replyOf(message, this.#d.clock.now()));
    return true;
  }

  #keywordTrigger(message: Message): AnyDefinition | undefined {
    if (message.type !== 'chat') return undefined;
    const text = normalize(message.body);
    for (const definition of this.#definitions.values()) {
      const trigger = definition.trigger;
      if (!trigger || (message.isGroup && !trigger.groups)) continue;
      if (trigger.keywords?.some((k) => normalize(k) === text)) return definition;
      if (trigger.pattern?.test(message.body)) return definition;
    }
    return undefined;
  }

  async #begin(
    client: string,
    chatId: string,
    member: string,
    definition: AnyDefinition,
    input: unknown,
  ): Promise<ConversationRecord | undefined> {
    const active = await this.#live(client, chatId, member);
    if (active) {
      const policy = this.#policy(active);
      if (policy.onConflict !== 'replace') {
        await this.#host.send(
          active.record,
          `${active.record.id}:busy:${active.steps}`,
          policy.busy ??
            `You are in the middle of "${active.record.name}": answer it, or send "cancel".`,
        );
        return undefined;
      }
      await this.#stop(active, 'replaced');
    }
    const now = this.#d.clock.now();
    const record: ConversationRecord = {
      id: randomUUID(),
      client,
      chatId,
      member,
      name: definition.name,
      version: definition.version ?? 1,
      startedAt: now,
      updatedAt: now,
      steps: 0,
      wait: {},
      ...(input !== undefined ? { input } : {}),
    };
    if (!(await this.store.begin(record))) return undefined;
    this.#log.info(
      { client, conversation: record.id, name: record.name },
      'conversation %s started',
      record.name,
    );
    await this.#run(record, definition, []);
    return record;
  }

  async #run(
    record: ConversationRecord,
    definition: AnyDefinition,
    journal: Awaited<ReturnType<ConversationStore['steps']>>,
  ): Promise<ConversationRun> {
    const run = new ConversationRun(record, definition, journal, this.#host, record.input ?? null);
    this.#runs.set(keyOf(record), run);
    await run.start();
    return run;
  }

  /** The active run of a chat member: in memory, or resumed from its journal (replayed). */
  async #live(
    client: string,
    chatId: string,
    member: string,
  ): Promise<ConversationRun | undefined> {
    const run = this.#runs.get(keyOf({ client, chatId, member }));
    if (run && !run.done) return run;
    const record = await this.store.active(client, chatId, member);
    return record ? this.#resume(record) : undefined;
  }

  async #resume(record: ConversationRecord): Promise<ConversationRun | undefined> {
    const definition = this.#definitions.get(record.name);
    if (!definition || (definition.version ?? 1) !== record.version) {
      const text =
        definition?.versionChanged ??
        'This conversation was updated and had to end: please start again.';
      await this.#host.send(record, `${record.id}:version`, text);
      await this.#finishRecord(record, 'version');
      return undefined;
    }
    const run = await this.#run(record, definition, await this.store.steps(record.id));
    return run.done ? undefined : run;
  }

  async #fire(id: string): Promise<void> {
    const record = await this.store.get(id);
    if (!record || record.wait.dueAt === undefined) return;
    await this.#exclusive(record.client, record.chatId, record.member, async () => {
      const current = await this.store.get(id);
      const now = this.#d.clock.now();
      if (!current || current.wait.dueAt === undefined) return false;
      // a person answers the chat (handoff): the timer waits until it is back to bot
      if (await this.#d.held?.(current.client, current.chatId)) return false;
      if (current.wait.dueAt > now) {
        this.#timers.set(id, current.wait.dueAt);
        return false;
      }
      const run = await this.#live(current.client, current.chatId, current.member);
      if (!run || run.record.id !== id) return false;
      const timeout = this.#policy(run).timeout;
      if (current.wait.phase === 'remind' && timeout?.reminder !== false && timeout) {
        const reminder = timeout.reminder ?? 'Are you still there?';
        await this.#host.send(current, `${id}:remind:${run.steps}`, reminder);
        const wait: ConversationWait = {
          dueAt: now + timeout.seconds * 1000,
          phase: 'expire',
          waiting: true,
        };
        if (await run.timerFired(wait)) this.#timers.set(id, wait.dueAt);
        return true;
      }
      await this.#host.send(
        current,
        `${id}:expired`,
        timeout?.expired ?? 'This conversation expired.',
      );
      await this.#stop(run, 'expired');
      return true;
    });
  }

  async #stop(run: ConversationRun, reason: EndReason): Promise<void> {
    run.stop(reason);
    await this.#finishRecord(run.record, reason);
  }

  async #finishRecord(record: ConversationRecord, reason: EndReason): Promise<void> {
    const key = keyOf(record);
    const run = this.#runs.get(key);
    if (run?.record.id === record.id) this.#runs.delete(key);
    this.#timers.set(record.id, undefined);
    if (run && !run.done) run.stop(reason);
    if (await this.store.end(record.id)) {
      this.#log.info(
        { client: record.client, conversation: record.id, name: record.name, reason },
        'conversation %s ended: %s',
        record.name,
        reason,
      );
    }
  }

  #policy(run: ConversationRun): AnyDefinition {
    return this.#definitions.get(run.record.name) as AnyDefinition;
  }

  #definition(name: string): AnyDefinition {
    const definition = this.#definitions.get(name);
    if (!definition) {
      throw new WakitError('CONVERSATION_UNKNOWN', `No conversation named ${name} is defined`, {
        details: { name, defined: [...this.#definitions.keys()] },
      });
    }
    return definition;
  }
}
