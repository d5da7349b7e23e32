import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import { WakitError, isWakitError, toWakitError } from '../errors/index.js';
import type { Engine, EngineFactory } from '../engines/engine.js';
import type { SessionStore } from '../auth/session-store.js';
import {
  CLIENT_NAME,
  CONFIG,
  ENGINE_FACTORY,
  LOGGER,
  MEDIA_RESOLVER,
  OUTBOUND_QUEUE,
  SESSION_STORE,
} from '../kernel/tokens.js';
import type { OutboundQueue, SendPriority, TrackedSend } from '../queue/index.js';
import type { MediaResolver } from './media-resolver.js';
import { SafeEmitter } from './safe-emitter.js';
import type { ClientEvents } from './client-events.js';
import { StateMachine } from './state-machine.js';
import { Message, type MessageOwner } from './message.js';
import { validateMedia, validateText, type ValidatedSend } from './send-input.js';
import { normalizeChatId } from './chat-id.js';
import { ConnectionSupervisor } from './connection-supervisor.js';
import type {
  ClientInfo,
  ClientState,
  EngineContent,
  MediaData,
  MediaKind,
  MessageData,
  OutgoingContent,
  SendAudioInput,
  SendDocumentInput,
  SendImageInput,
  SendResult,
  SendStickerInput,
  SendTextInput,
  SendVideoInput,
} from './types.js';

/** A send accepted by the queue: its tracking id now, its WhatsApp id when it is sent. */
export interface QueuedSend {
  trackingId: string;
  result: Promise<SendResult>;
}

/**
 * The SDK client: one WhatsApp account linked as a device. It owns the state machine and the
 * events, validates sends and hands them to its outbound queue; the engine does the talking and
 * the ConnectionSupervisor the (re)connecting.
 */
@injectable()
export class BotClient implements MessageOwner {
  readonly #events: SafeEmitter<ClientEvents>;
  readonly #machine: StateMachine;
  readonly #supervisor: ConnectionSupervisor;
  #lastDisconnect: ClientInfo['lastDisconnect'] = null;

