import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import { WakitError, isWakitError, toWakitError } from '../errors/index.js';
import type { Engine, EngineFactory } from '../engines/engine.js';
import type { SessionStore } from '../auth/session-store.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorSink } from '../kernel/error-sink.js';
import {
  CLIENT_NAME,
  CLOCK,
  CONFIG,
  ENGINE_FACTORY,
  ERROR_SINK,
  LOGGER,
  MEDIA_RESOLVER,
  OUTBOUND_QUEUE,
  PLACEMENT,
  SESSION_STORE,
} from '../kernel/tokens.js';
import type { OutboundQueue, TrackedSend } from '../queue/index.js';
import type { MediaResolver } from './media/media-resolver.js';
import { SafeEmitter } from './core/safe-emitter.js';
import type { ClientEvents } from './client-events.js';
import { StateMachine } from './core/state-machine.js';
import { Message, type MessageActions } from './inbound/message.js';
import { messageActions } from './inbound/message-actions.js';
import { ClientSends } from './client-sends.js';
import { PERSON_KINDS, normalizeChatId } from './chat-id.js';
import { ContactCache, SenderCompleter } from './inbound/contact-cache.js';
import type { ConnectionSupervisor } from './connection/connection-supervisor.js';
import {
  CONNECTION_SUPERVISOR,
  SEND_INTAKE,
  type IntakeFactory,
  type SupervisorFactory,
} from '../kernel/client-services.js';
import { registerInternals } from './core/client-internals.js';
import type { ClientCore } from './core/client-core.js';
import { incomingCallHandler } from './inbound/incoming-call.js';
import { CAPABILITY_LIST, buildManagers, type Managers } from '../capabilities/registry.js';
import { forwardActionEvents } from './inbound/action-events.js';
import { deliver } from './send/deliver.js';
import type { AcceptOptions, QueuedSend, SendIntake } from './send/send-intake.js';
import type { ClientPlacement, PlacementFactory } from './core/client-placement.js';
import { EngineHealthMonitor } from './connection/engine-health.js';
import type { EngineHealth } from '../engines/health.js';
import type {
  ClientInfo,
  ClientState,
  ContactInfo,
  MessageData,
  MessageSender,
  OutgoingContent,
} from './types.js';

export type { QueuedSend } from './send/send-intake.js';
export type { EnqueueOptions } from './client-sends.js';

/**
 * The SDK client: one WhatsApp account linked as a device. It owns the state machine and the
 * events, hands prepared sends to its outbound queue; the engine does the talking and the
 * ConnectionSupervisor the (re)connecting. Its public surface is the SDK; the kernel reaches the
 * rest through `internalsOf(client)`.
 */
