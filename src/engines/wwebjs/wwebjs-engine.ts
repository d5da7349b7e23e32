import { EngineEmitter } from '../engine-emitter.js';
import type { Logger } from 'pino';
import type { DisconnectReason, EngineContent, MediaFile } from '../types.js';
import { WakitError, isWakitError, toWakitError } from '../../errors/index.js';
import { systemClock, type Clock } from '../../kernel/clock.js';
import {
  engineReporter,
  type Engine,
  type EngineContext,
  type EngineIdentity,
  type EngineOps,
} from '../engine.js';
import type { AccountOps } from '../ports/account.js';
import { Attempt } from './attempt.js';
import { systemBrowserEnvironment } from './browser.js';
import { disposeClient, isProcessAlive, killProcessTree } from './dispose.js';
import type { WwebjsEngineDeps } from './engine-deps.js';
import { prepareClient } from './launch.js';
import { classifyStartFailure } from './map-errors.js';
import { LRUCache } from 'lru-cache';
import { EngineOperations } from './engine-operations.js';
import { WwebjsGroups } from './groups.js';
import { chatOps } from './chats.js';
import { contactOps } from './contacts.js';
import { callOps } from './calls.js';
import type { RemoteAuthStoreAdapter } from './remote-auth-store.js';
import type { MessageLike, WwebjsBindings, WwebjsEngineConfig } from './types.js';
import type { AttemptHost } from './attempt-host.js';
import { watchBrowser, wireClient } from './wire-client.js';
import { WwebjsActions } from './actions.js';
import { WwebjsPresence } from './presence.js';
import type { EngineProbe } from '../health.js';
import { CompatLayer, loadFixes, type LoadedFix } from './compat/index.js';
import type { EvaluatingPage } from './compat/run-in-page.js';
import { checkInboundBridge } from './inbound-bridge.js';
import { probeHealth } from './health-probe.js';
import { watchForHungPage } from './page-deadlines.js';
import { comparePin, pinMismatchError, pinnedBuild, watchRunningBuild } from './running-build.js';

type Phase = 'idle' | 'running' | 'ended' | 'stopping' | 'stopped';
const SESSION_GONE_STATES = new Set(['UNPAIRED', 'UNPAIRED_IDLE']);

const loadDefaultBindings = async (): Promise<WwebjsBindings> =>
  (await import('./default-bindings.js')).defaultBindings;

/**
 * The Engine port on whatsapp-web.js 1.34 and a system Chromium. `start()` makes one attempt:
 * it launches a whatsapp-web.js Client and resolves; whatever ends that attempt (Chromium failing
 * to launch or crashing, WhatsApp Web unreachable or not loading within `authTimeoutMs`, a
 * disconnect) cleans the browser up and is reported once as `disconnected(reason)`. The engine
 * never restarts by itself: the client's ConnectionSupervisor starts a fresh engine, with backoff.
 * The account operations (`ops`) are one object per area, each in its area's file.
 */
export class WwebjsEngine extends EngineEmitter implements Engine, AttemptHost {
  readonly type = 'whatsapp-web.js';
  readonly log: Logger;

  private phase: Phase = 'idle';
  private attempt: Attempt | null = null;
  private attemptSeq = 0;
  private bindings: WwebjsBindings | null = null;
  private fixes: Promise<LoadedFix[]> | null = null;
  /** Set on logout / session_expired: RemoteAuth may then delete the remote backup. */
  private sessionGone = false;
  private remoteAdapter: RemoteAuthStoreAdapter | null = null;
  private lastWaState: string | undefined;
  private stopping: Promise<void> | null = null;
  private readonly cleanups = new Set<Promise<void>>();
  private readonly messages: LRUCache<string, MessageLike>;
  private readonly clock: Clock;
  private readonly operations: EngineOperations;
  /** The account operations by area; this engine has health probes (`account.checkHealth`). */
  readonly ops: EngineOps & { readonly account: Required<AccountOps> };