  constructor(
    @inject(CLIENT_NAME) readonly name: string,
    @inject(CONFIG) private readonly config: Readonly<WakitConfig>,
    @inject(ENGINE_FACTORY) engineFactory: EngineFactory,
    @inject(SESSION_STORE) store: SessionStore,
    @inject(MEDIA_RESOLVER) private readonly media: MediaResolver,
    @inject(OUTBOUND_QUEUE) private readonly queue: OutboundQueue,
    @inject(LOGGER) private readonly log: Logger,
  ) {
    this.#events = new SafeEmitter<ClientEvents>((event, error) => {
      this.log.error({ event, err: error }, 'a %s handler of client %s threw', event, name);
      if (event !== 'error') this.#events.emit('error', { event, error });
    });
    this.#machine = new StateMachine((from, to, at) => {
      this.log.info({ from, to }, 'client %s: %s → %s', name, from, to);
      if (to === 'READY') this.queue.resume();
      else if (from === 'READY') this.queue.pause();
      this.#supervisor.notifyState(to);
      this.#events.emit('state', { from, to, at: at.toISOString() });
    });
    this.queue.pause();
    this.#supervisor = new ConnectionSupervisor({
      name,
      config,
      store,
      log,
      createEngine: async () =>
        this.#wire(await engineFactory({ clientName: name, store, logger: log })),
      machine: this.#machine,
      emit: (event, ...args) => this.#events.emit(event, ...args),
      onDisconnect: (reason) => {
        this.#lastDisconnect = { reason, at: new Date().toISOString() };
      },
    });
  }

  get state(): ClientState {
    return this.#machine.state;
  }

  on<E extends keyof ClientEvents>(event: E, handler: (...args: ClientEvents[E]) => unknown): this {
    this.#events.on(event, handler);
    return this;
  }

  once<E extends keyof ClientEvents>(
    event: E,
    handler: (...args: ClientEvents[E]) => unknown,
  ): this {
    this.#events.once(event, handler);
    return this;
  }

  off<E extends keyof ClientEvents>(
    event: E,
    handler: (...args: ClientEvents[E]) => unknown,
  ): this {
    this.#events.off(event, handler);
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
    return this.#supervisor.logout();
  }

  /** Resolves when READY; rejects on FAILED/STOPPED or after `timeoutMs` (TIMEOUT). */
  waitUntilReady(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#supervisor.waitUntilReady(options.timeoutMs ?? 60_000);
  }

  /** Links by phone number instead of QR (engines that support it); resolves to the code to type. */
  requestPairingCode(phoneNumber: string): Promise<string> {
    const digits = normalizeChatId(phoneNumber, 'phoneNumber').replace('@c.us', '');
    return this.#supervisor.requirePairingEngine().requestPairingCode(digits);
  }

  info(): ClientInfo {
    const stats = this.queue.stats();
    return {
      name: this.name,
      state: this.state,
      engine: this.config.engine.type,
      me: this.#supervisor.engine?.me() ?? null,
      since: this.#machine.enteredAt.toISOString(),
      queue: { pending: stats.pending, running: stats.running },
      lastDisconnect: this.#lastDisconnect,
    };
  }

  /** True when `memberId` is an admin of the group `groupId`. */
  isGroupAdmin(groupId: string, memberId: string): Promise<boolean> {
    return this.#supervisor.requireEngine().isGroupAdmin(groupId, memberId);
  }

  sendTextMessage(input: SendTextInput): Promise<SendResult> {
    return this.#send(() => validateText(input));
  }

  sendImageMessage(input: SendImageInput): Promise<SendResult> {
    return this.#send(() => validateMedia('image', input));
  }

  sendVideoMessage(input: SendVideoInput): Promise<SendResult> {
    return this.#send(() => validateMedia('video', input));
  }

  sendAudioMessage(input: SendAudioInput): Promise<SendResult> {
    return this.#send(() => validateMedia('audio', input));
  }

  sendDocumentMessage(input: SendDocumentInput): Promise<SendResult> {
    return this.#send(() => validateMedia('document', input));
  }

  sendStickerMessage(input: SendStickerInput): Promise<SendResult> {
    return this.#send(() => validateMedia('sticker', input));
  }

  /**
   * Validates and enqueues a send without waiting for it: the tracking id comes back at once (for
   * REST's 202), the result when the message is sent. `kind` is `text` or a media kind, `input`
   * the same object the matching `send*Message` takes.
   */
  enqueue(
    kind: 'text' | MediaKind,
    input: unknown,
    options: { priority?: SendPriority } = {},
  ): QueuedSend {
    const validated = kind === 'text' ? validateText(input) : validateMedia(kind, input);
    return this.#enqueueValidated(validated, options.priority ?? 'normal');
  }

  /** Looks up a send by its tracking id. */
  getSend(trackingId: string): TrackedSend | undefined {
    return this.queue.get(trackingId);
  }

  /** The client's outbound queue (stats, tracking updates). */
  get outbound(): OutboundQueue {
    return this.queue;
  }

  replyTo(message: MessageData, text: string): Promise<SendResult> {
    const validated = validateText({
      to: message.chatId,
      text,
      options: { quotedMessageId: message.id },
    });
    return this.#enqueueValidated(validated, 'reply').result;
  }

  forwardMessage(messageId: string, chatId: string): Promise<SendResult> {
    return this.#send(() => ({
      chatId: normalizeChatId(chatId, 'chatId'),
      content: { kind: 'forward', messageId },
    }));
  }

  async downloadMediaOf(message: MessageData): Promise<MediaData> {
    if (!message.hasMedia) {
      throw new WakitError('MEDIA_NOT_FOUND', `Message ${message.id} has no media`);
    }
    const file = await this.#supervisor.requireEngine().downloadMedia(message.id);
    return {
      data: file.data.toString('base64'),
      mimetype: file.mimetype,
      filename: file.filename ?? message.media?.filename ?? `${message.id}`,
    };
  }

  async #send(validate: () => ValidatedSend): Promise<SendResult> {
    return this.#enqueueValidated(validate(), 'normal').result;
  }

  #enqueueValidated(validated: ValidatedSend, priority: SendPriority): QueuedSend {
    const state = this.state;
    const holding = this.config.queue.holdUntilReady && state !== 'STOPPED' && state !== 'FAILED';
    if (state !== 'READY' && !holding) {
      throw new WakitError('CLIENT_NOT_READY', `Client ${this.name} is ${state}, not READY`, {
        details: { client: this.name, state },
      });
    }
    const { chatId, content } = validated;
    const { trackingId, result } = this.queue.enqueue({
      chatId,
      kind: content.kind,
      priority,
      run: () => this.#deliver(chatId, content),
    });
    return { trackingId, result: result.then(({ id }) => ({ id, trackingId })) };
  }

  async #deliver(chatId: string, content: OutgoingContent): Promise<{ id: string }> {
    const engine = this.#supervisor.requireEngine();
    if (content.kind === 'forward') return engine.forward(content.messageId, chatId);
    let engineContent: EngineContent;
    if (content.kind === 'text') {
      engineContent = content;
    } else {
      const media = await this.media.resolve(content.source, content.filename);
      engineContent = {
        kind: content.kind,
        media,
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
      };
    }
    return engine.send(chatId, engineContent);
  }

  #wire(engine: Engine): Engine {
    engine.on('message', (data) => this.#events.emit('message', new Message(data, this)));
    engine.on('message.create', (data) =>
      this.#events.emit('message.create', new Message(data, this)),
    );
    engine.on('message.ack', (update) => {
      this.queue.ackUpdate(update.messageId, update.ack);
      this.#events.emit('message.ack', update);
    });
    return engine;
  }

  /** For the kernel: stop taking sends and let the queue finish within a deadline. */
  async drain(deadlineMs: number): Promise<void> {
    const { drained, remaining } = await this.queue.drain(deadlineMs);
    if (!drained)
      this.log.warn(
        { remaining },
        'client %s: %d sends left unsent at shutdown',
        this.name,
        remaining,
      );
  }

  /** For the kernel: final teardown. */
  async close(): Promise<void> {
    await this.stop().catch((error: unknown) => {
      if (!isWakitError(error)) this.log.error({ err: toWakitError(error) }, 'stop failed');
    });
    this.queue.close();
    this.#events.removeAllListeners();
  }
}