@injectable()
export class BotClient extends ClientSends {
  /** The capability declarations every client's area managers (and REST's routes) come from. */
  static readonly capabilities = CAPABILITY_LIST;
  readonly calls: Managers['calls'];
  readonly chats: Managers['chats'];
  readonly contacts: Managers['contacts'];
  readonly groups: Managers['groups'];
  readonly messages: Managers['messages'];
  readonly presence: Managers['presence'];
  readonly #events: SafeEmitter<ClientEvents>;
  readonly #machine: StateMachine;
  readonly #supervisor: ConnectionSupervisor;
  readonly #actions: MessageActions;
  readonly #contacts = new ContactCache((id) =>
    this.#supervisor.requireEngine().ops.contacts.resolve(id),
  );
  readonly #emitMessage = (data: MessageData, sender: MessageSender): void => {
    this.#events.emit('message', new Message(data, this.#actions, sender));
  };
  readonly #emitCreated = (data: MessageData, sender: MessageSender): void => {
    this.#events.emit('message.create', new Message(data, this.#actions, sender));
  };
  readonly #senders: SenderCompleter;
  readonly #intake: SendIntake;
  readonly #health: EngineHealthMonitor;
  readonly #followStatus = (record: TrackedSend): void => {
    this.#events.emit('message.status', record);
  };
  readonly #recover: () => void;
  readonly #placement: ClientPlacement;
  #lastDisconnect: ClientInfo['lastDisconnect'] = null;
  #onCall: ReturnType<typeof incomingCallHandler> = () => undefined;

  constructor(
    @inject(CLIENT_NAME) readonly name: string,
    @inject(CONFIG) private readonly config: Readonly<WakitConfig>,
    @inject(ENGINE_FACTORY) engineFactory: EngineFactory,
    @inject(SESSION_STORE) store: SessionStore,
    @inject(MEDIA_RESOLVER) media: MediaResolver,
    @inject(OUTBOUND_QUEUE) private readonly queue: OutboundQueue,
    @inject(LOGGER) private readonly log: Logger,
    @inject(ERROR_SINK) errors: ErrorSink,
    @inject(CLOCK) clock: Clock,
    @inject(PLACEMENT) placement: PlacementFactory,
    @inject(CONNECTION_SUPERVISOR) supervisor: SupervisorFactory,
    @inject(SEND_INTAKE) intake: IntakeFactory,
  ) {
    super();
    this.#events = new SafeEmitter<ClientEvents>((event, error) =>
      errors.report({ source: 'handler', event, client: name, error }),
    );
    this.#machine = new StateMachine((from, to, at) => {
      this.log.info({ from, to }, 'client %s: %s → %s', name, from, to);
      if (to === 'READY') {
        this.queue.resume();
        this.#recover();
        this.#health.start();
      } else if (from === 'READY') {
        this.queue.pause();
        this.#health.stop();
      }
      if (to === 'FAILED') this.#sessionEnded('CLIENT_FAILED', 'the client FAILED');
      this.#supervisor.notifyState(to);
      this.#events.emit('state', { from, to, at: at.toISOString() });
    });
    this.queue.pause();
    this.#supervisor = supervisor({
      createEngine: async () =>
        this.#wire(
          await engineFactory({
            clientName: name,
            store,
            logger: log,
            report: (event, error) =>
              errors.report({ source: 'engine', event, client: name, error }),
          }),
        ),
      machine: this.#machine,
      emit: (event, ...args) => this.#events.emit(event, ...args),
      onDisconnect: (reason, cause) => {
        this.#lastDisconnect = { reason, at: new Date().toISOString() };
        this.#health.degradedBy(cause);
        if (reason === 'session_expired' || reason === 'logout') {
          this.#sessionEnded('SESSION_EXPIRED', `the session ended (${reason})`);
        }
      },
    });
    this.#senders = new SenderCompleter(
      this.#contacts,
      (error, data) =>
        // not reported: the message goes on with the sender it came with (contact-cache.ts)
        this.log[isWakitError(error, 'TIMEOUT') ? 'warn' : 'debug'](
          { err: error, messageId: data.id },
          'could not resolve the sender in time',
        ),
      { deadlineMs: config.engine.senderLookUpTimeoutMs, clock },
    );
    this.#health = new EngineHealthMonitor({
      ...{ client: name, clock, log, intervalMs: config.engine.healthIntervalMs },
      engine: () => this.#supervisor.engine,
      changed: (health) => this.#events.emit('engine.health', health),
      held: () => this.queue.stats().held,
      retryHeld: () => this.queue.retryHeld(),
    });
    this.#intake = intake({
      ready: () => this.state === 'READY',
      account: () => this.#supervisor.engine?.me()?.id ?? null,
      deliver: (chatId, content, account) =>
        deliver(
          {
            client: name,
            state: () => this.state,
            engine: () => this.#supervisor.engine,
            media,
            health: this.#health,
            clock,
            ...(config.queue.typingBeforeSend ? { typing: { clock } } : {}),
          },
          chatId,
          content,
          account,
        ),
    });
    this.#recover = () =>
      void this.#intake
        .recover()
        .catch((error: unknown) =>
          errors.report({ source: 'queue', event: 'recover', client: name, error }),
        );
    this.#placement = placement({
      ...{ name, config, log, queue, intake: this.#intake },
      state: () => this.state,
      recover: () => this.#recover(),
    });
    const core: ClientCore = {
      name,
      config,
      log,
      state: () => this.state,
      requireEngine: () => this.#supervisor.requireEngine(),
      accept: (chatId, content, options) => this.acceptSend(chatId, content, options),
      events: this.#events,
      report: (event, error) => errors.report({ source: 'client', event, client: name, error }),
    };
    ({
      calls: this.calls,
      chats: this.chats,
      contacts: this.contacts,
      groups: this.groups,
      messages: this.messages,
      presence: this.presence,
    } = buildManagers(core));
    this.#onCall = incomingCallHandler(core);
    this.#actions = messageActions(core, this);
    registerInternals(this, {
      drain: (deadlineMs) => this.#drain(deadlineMs),
      close: () => this.#close(),
      getSend: (trackingId) => this.queue.get(trackingId),
      events: this.#events,
      message: (data) => new Message(data, this.#actions),
    });
  }

  protected acceptSend(
    chatId: string,
    content: OutgoingContent,
    options: AcceptOptions,
  ): Promise<QueuedSend> {
    return this.#placement.accept(chatId, content, options);
  }

  get state(): ClientState {
    return this.#machine.state;
  }

  on<E extends keyof ClientEvents>(event: E, handler: (...args: ClientEvents[E]) => unknown): this {
    this.#events.on(event, handler);
    if (event === 'message.status' && this.#events.listenerCount(event) === 1) {
      this.queue.on('update', this.#followStatus);
    }
    return this;
  }

  once<E extends keyof ClientEvents>(
    event: E,
    handler: (...args: ClientEvents[E]) => unknown,
  ): this {
    const wrapper = (...args: ClientEvents[E]): unknown => {
      this.off(event, wrapper);
      return handler(...args);
    };
    return this.on(event, wrapper);
  }

  off<E extends keyof ClientEvents>(
    event: E,
    handler: (...args: ClientEvents[E]) => unknown,
  ): this {
    this.#events.off(event, handler);
    if (event === 'message.status' && this.#events.listenerCount(event) === 0) {
      this.queue.off('update', this.#followStatus);
    }
    return this;
  }

  /** Starts the engine: a QR is emitted (`qr`) unless a saved session is restored. */
  initialize(): Promise<void> {
    return this.#supervisor.initialize();
  }

  /** Stops the engine and keeps the session: the next `initialize()` needs no QR. */
  stop(): Promise<void> {
    return this.#supervisor.stop();
  }

  /** Logs out: the session is invalidated and deleted; the client is STOPPED. */
  logout(): Promise<void> {
    this.#contacts.clear();
    return this.#supervisor.logout();
  }

  /** Resolves when READY; rejects on FAILED/STOPPED or after `timeoutMs` (TIMEOUT). */
  waitUntilReady(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#supervisor.waitUntilReady(options.timeoutMs ?? 60_000);
  }

  /** Links by phone number instead of QR (engines that support it); resolves to the code to type. */
  requestPairingCode(phoneNumber: string): Promise<string> {
    const digits = normalizeChatId(phoneNumber, 'phoneNumber').replace('@c.us', '');
    return this.#supervisor.requirePairingEngine().ops.account.requestPairingCode(digits);
  }

  info(): ClientInfo {
    return {
      name: this.name,
      state: this.state,
      engine: this.config.engine.type,
      me: this.#supervisor.engine?.me() ?? null,
      since: this.#machine.enteredAt.toISOString(),
      queue: this.queue.stats(),
      governor: this.queue.governorInfo(),
      lastDisconnect: this.#lastDisconnect,
      reconnect: this.#supervisor.reconnecting,
      health: this.#health.current,
    };
  }

  /** Probes the engine's capabilities now (also after READY and every engine.healthIntervalMs). */
  checkHealth(): Promise<EngineHealth | null> {
    return this.#health.check();
  }

  /** Checks health, then sends held for ENGINE_INCOMPATIBLE go again; resolves to how many. */
  retryHeld(): Promise<number> {
    return this.#health.retryHeld();
  }

  /** Cancels a scheduled send (`sendAt`): it never goes (docs/scheduling.md). */
  cancelScheduled(trackingId: string): Promise<TrackedSend> {
    return this.#intake.scheduled.cancel(trackingId);
  }

  /** Moves a scheduled send to `sendAt` (epoch ms, a Date or an RFC 3339 date-time). */
  reschedule(trackingId: string, sendAt: number | Date | string): Promise<TrackedSend> {
    return this.#intake.scheduled.reschedule(trackingId, sendAt);
  }

  /**
   * Who a person is: `{ id, lid?, phone?, pushname?, isRegistered }` by phone number, `@c.us` or
   * `@lid` id, through the engine's look-up (whatsapp-web.js `getContactLidAndPhone`), cached.
   * A LID user's number stays hidden unless WhatsApp shows it (e.g. they are a saved contact).
   */
  async resolveContact(idOrPhone: string): Promise<ContactInfo> {
    const id = normalizeChatId(idOrPhone, 'id', { allow: PERSON_KINDS });
    return this.#contacts.resolve(id);
  }

  /** Waiting sends are failed when the session ends, unless `queue.onSessionEnd` is `keep`. */
  #sessionEnded(code: 'SESSION_EXPIRED' | 'CLIENT_FAILED', why: string): void {
    if (this.config.queue.onSessionEnd !== 'fail') return;
    const failed = this.queue.failWaiting(
      new WakitError(code, `Not sent: ${why} before it was its turn`, {
        details: { client: this.name },
      }),
    );
    if (failed > 0)
      this.log.warn({ failed, code }, 'client %s: %d waiting sends failed', this.name, failed);
  }

  #wire(engine: Engine): Engine {
    engine.on('message', (data) => this.#senders.push(data, this.#emitMessage));
    engine.on('message.create', (data) => this.#senders.push(data, this.#emitCreated));
    engine.on('call', (call) => this.#onCall(call));
    engine.on('message.ack', (update) => {
      this.queue.ackUpdate(update.messageId, update.ack);
      this.#events.emit('message.ack', update);
    });
    engine.on('group.join', (event) => this.#events.emit('group.join', event));
    engine.on('group.leave', (event) => this.#events.emit('group.leave', event));
    engine.on('group.update', (event) => this.#events.emit('group.update', event));
    engine.on('poll.vote', (vote) => this.#events.emit('poll.vote', vote));
    forwardActionEvents(engine, this.#events);
    return engine;
  }

  async #drain(deadlineMs: number): Promise<void> {
    const { drained } = await this.queue.drain(deadlineMs);
    if (drained) return;
    // What did not go out stays journaled and is sent after the next start (not lost): every id
    // is logged, 1,000 per line (from the outbox: most waiting sends may be only there).
    const ids = await this.#intake.waitingIds().catch(() => this.queue.unfinishedIds());
    this.log.warn(
      { remaining: ids.length },
      'client %s: %d sends left in the outbox for the next start',
      this.name,
      ids.length,
    );
    for (let i = 0; i < ids.length; i += 1_000) {
      this.log.warn({ trackingIds: ids.slice(i, i + 1_000) }, 'left in the outbox');
    }
  }

  async #close(): Promise<void> {
    this.#placement.close();
    this.#intake.scheduled.close();
    await this.stop().catch((error: unknown) => {
      if (!isWakitError(error)) this.log.error({ err: toWakitError(error) }, 'stop failed');
    });
    this.queue.close();
    this.#events.removeAllListeners();
  }
}
