import type { Logger } from 'pino';
import type { WakitConfig } from '../../config/schema.js';
import { WakitError, isWakitError, toWakitError } from '../../errors/index.js';
import type { Engine } from '../../engines/engine.js';
import { systemClock, type Clock } from '../../kernel/clock.js';
import type { ErrorSink } from '../../kernel/error-sink.js';
import type { SessionLease, SessionStore } from '../../auth/session-store.js';
import type { ClientEvents } from '../client-events.js';
import type { StateMachine } from '../core/state-machine.js';
import { ReadyWaiter } from './ready-waiter.js';
import { classifyFailure } from './failure-ladder.js';
import { ReconnectSchedule, type ReconnectInfo } from './reconnect-schedule.js';
import { RECOVERABLE_REASONS, type ClientState, type DisconnectReason } from '../types.js';

export interface SupervisorOptions {
  name: string;
  config: Readonly<WakitConfig>;
  store: SessionStore;
  log: Logger;
  /** Engine failures are reported here (the SDK's error sink). */
  errors: ErrorSink;
  createEngine: () => Promise<Engine>;
  machine: StateMachine;
  emit: <E extends keyof ClientEvents>(event: E, ...args: ClientEvents[E]) => void;
  /** `cause`: what the engine said ended the attempt (a hung page names its capability). */
  onDisconnect: (reason: DisconnectReason, cause?: unknown) => void;
  /** Timers and time (the kernel's CLOCK); the system clock when absent. */
  clock?: Clock;
  /** Jitter source of the reconnect backoff; `Math.random` when absent. */
  random?: () => number;
}

const RUNNING: ReadonlySet<ClientState> = new Set([
  'STARTING',
  'SCAN_QR',
  'AUTHENTICATED',
  'READY',
]);

const SETTLED: ReadonlySet<ClientState> = new Set(['READY', 'FAILED', 'STOPPED']);

/**
 * Drives one client's connection through the client state table (state-machine.ts): starts engines, maps
 * their lifecycle events to states, reconnects after recoverable disconnects with capped
 * exponential backoff and jitter (the `reconnect` config section; how long by the cause's rung on
 * the reconnect ladder, failure-ladder.ts: the network and WhatsApp unreachable until cured), holds the session lease, and deletes the session only on logout or expiry.
 * Each (re)start gets a fresh engine; events of an engine that was replaced are ignored.
 */
export class ConnectionSupervisor {
  engine: Engine | null = null;
  #lease: SessionLease | null = null;
  /** The lease being taken now, if any. */
  #acquiring: Promise<SessionLease> | undefined;
  readonly #clock: Clock;
  readonly #reconnect: ReconnectSchedule;
  #lastError: WakitError | null = null;
  /** The last failed (re)start since the client was last READY: named when reconnects give up. */
  #lastStartFailure: WakitError | null = null;
  #epoch = 0;
  /** A teardown after a failure (`failed`), which `stop()` waits for: no browser left behind. */
  #background: Promise<void> = Promise.resolve();
  readonly #ready: ReadyWaiter;

