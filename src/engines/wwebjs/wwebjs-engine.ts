import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { DisconnectReason, EngineContent, MediaFile } from '../../client/types.js';
import { RECOVERABLE_REASONS } from '../../client/types.js';
import { WakitError, isWakitError, toWakitError } from '../../errors/index.js';
import { systemClock, type Clock } from '../../kernel/clock.js';
import type {
  Engine,
  EngineContext,
  EngineEventName,
  EngineEvents,
  EngineIdentity,
} from '../engine.js';
import { createAuthStrategy } from './auth-strategy.js';
import { buildClientOptions } from './client-options.js';
import {
  resolveExecutablePath,
  systemBrowserEnvironment,
  type BrowserEnvironment,
} from './browser.js';
import { disposeClient, isProcessAlive, killProcessTree, type ProcessKiller } from './dispose.js';
import { classifyStartFailure, mapDisconnectReason } from './map-errors.js';
import { toAckUpdate, toMessageData } from './map-message.js';
import { LruMap } from './message-cache.js';
import {
  downloadMessageMedia,
  findMessage,
  isGroupAdmin,
  pairingDigits,
  forwardMessage,
  resolveTarget,
  sendContent,
} from './operations.js';
import { RestartPolicy } from './restart-policy.js';
import type { RemoteAuthStoreAdapter } from './remote-auth-store.js';
import type { ClientLike, MessageLike, WwebjsBindings, WwebjsEngineConfig } from './types.js';
import { Attempt } from './attempt.js';

export interface WwebjsEngineDeps {
  /** whatsapp-web.js bindings or a loader of them; the real library (loaded on first start) by default. */
  bindings?: WwebjsBindings | (() => Promise<WwebjsBindings>);
  browserEnvironment?: BrowserEnvironment;
  clock?: Clock;
  /** RemoteAuth backup period (`auth.backupIntervalMs`); at least 60 s. */
  backupSyncIntervalMs?: number;
  /** Recent whatsapp-web.js messages kept for forward/downloadMedia (default 1000). */
  messageCacheSize?: number;
  /** Time allowed to `destroy()` (and to a launching browser) before the process is killed. */
  destroyTimeoutMs?: number;
  /** Time to wait for the `message_create` of a forwarded message, to learn its id. */
  forwardIdTimeoutMs?: number;
  killProcess?: ProcessKiller;
  isProcessAlive?: (pid: number) => boolean;
}

type Phase = 'idle' | 'running' | 'stopping' | 'stopped';
const SESSION_GONE_STATES = new Set(['UNPAIRED', 'UNPAIRED_IDLE']);

const loadDefaultBindings = async (): Promise<WwebjsBindings> =>
  (await import('./default-bindings.js')).defaultBindings;

/**
 * The Engine port on whatsapp-web.js 1.34 and a system Chromium. One `Attempt` per launch of a
 * whatsapp-web.js `Client`; failures of an attempt become `disconnected` events and restarts with
 * capped exponential backoff (RestartPolicy); after `maxRestarts` consecutive failures the engine
 * gives up with `auth_failure(ENGINE_ERROR)`.
 */
export class WwebjsEngine extends EventEmitter implements Engine {
  readonly type = 'whatsapp-web.js';

  private phase: Phase = 'idle';
  private attempt: Attempt | null = null;
  private attemptSeq = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private identity: EngineIdentity | null = null;
  private bindings: WwebjsBindings | null = null;
  /** Set on logout / session_expired: RemoteAuth may then delete the remote backup. */
  private sessionGone = false;
  private remoteAdapter: RemoteAuthStoreAdapter | null = null;
  private lastWaState: string | undefined;
  private stopping: Promise<void> | null = null;
  private readonly cleanups = new Set<Promise<void>>();
  private readonly messages: LruMap<string, MessageLike>;
  private readonly policy: RestartPolicy;
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(
    private readonly config: WwebjsEngineConfig,
    private readonly context: EngineContext,
    private readonly deps: WwebjsEngineDeps = {},
  ) {
    super();
    this.clock = deps.clock ?? systemClock;
    this.log = context.logger.child({ engine: 'whatsapp-web.js', client: context.clientName });
    this.messages = new LruMap(deps.messageCacheSize ?? 1_000);
    this.policy = new RestartPolicy({
      maxRestarts: config.maxRestarts,
      initialMs: config.restartBackoffMs.initial,
      maxMs: config.restartBackoffMs.max,
    });
  }

  override on<E extends EngineEventName>(
    event: E,
    listener: (...args: EngineEvents[E]) => void,
  ): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  override off<E extends EngineEventName>(
    event: E,
    listener: (...args: EngineEvents[E]) => void,
  ): this {
    return super.off(event, listener as (...args: unknown[]) => void);
  }