  constructor(
    private readonly config: WwebjsEngineConfig,
    private readonly context: EngineContext,
    private readonly deps: WwebjsEngineDeps = {},
  ) {
    const log = context.logger.child({ engine: 'whatsapp-web.js', client: context.clientName });
    super(log);
    this.log = log;
    this.clock = deps.clock ?? systemClock;
    this.messages = new LRUCache({ max: deps.messageCacheSize ?? 1_000 });
    this.operations = new EngineOperations({
      current: () => this.attempt,
      messages: this.messages,
      bindings: () => this.loadBindings(),
      clock: this.clock,
      log: this.log,
      forwardIdTimeoutMs: deps.forwardIdTimeoutMs ?? 10_000,
    });
    const current = (): Attempt | null => this.attempt;
    const ready = (): Attempt => this.operations.readyAttempt();
    this.ops = {
      account: {
        requestPairingCode: (phoneNumber) => this.operations.requestPairingCode(phoneNumber),
        checkHealth: () => this.checkHealth(),
      },
      chats: chatOps(ready),
      contacts: contactOps(ready),
      groups: new WwebjsGroups(current),
      calls: callOps(ready),
      messages: { getQuoted: (messageId) => this.operations.getQuotedMessage(messageId) },
      actions: new WwebjsActions({ current, messages: this.messages, clock: this.clock }),
      presence: new WwebjsPresence(current),
    };
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Launches one attempt and resolves once `client.initialize()` is under way. Rejects with
   * BROWSER_NOT_FOUND when there is no Chromium (nothing is launched then); any later failure of
   * the attempt is a `disconnected` event.
   */
  async start(): Promise<void> {
    if (this.phase === 'running') return;
    if (this.stopping) await this.stopping;
    this.phase = 'running';
    try {
      await this.launch();
    } catch (error) {
      this.phase = 'ended';
      throw isWakitError(error) ? error : toWakitError(error, 'ENGINE_ERROR');
    }
  }

  private async launch(): Promise<void> {
    const bindings = await this.loadBindings();
    const fixes = await this.loadFixes();
    this.sessionGone = false;
    this.lastWaState = undefined;
    const { client, executablePath, remote } = await prepareClient({
      config: this.config,
      context: this.context,
      bindings,
      environment: this.deps.browserEnvironment ?? systemBrowserEnvironment(),
      auth: {
        backupSyncIntervalMs: this.deps.backupSyncIntervalMs ?? 300_000,
        mayDeleteRemote: () => this.sessionGone || SESSION_GONE_STATES.has(this.lastWaState ?? ''),
        mayWriteRemote: () => !this.sessionGone,
      },
      log: this.log,
    });
    this.remoteAdapter = remote;
    if (this.phase !== 'running') return; // stopped while preparing: never launch
    const attempt = new Attempt(++this.attemptSeq, client);
    this.attempt = attempt;
    attempt.compat = new CompatLayer(fixes, this.log, (event, error) => this.report(event, error));
    attempt.compat.attach(client);
    wireClient(attempt, this);
    watchRunningBuild(client, (build) => this.runningBuild(attempt, build));
    // no attempt number here: each launch has a new engine (its own count would say 1 every
    // time); the connection supervisor logs the reconnect attempt before it
    this.log.info({ executablePath }, 'launching whatsapp-web.js');
    attempt.initialized = client.initialize().then(
      () => {
        if (this.isLive(attempt)) this.loaded(attempt);
      },
      (error: unknown) => {
        if (!this.isLive(attempt)) return;
        this.log.error({ err: error, attempt: attempt.id }, 'whatsapp-web.js failed to start');
        this.end(attempt, classifyStartFailure(error), error);
      },
    );
    if (this.config.authTimeoutMs > 0) {
      attempt.watchdog = this.clock.setTimeout(() => {
        if (!this.isLive(attempt)) return;
        const { authTimeoutMs } = this.config;
        this.log.error({ authTimeoutMs }, 'WhatsApp Web did not load in time');
        const late = new WakitError(
          'TIMEOUT',
          `WhatsApp Web did not load within ${authTimeoutMs} ms (engine.authTimeoutMs)`,
          { details: { authTimeoutMs } },
        );
        this.end(attempt, 'connection_lost', late);
      }, this.config.authTimeoutMs);
    }
  }

  private async loadBindings(): Promise<WwebjsBindings> {
    if (this.bindings) return this.bindings;
    const source = this.deps.bindings ?? loadDefaultBindings;
    this.bindings = typeof source === 'function' ? await source() : source;
    return this.bindings;
  }

  /** The built-in compat fixes and the operator's (`engine.compat.extra`); CONFIG_INVALID if bad. */
  private loadFixes(): Promise<LoadedFix[]> {
    this.fixes ??= loadFixes(this.config.compat, this.deps.baseDir ?? process.cwd());
    this.fixes.catch(() => (this.fixes = null));
    return this.fixes;
  }

  /** Probes the page's capabilities and the compat fixes (a READY attempt; else all broken). */
  private async checkHealth(): Promise<EngineProbe> {
    const attempt = this.attempt;
    const page = attempt?.ready ? (attempt.client.pupPage as EvaluatingPage | null) : null;
    const compat = attempt?.compat ? await attempt.compat.probe() : [];
    const fixes = await this.loadFixes();
    const probe = await probeHealth(
      page?.evaluate ? page : null,
      compat,
      fixes,
      pinnedBuild(this.config),
    );
    probe.capabilities['events.inbound'] = await checkInboundBridge(attempt!, {
      clock: this.clock,
      log: this.log,
      options: this.config.inboundCheck,
    });
    return probe;
  }

  /**
   * A page loaded and whatsapp-web.js read its build: compared with the pin. A mismatch is a
   * warning (and the health's `pin`); with `engine.webVersionStrict` the attempt fails for good.
   */
  private runningBuild(attempt: Attempt, build: string | null): void {
    if (!this.isLive(attempt)) return;
    const pin = comparePin(pinnedBuild(this.config), build);
    const changed = attempt.pin?.running !== pin.running;
    attempt.pin = pin;
    if (pin.status !== 'mismatch') {
      if (changed) this.log.info({ pin }, 'WhatsApp Web %s loaded', build ?? '(unknown build)');
      return;
    }
    if (this.config.webVersionStrict) {
      this.failed(attempt, pinMismatchError(this.context.clientName, pin));
      return;
    }
    if (changed) {
      this.log.warn(
        { pinned: pin.pinned, running: pin.running },
        'WhatsApp Web runs %s, not the pinned %s (an archive miss loaded the live page, or a ' +
          'service worker served another build); engine.webVersionStrict would refuse it',
        pin.running,
        pin.pinned,
      );
    }
  }

  /** Destroys the client (never logs out) and waits until no Chromium of ours is left. */
  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = this.shutdown().finally(() => {
      this.stopping = null;
    });
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.phase = 'stopping';
    if (this.attempt) this.retire(this.attempt);
    await Promise.allSettled([...this.cleanups]);
    this.attempt = null;
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
      this.clearWatchdog(attempt);
      attempt.unwatchBrowser();
      try {
        await attempt.client.logout();
      } catch (error) {
        // the session is deleted here anyway; the phone may still list the device
        this.report('logout', error);
      }
    }
    await this.stop();
    await this.remoteAdapter?.idle();
    await this.context.store.delete(this.context.clientName);
  }

  // ---------------------------------------------------------------- AttemptHost

  /** A background failure: to the error sink (EngineContext.report), source engine. */
  report(event: string, error: unknown): void {
    engineReporter(this.context)(event, error);
  }

  isLive(attempt: Attempt): boolean {
    return attempt.listening && this.attempt === attempt && this.phase === 'running';
  }

  loaded(attempt: Attempt): void {
    this.clearWatchdog(attempt);
    watchBrowser(attempt, this);
    this.watchDeadlines(attempt);
  }

  /** A READY page whose calls time out in a row is hung: the attempt ends (page-deadlines.ts). */
  private watchDeadlines(attempt: Attempt): void {
    const { protocolTimeoutMs, hungPage } = this.config;
    const onHung = (hung: WakitError): void => {
      if (!this.isLive(attempt)) return;
      this.log.error({ details: hung.details }, hung.message);
      this.end(attempt, 'connection_lost', hung);
    };
    watchForHungPage(attempt, this.clock, protocolTimeoutMs, onHung, hungPage);
  }

  end(attempt: Attempt, reason: DisconnectReason, cause?: unknown): void {
    if (reason === 'logout' || reason === 'session_expired') this.sessionGone = true;
    this.retire(attempt);
    this.phase = 'ended';
    this.fire('disconnected', reason, cause);
  }

  authFailed(attempt: Attempt, error: WakitError): void {
    this.retire(attempt);
    this.phase = 'ended';
    this.fire('auth_failure', error);
  }

  failed(attempt: Attempt, error: WakitError): void {
    this.log.error({ code: error.code, details: error.details }, error.message);
    this.retire(attempt);
    this.phase = 'ended';
    this.fire('failed', error);
  }

  remember(message: MessageLike): void {
    this.messages.set(message.id._serialized, message);
  }

  ownId(): string | undefined {
    return this.attempt?.identity?.id;
  }

  now(): number {
    return this.clock.now();
  }

  setWaState(state: string): void {
    this.lastWaState = state;
  }

  /** Stops listening to an attempt and destroys its client (and browser) in the background. */
  private retire(attempt: Attempt): void {
    if (attempt.disposed) return;
    attempt.retired = true;
    attempt.disposed = true;
    this.clearWatchdog(attempt);
    attempt.unwatchBrowser();
    attempt.rejectWaiters();
    attempt.identity = null;
    const cleanup = disposeClient(attempt.client, {
      initialized: attempt.initialized,
      timeoutMs: this.deps.destroyTimeoutMs ?? 10_000,
      logger: this.log,
      kill: this.deps.killProcess ?? killProcessTree,
      isAlive: this.deps.isProcessAlive ?? isProcessAlive,
    }).catch((error: unknown) => this.report('dispose', error));
    this.cleanups.add(cleanup);
    void cleanup.finally(() => this.cleanups.delete(cleanup));
  }

  private clearWatchdog(attempt: Attempt): void {
    if (attempt.watchdog) this.clock.clearTimeout(attempt.watchdog);
    attempt.watchdog = undefined;
  }

  // ---------------------------------------------------------------- operations

  send(chatId: string, content: EngineContent): Promise<{ id: string }> {
    return this.operations.send(chatId, content);
  }

  forward(messageId: string, chatId: string): Promise<{ id: string }> {
    return this.operations.forward(messageId, chatId);
  }

  downloadMedia(messageId: string): Promise<MediaFile> {
    return this.operations.downloadMedia(messageId);
  }

  me(): EngineIdentity | null {
    const identity = this.attempt?.identity;
    return identity ? { ...identity } : null;
  }
}