  constructor(private readonly o: SupervisorOptions) {
    this.#clock = o.clock ?? systemClock;
    this.#ready = new ReadyWaiter({
      name: o.name,
      clock: this.#clock,
      state: () => this.state,
      lastError: () => this.#lastError,
    });
    this.#reconnect = new ReconnectSchedule({
      name: o.name,
      config: o.config.reconnect,
      clock: this.#clock,
      log: o.log,
      ...(o.random ? { random: o.random } : {}),
    });
  }

  private get state(): ClientState {
    return this.o.machine.state;
  }

  /**
   * While reconnecting (DISCONNECTED, or an attempt under way): why, and when the latest attempt
   * was (or the next is) due; null once READY, FAILED or STOPPED.
   */
  get reconnecting(): ReconnectInfo | null {
    return SETTLED.has(this.state) ? null : this.#reconnect.info;
  }

  async initialize(): Promise<void> {
    if (RUNNING.has(this.state)) return;
    this.#reconnect.reset();
    this.#lastError = null;
    this.#lastStartFailure = null;
    this.o.machine.transition('STARTING');
    const epoch = ++this.#epoch;
    await this.#acquireLease(epoch);
    if (epoch === this.#epoch) await this.#startEngine(epoch);
  }

  async stop(): Promise<void> {
    this.#epoch++;
    this.#reconnect.reset();
    // a lease being taken now is released by #acquireLease; wait for it (another node may take it)
    await this.#acquiring?.then(
      (lease) => lease.release(),
      // not reported: #acquireLease reports a lease it could not take
      () => undefined,
    );
    const wasRunning = this.state !== 'STOPPED';
    // not reported: #teardown's own failures are the engine's to report
    await this.#background.catch(() => undefined);
    await this.#teardown();
    await this.#releaseLease();
    if (this.state !== 'STOPPED') this.o.machine.transition('STOPPED');
    if (wasRunning) this.#disconnected('stopped');
  }

  async logout(): Promise<void> {
    this.#epoch++;
    this.#reconnect.reset();
    const engine = this.engine;
    this.engine = null;
    if (engine) {
      await engine.logout().catch((error: unknown) => {
        this.o.log.warn(
          { err: toWakitError(error) },
          'client %s: engine logout failed',
          this.o.name,
        );
        return engine.stop();
      });
    }
    await this.o.store.delete(this.o.name);
    await this.#releaseLease();
    if (this.state !== 'STOPPED') this.o.machine.transition('STOPPED');
    this.#disconnected('logout');
  }

  waitUntilReady(timeoutMs: number): Promise<void> {
    return this.#ready.wait(timeoutMs);
  }

  /** The client reports every state change here, to settle `waitUntilReady`. */
  notifyState(to: ClientState): void {
    this.#ready.notify(to);
  }

  requireEngine(): Engine {
    if (!this.engine) {
      throw new WakitError('CLIENT_NOT_READY', `Client ${this.o.name} is ${this.state}`, {
        details: { state: this.state },
      });
    }
    return this.engine;
  }

  /** Pairing by phone happens while waiting for a QR. */
  requirePairingEngine(): Engine {
    if (this.state !== 'SCAN_QR' && this.state !== 'STARTING') {
      throw new WakitError(
        'INVALID_STATE',
        `Pairing needs a client waiting to be linked; ${this.o.name} is ${this.state}`,
      );
    }
    return this.requireEngine();
  }

  async #acquireLease(epoch: number): Promise<void> {
    const auth = this.o.config.auth;
    for (;;) {
      try {
        const acquiring = this.o.store.acquire(this.o.name, {
          onLost: (error) => this.#onLeaseLost(epoch, error),
        });
        this.#acquiring = acquiring;
        const lease = await acquiring.finally(() => {
          if (this.#acquiring === acquiring) this.#acquiring = undefined;
        });
        if (epoch !== this.#epoch) {
          // stopped while the lease was being taken: give it back at once
          // not reported: best effort; a lease not given back lapses after its ttl
          await lease.release().catch(() => undefined);
          return;
        }
        this.#lease = lease;
        return;
      } catch (error) {
        const leased = isWakitError(error, 'SESSION_LEASED');
        if (
          !leased ||
          auth.type !== 'remote' ||
          auth.lease.onLeased === 'fail' ||
          epoch !== this.#epoch
        ) {
          const failed = toWakitError(error, 'ENGINE_ERROR');
          this.#report('session', 'lease', failed);
          this.#fail(failed);
          throw failed;
        }
        const retryInMs = auth.lease.retryMs;
        this.o.log.warn(
          { code: 'SESSION_LEASED', details: error.details, retryInMs },
          'client %s: session is leased by another server, waiting',
          this.o.name,
        );
        this.o.emit('session.leased', { ...error.details, retryInMs });
        await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, retryInMs));
        if (epoch !== this.#epoch) return;
      }
    }
  }

  /** Another server took the session over: stop running it here at once. */
  #onLeaseLost(epoch: number, error: Error): void {
    if (epoch !== this.#epoch) return;
    this.#epoch++;
    this.#lease = null;
    this.#reconnect.cancel();
    const lost = new WakitError('SESSION_LEASED', `Lost the session lease: ${error.message}`, {
      cause: error,
    });
    this.#report('session', 'lease.lost', lost);
    // not reported: the lost lease is; the engine is being dropped either way
    void this.#teardown().catch(() => undefined);
    this.#fail(lost);
  }

  async #releaseLease(): Promise<void> {
    const lease = this.#lease;
    this.#lease = null;
    await lease
      ?.release()
      .catch((error: unknown) => this.#report('session', 'lease.release', error));
  }

  async #startEngine(epoch: number): Promise<void> {
    let engine: Engine | null = null;
    try {
      engine = await this.o.createEngine();
      if (epoch !== this.#epoch) return;
      this.engine = engine;
      this.#watch(engine);
      await engine.start();
    } catch (error) {
      if (epoch !== this.#epoch || (engine && this.engine !== engine)) return;
      const wrapped = toWakitError(error, 'ENGINE_ERROR');
      this.o.errors.report({
        source: 'engine',
        event: 'start',
        client: this.o.name,
        error: wrapped,
      });
      if (!wrapped.transient) {
        this.#lastError = wrapped;
        await this.#teardown();
        await this.#releaseLease();
        this.#fail(wrapped);
        throw wrapped;
      }
      this.#lastStartFailure = wrapped;
      if (engine) this.#onDisconnected(engine, 'connection_lost', wrapped);
    }
  }

  #watch(engine: Engine): void {
    const current = (): boolean => this.engine === engine;
    engine.on('qr', (qr) => {
      if (!current()) return;
      this.o.machine.transition('SCAN_QR');
      this.o.emit('qr', qr);
    });
    engine.on('authenticated', ({ restored }) => {
      if (!current()) return;
      this.o.machine.transition('AUTHENTICATED');
      this.o.emit('authenticated', {
        client: this.o.name,
        at: new Date(this.#clock.now()).toISOString(),
        restored,
        me: engine.me(),
      });
    });
    engine.on('ready', () => {
      if (!current()) return;
      this.#reconnect.reset();
      this.#lastStartFailure = null;
      this.o.machine.transition('READY');
      this.o.emit('ready');
    });
    engine.on('auth_failure', (error) => {
      if (!current()) return;
      this.#lastError = error;
      this.o.emit('auth_failure', error);
      void this.#teardown().then(() => this.#releaseLease());
      this.#fail(error);
    });
    engine.on('failed', (error) => {
      if (!current()) return;
      this.#report('engine', 'failed', error); // logged there, once
      this.#background = this.#teardown().then(() => this.#releaseLease());
      this.#fail(error);
    });
    engine.on('disconnected', (reason, cause) => this.#onDisconnected(engine, reason, cause));
  }

  #onDisconnected(engine: Engine, reason: DisconnectReason, cause?: unknown): void {
    if (this.engine !== engine || reason === 'stopped') return;
    this.#disconnected(reason, cause);
    this.engine = null;
    const stopped = engine
      .stop()
      .catch((error: unknown) => this.#report('engine', `stop:${reason}`, error));
    const error = cause === undefined ? null : toWakitError(cause, 'ENGINE_ERROR');
    if (error) this.#lastStartFailure = error;
    const classified = classifyFailure({ reason, error: cause });
    if (RECOVERABLE_REASONS.has(reason) && classified.rung !== 'fail') {
      this.#scheduleReconnect(stopped, reason, classified);
      return;
    }
    const cleanup =
      reason === 'session_expired' || reason === 'logout'
        ? stopped.then(() => this.o.store.delete(this.o.name))
        : stopped;
    void cleanup
      .then(() => this.#releaseLease())
      .catch((error: unknown) =>
        this.o.errors.report({
          source: 'engine',
          event: `cleanup:${reason}`,
          client: this.o.name,
          error,
        }),
      );
    if (reason === 'session_expired' || reason === 'logout') {
      this.o.machine.transition('STOPPED');
    } else if (error && RECOVERABLE_REASONS.has(reason)) {
      this.#fail(error); // a cause no retry cures (failure-ladder.ts)
    } else {
      this.#fail(
        new WakitError(
          reason === 'banned' ? 'AUTH_FAILED' : 'ENGINE_ERROR',
          `Disconnected: ${reason}`,
          { details: { reason } },
        ),
      );
    }
  }

  #scheduleReconnect(
    after: Promise<void>,
    reason: DisconnectReason,
    classified: ReturnType<typeof classifyFailure>,
  ): void {
    const epoch = this.#epoch;
    const gaveUp = this.#reconnect.schedule(
      { reason, classified, error: this.#lastStartFailure },
      () =>
        void after.then(async () => {
          if (epoch !== this.#epoch || this.state !== 'DISCONNECTED') return;
          this.o.machine.transition('STARTING');
          // not reported: #startEngine reported it (and the state is FAILED)
          await this.#startEngine(epoch).catch(() => undefined);
        }),
    );
    // after scheduling: the DISCONNECTED state event sees the reconnect info (client info)
    this.o.machine.transition('DISCONNECTED');
    if (gaveUp) {
      this.#fail(gaveUp);
      void after.then(() => this.#releaseLease());
    }
  }

  #report(source: 'engine' | 'session', event: string, error: unknown): void {
    this.o.errors.report({ source, event, client: this.o.name, error });
  }

  #fail(error: WakitError): void {
    this.#lastError = error;
    if (this.state !== 'FAILED' && this.state !== 'STOPPED') this.o.machine.transition('FAILED');
  }

  #disconnected(reason: DisconnectReason, cause?: unknown): void {
    this.o.onDisconnect(reason, cause);
    this.o.emit('disconnected', reason);
  }

  async #teardown(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    await engine?.stop();
  }
}