  private fire<E extends EngineEventName>(event: E, ...args: EngineEvents[E]): void {
    try {
      this.emit(event, ...args);
    } catch (error) {
      this.log.error({ err: error, event }, 'engine event listener threw');
    }
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<void> {
    if (this.phase === 'running') return;
    if (this.stopping) await this.stopping;
    this.phase = 'running';
    this.policy.succeed();
    try {
      await this.launch();
    } catch (error) {
      this.phase = 'stopped';
      throw isWakitError(error) ? error : toWakitError(error, 'ENGINE_ERROR');
    }
  }

  /** Prepares and launches one attempt; `initialize()` then runs in the background. */
  private async launch(): Promise<void> {
    const environment = this.deps.browserEnvironment ?? systemBrowserEnvironment();
    const executablePath = resolveExecutablePath(this.config, environment);
    const bindings = await this.loadBindings();
    this.sessionGone = false;
    this.lastWaState = undefined;
    const auth = await createAuthStrategy(bindings, this.context, {
      backupSyncIntervalMs: this.deps.backupSyncIntervalMs ?? 300_000,
      mayDeleteRemote: () => this.sessionGone || SESSION_GONE_STATES.has(this.lastWaState ?? ''),
      mayWriteRemote: () => !this.sessionGone,
    });
    this.remoteAdapter = auth.remote ?? null;
    if (this.phase !== 'running') return;
    const client = bindings.createClient(
      buildClientOptions(
        this.config,
        {
          authStrategy: auth.strategy,
          workDir: auth.workDir,
          executablePath,
          isRoot: environment.isRoot,
        },
        this.log,
      ),
    );
    const attempt = new Attempt(++this.attemptSeq, client);
    this.attempt = attempt;
    this.attachClient(attempt);
    this.log.info({ attempt: attempt.id, executablePath }, 'launching whatsapp-web.js');
    attempt.initialized = client.initialize().then(
      () => this.onInitialized(attempt),
      (error: unknown) => this.onAttemptFailed(attempt, error, classifyStartFailure(error)),
    );
    if (this.config.authTimeoutMs > 0) {
      attempt.watchdog = this.clock.setTimeout(() => {
        this.onAttemptFailed(
          attempt,
          new Error(`WhatsApp Web did not load within ${this.config.authTimeoutMs} ms`),
          'connection_lost',
        );
      }, this.config.authTimeoutMs);
    }
  }

  private async loadBindings(): Promise<WwebjsBindings> {
    if (this.bindings) return this.bindings;
    const source = this.deps.bindings ?? loadDefaultBindings;
    this.bindings = typeof source === 'function' ? await source() : source;
    return this.bindings;
  }

  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = this.shutdown().finally(() => {
      this.stopping = null;
    });
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.phase = 'stopping';
    this.clearRestart();
    if (this.attempt) this.retire(this.attempt);
    await Promise.allSettled([...this.cleanups]);
    this.attempt = null;
    this.identity = null;
    this.messages.clear();
    this.phase = 'stopped';
  }

  /**
   * `client.logout()` (unlinks the device; LocalAuth/RemoteAuth delete their copy), then stop, then
   * delete the session through the store as well, so that it is gone even when WhatsApp could not
   * be told (not linked, no network).
   */
  async logout(): Promise<void> {
    this.sessionGone = true;
    const attempt = this.attempt;
    if (attempt && !attempt.retired && attempt.client.pupPage) {
      attempt.muted = true; // events fired while logging out are ours, not news
      this.clearTimers(attempt);
      attempt.unwatchBrowser();
      try {
        await attempt.client.logout();
      } catch (error) {
        this.log.warn(
          { err: error },
          'logging out on WhatsApp failed; the session is deleted anyway',
        );
      }
    }
    await this.stop();
    await this.remoteAdapter?.idle();
    await this.context.store.delete(this.context.clientName);
  }

  // ---------------------------------------------------------------- attempts

  private attachClient(attempt: Attempt): void {
    const { client } = attempt;
    const live =
      <A extends unknown[]>(handler: (...args: A) => void) =>
      (...args: A): void => {
        if (!attempt.listening || this.attempt !== attempt) return;
        try {
          handler(...args);
        } catch (error) {
          this.log.error({ err: error }, 'handling a whatsapp-web.js event failed');
        }
      };
    client.on(
      'qr',
      live((qr: string) => {
        attempt.sawQr = true;
        this.clearWatchdog(attempt);
        this.watchBrowser(attempt);
        this.fire('qr', qr);
      }),
    );
    client.on(
      'authenticated',
      live(() => {
        attempt.authenticated = true;
        this.clearWatchdog(attempt);
        this.watchBrowser(attempt);
        this.fire('authenticated', { restored: !attempt.sawQr });
      }),
    );
    client.on(
      'auth_failure',
      live((message: unknown) => {
        this.log.error({ message: String(message) }, 'whatsapp-web.js authentication failed');
        this.retire(attempt);
        this.phase = 'stopped';
        this.fire(
          'auth_failure',
          new WakitError('AUTH_FAILED', `Authentication failed: ${String(message)}`),
        );
      }),
    );
    client.on(
      'ready',
      live(() => {
        attempt.ready = true;
        this.clearWatchdog(attempt);
        this.watchBrowser(attempt);
        this.policy.succeed();
        const info = client.info;
        if (info) this.identity = { id: info.wid._serialized, pushname: info.pushname ?? '' };
        this.fire('ready');
      }),
    );
    client.on(
      'message',
      live((message: MessageLike) => {
        this.remember(message);
        this.fire('message', toMessageData(message, this.identity?.id));
      }),
    );
    client.on(
      'message_create',
      live((message: MessageLike) => {
        this.remember(message);
        attempt.notifyCreated(message);
        this.fire('message_create', toMessageData(message, this.identity?.id));
      }),
    );
    client.on(
      'message_ack',
      live((message: MessageLike, ack: number) => {
        this.fire('message_ack', toAckUpdate(message, ack));
      }),
    );
    client.on(
      'change_state',
      live((state: string) => this.onStateChange(attempt, state)),
    );
    client.on(
      'disconnected',
      live((reason: unknown) => {
        const mapped = mapDisconnectReason(reason);
        this.log.warn({ reason: String(reason), mapped }, 'whatsapp-web.js disconnected');
        this.endAttempt(attempt, mapped);
      }),
    );
  }

  /** `change_state` TIMEOUT while READY: WhatsApp Web reconnects by itself; we pause meanwhile. */
  private onStateChange(attempt: Attempt, state: string): void {
    this.lastWaState = state;
    if (state === 'TIMEOUT' && attempt.ready && !attempt.suspended) {
      attempt.suspended = true;
      this.fire('disconnected', 'connection_lost');
      const grace = Math.max(this.config.authTimeoutMs, 30_000);
      attempt.suspendTimer = this.clock.setTimeout(() => {
        if (attempt.retired || !attempt.suspended) return;
        this.log.warn('WhatsApp Web did not reconnect; restarting');
        this.retire(attempt);
        this.scheduleOrGiveUp();
      }, grace);
    } else if (state === 'CONNECTED' && attempt.suspended) {
      attempt.suspended = false;
      if (attempt.suspendTimer) this.clock.clearTimeout(attempt.suspendTimer);
      this.fire('authenticated', { restored: true });
      this.fire('ready');
    }
  }

  private onInitialized(attempt: Attempt): void {
    if (attempt.retired) return;
    this.clearWatchdog(attempt);
    this.watchBrowser(attempt);
  }

  /** Puppeteer browser `disconnected`, page `error`/`close` while we did not ask for it. */
  private watchBrowser(attempt: Attempt): void {
    attempt.watchBrowser(() => {
      if (!attempt.listening || this.attempt !== attempt) return;
      this.log.error('Chromium went away');
      this.endAttempt(attempt, 'browser_crashed');
    });
  }

  private onAttemptFailed(attempt: Attempt, error: unknown, reason: DisconnectReason): void {
    if (!attempt.listening || this.attempt !== attempt) return;
    this.log.error({ err: error, reason, attempt: attempt.id }, 'whatsapp-web.js failed to start');
    this.endAttempt(attempt, reason);
  }

  /** The attempt is over: clean it up, tell the client, and restart when the reason allows it. */
  private endAttempt(attempt: Attempt, reason: DisconnectReason): void {
    if (reason === 'logout' || reason === 'session_expired') this.sessionGone = true;
    this.retire(attempt);
    // a suspended attempt already reported connection_lost
    if (!(attempt.suspended && reason === 'connection_lost')) this.fire('disconnected', reason);
    if (this.phase !== 'running') return;
    if (RECOVERABLE_REASONS.has(reason)) this.scheduleOrGiveUp();
    else this.phase = 'stopped';
  }

  private scheduleOrGiveUp(): void {
    const decision = this.policy.fail();
    if (decision.retry) {
      this.log.info(
        { delayMs: decision.delayMs, attempt: decision.attempt },
        'restarting whatsapp-web.js',
      );
      this.restartTimer = this.clock.setTimeout(() => {
        this.restartTimer = null;
        this.relaunch();
      }, decision.delayMs);
      return;
    }
    this.phase = 'stopped';
    const restarts = this.config.maxRestarts;
    this.log.error({ restarts }, 'whatsapp-web.js gave up');
    this.fire(
      'auth_failure',
      new WakitError('ENGINE_ERROR', `whatsapp-web.js gave up after ${restarts} restarts`, {
        details: { restarts, failures: decision.failures },
      }),
    );
  }

  private relaunch(): void {
    if (this.phase !== 'running') return;
    this.launch().catch((error: unknown) => {
      if (this.phase !== 'running') return;
      this.log.error({ err: error }, 'whatsapp-web.js could not be relaunched');
      if (isWakitError(error, 'BROWSER_NOT_FOUND')) {
        this.phase = 'stopped';
        this.fire('auth_failure', error);
        return;
      }
      this.fire('disconnected', classifyStartFailure(error));
      this.scheduleOrGiveUp();
    });
  }

  /** Stops listening to an attempt and destroys its client (and browser) in the background. */
  private retire(attempt: Attempt): void {
    if (attempt.disposed) return;
    attempt.retired = true;
    attempt.disposed = true;
    this.clearTimers(attempt);
    attempt.unwatchBrowser();
    attempt.rejectWaiters();
    const cleanup = disposeClient(attempt.client, {
      initialized: attempt.initialized,
      timeoutMs: this.deps.destroyTimeoutMs ?? 10_000,
      logger: this.log,
      kill: this.deps.killProcess ?? killProcessTree,
      isAlive: this.deps.isProcessAlive ?? isProcessAlive,
    }).catch((error: unknown) =>
      this.log.error({ err: error }, 'disposing whatsapp-web.js failed'),
    );
    this.cleanups.add(cleanup);
    void cleanup.finally(() => this.cleanups.delete(cleanup));
    if (this.attempt === attempt) this.identity = null;
  }

  private clearWatchdog(attempt: Attempt): void {
    if (attempt.watchdog) this.clock.clearTimeout(attempt.watchdog);
    attempt.watchdog = undefined;
  }

  private clearTimers(attempt: Attempt): void {
    this.clearWatchdog(attempt);
    if (attempt.suspendTimer) this.clock.clearTimeout(attempt.suspendTimer);
    attempt.suspendTimer = undefined;
  }

  private clearRestart(): void {
    if (this.restartTimer) this.clock.clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  private remember(message: MessageLike): void {
    this.messages.set(message.id._serialized, message);
  }

  // ---------------------------------------------------------------- operations

  private readyClient(): { client: ClientLike; attempt: Attempt } {
    const attempt = this.attempt;
    if (!attempt || attempt.retired || !attempt.ready || attempt.suspended) {
      throw new WakitError('CLIENT_NOT_READY', 'whatsapp-web.js is not connected');
    }
    return { client: attempt.client, attempt };
  }

  async send(chatId: string, content: EngineContent): Promise<{ id: string }> {
    const { client } = this.readyClient();
    const sent = await sendContent(
      client,
      await this.loadBindings(),
      chatId,
      content,
      this.identity?.id,
    );
    this.remember(sent);
    return { id: sent.id._serialized };
  }

  async forward(messageId: string, chatId: string): Promise<{ id: string }> {
    const { client, attempt } = this.readyClient();
    const message = await findMessage(client, this.messages.get(messageId), messageId);
    const target = await resolveTarget(client, chatId, this.identity?.id);
    const created = attempt.waitForCreated(
      target,
      this.deps.forwardIdTimeoutMs ?? 10_000,
      this.clock,
    );
    const id = await forwardMessage(client, message, target, created);
    if (!id) this.log.warn({ messageId, chatId }, 'forwarded, but its id was not seen');
    return { id };
  }

  async downloadMedia(messageId: string): Promise<MediaFile> {
    const { client } = this.readyClient();
    let message: MessageLike;
    try {
      message = await findMessage(client, this.messages.get(messageId), messageId);
    } catch (error) {
      if (!isWakitError(error, 'MESSAGE_NOT_FOUND')) throw error;
      throw new WakitError('MEDIA_NOT_FOUND', `Message ${messageId} not found`, {
        details: { messageId },
        cause: error,
      });
    }
    return downloadMessageMedia(message);
  }

  me(): EngineIdentity | null {
    return this.identity ? { ...this.identity } : null;
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    const digits = pairingDigits(phoneNumber);
    const attempt = this.attempt;
    if (!attempt || attempt.retired || !attempt.client.pupPage || attempt.authenticated) {
      throw new WakitError(
        'INVALID_STATE',
        'A pairing code can be requested only while the client waits to be linked',
      );
    }
    try {
      return await attempt.client.requestPairingCode(digits, true);
    } catch (error) {
      throw new WakitError('ENGINE_ERROR', 'whatsapp-web.js could not get a pairing code', {
        cause: error,
      });
    }
  }

  async isGroupAdmin(groupId: string, memberId: string): Promise<boolean> {
    const { client } = this.readyClient();
    return isGroupAdmin(client, groupId, memberId);
  }
}
