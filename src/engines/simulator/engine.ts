/**
 * One client's connection to the virtual network, behind the Engine port. Phases:
 * idle/stopped → starting → qr (showing codes) | restoring → linking → ready. Every asynchronous
 * step checks `generation`, so nothing happens after stop(); every timer is tracked and cleared.
 */
import { EngineEmitter } from '../engine-emitter.js';
import { WakitError } from '../../errors/index.js';
import type { DisconnectReason, EngineContent, MediaFile } from '../types.js';
import {
  engineReporter,
  type Engine,
  type EngineContext,
  type EngineIdentity,
  type EngineOps,
} from '../engine.js';
import type { CallData } from '../ports/calls.js';
import type { PollVote } from '../ports/messages.js';
import { fireGroupEvent } from './groups.js';
import type { SimGroupEvent } from './types.js';
import type { SimAccount, SimRecord } from './account.js';
import type { SimulatorNetwork } from './network.js';
import { incomingMessage, ownMessage } from './messages.js';
import {
  decodeSession,
  derivePhone,
  encodeSession,
  makePairingCode,
  makeQr,
  newToken,
  toNumber,
} from './ids.js';
import type { SimSession } from './ids.js';
import type { SimActionNotice } from './action-types.js';
import type { SimDevice } from './device.js';
import { outgoing, type OutgoingPorts } from './outgoing.js';
import { simulatorOps } from './engine-ops.js';
import type { EngineProbe } from '../health.js';

type Phase = 'idle' | 'starting' | 'qr' | 'linking' | 'ready' | 'stopped';

/**
 * The port's operations live in their own files, on a `SimDevice` view of the engine: what it sends
 * (outgoing.ts) and what it does on its account (`ops`, engine-ops.ts).
 */
export class SimulatorEngine extends EngineEmitter implements Engine {
  readonly type = 'simulator';
  readonly ops: EngineOps;
  private readonly outgoing: OutgoingPorts;
  private phase: Phase = 'idle';
  private generation = 0;
  /** The link under way (its session write): stop() and logout() wait for it, so none lands later. */
  private linking: Promise<void> = Promise.resolve();
  private readonly timers = new Map<NodeJS.Timeout, (() => void) | undefined>();
  private qr: string | null = null;
  private qrShown = 0;
  private account: SimAccount | null = null;
  private identity: EngineIdentity | null = null;
  private session: SimSession | null = null;

  constructor(
    private readonly network: SimulatorNetwork,
    private readonly context: EngineContext,
  ) {
    super(context.logger.child({ engine: 'simulator', client: context.clientName }));
    const device: SimDevice = {
      network,
      engine: this,
      ready: () => this.ensureReady(),
      after: (ms, fn) => this.after(ms, fn),
      sleep: (ms) => this.sleep(ms),
    };
    this.outgoing = outgoing(device);
    this.ops = simulatorOps(device, {
      requestPairingCode: (phoneNumber) => this.requestPairingCode(phoneNumber),
      checkHealth: () => this.checkHealth(),
    });
  }

  send(chatId: string, content: EngineContent): Promise<{ id: string }> {
    return this.outgoing.send(chatId, content);
  }

  forward(messageId: string, chatId: string): Promise<{ id: string }> {
    return this.outgoing.forward(messageId, chatId);
  }

  downloadMedia(messageId: string): Promise<MediaFile> {
    return this.outgoing.downloadMedia(messageId);
  }

  private get name(): string {
    return this.context.clientName;
  }

  private get config() {
    return this.network.config;
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────────

  async start(): Promise<void> {
    if (this.phase !== 'idle' && this.phase !== 'stopped') return;
    const gen = ++this.generation;
    this.phase = 'starting';
    let bytes: Buffer | null;
    try {
      bytes = await this.context.store.read(this.name);
    } catch (cause) {
      if (gen === this.generation) this.phase = 'stopped';
      throw new WakitError('ENGINE_ERROR', `could not read the saved session of "${this.name}"`, {
        cause,
      });
    }
    if (gen !== this.generation) return;
    if (bytes) await this.restore(bytes, gen);
    else this.showQr();
  }

  stop(): Promise<void> {
    this.halt('stopped');
    return this.linking;
  }

  async logout(): Promise<void> {
    if (this.session) this.network.revoked.add(this.session.token);
    this.session = null;
    this.halt('stopped');
    await this.linking;
    await this.context.store.delete(this.name);
  }

  /** The simulated build's capabilities (`sdk.simulator.build`); ENGINE_ERROR while not connected. */
  private checkHealth(): Promise<EngineProbe> {
    if (this.phase !== 'ready') {
      return Promise.reject(new WakitError('ENGINE_ERROR', `"${this.name}" is not connected`));
    }
    return Promise.resolve(this.network.build.probe());
  }

  me(): EngineIdentity | null {
    return this.phase === 'ready' ? this.identity : null;
  }

  private halt(phase: Phase): void {
    this.generation += 1;
    this.phase = phase;
    for (const [timer, cancel] of this.timers) {
      clearTimeout(timer);
      cancel?.();
    }
    this.timers.clear();
    if (this.qr) this.network.qrs.delete(this.qr);
    this.qr = null;
    this.account?.devices.delete(this);
  }

  // ── linking ──────────────────────────────────────────────────────────────────────────────────

  private async restore(bytes: Buffer, gen: number): Promise<void> {
    const session = decodeSession(bytes);
    if (this.network.failAuthNext.delete(this.name) || !session) {
      this.halt('stopped');
      const why = session
        ? 'the phone refused the saved session'
        : 'the saved session is not a simulator session';
      this.fire(
        'auth_failure',
        new WakitError('AUTH_FAILED', `authentication of "${this.name}" failed: ${why}`),
      );
      return;
    }
    if (this.network.revoked.has(session.token)) {
      this.context.logger.info(
        { client: this.name },
        'saved simulator session was revoked; showing a QR code',
      );
      await this.context.store.delete(this.name);
      if (gen === this.generation) this.showQr();
      return;
    }
    await this.link(session, true, gen);
  }

  private showQr(): void {
    this.phase = 'qr';
    this.qrShown = 0;
    this.nextQr();
    const { autoScanMs } = this.config;
    if (autoScanMs !== undefined && this.phase === 'qr') {
      this.after(autoScanMs, () => {
        if (this.phase === 'qr') this.acceptScan({ phone: this.config.autoScanPhone });
      });
    }
  }

  private nextQr(): void {
    if (this.qr) this.network.qrs.delete(this.qr);
    this.qr = null;
    if (this.qrShown >= this.config.qrMaxRetries) {
      this.halt('stopped');
      this.fire('disconnected', 'qr_timeout');
      return;
    }
    this.qrShown += 1;
    const qr = makeQr(this.network.random);
    this.qr = qr;
    this.network.qrs.set(qr, this);
    this.after(this.config.qrRefreshMs, () => this.nextQr());
    this.fire('qr', qr);
  }

  /** @internal The network saw our QR scanned (or auto-scan fired). */
  acceptScan(opts: { phone?: string; pushname?: string }): void {
    if (this.phase !== 'qr')
      throw new WakitError('QR_NOT_AVAILABLE', `"${this.name}" is not waiting for a scan`);
    const number = opts.phone === undefined ? derivePhone(this.name) : toNumber(opts.phone);
    if (!number) throw new WakitError('VALIDATION_FAILED', `"${opts.phone}" is not a phone number`);
    this.beginLink({ number, pushname: opts.pushname ?? this.name, token: newToken() });
  }

  private beginLink(session: SimSession): void {
    this.halt('linking');
    const gen = this.generation;
    this.linking = this.link(session, false, gen).catch((error: unknown) =>
      this.report('link', error),
    );
  }

  private async link(session: SimSession, restored: boolean, gen: number): Promise<void> {
    if (this.network.banned.has(session.number)) {
      this.halt('stopped');
      this.fire('disconnected', 'banned');
      return;
    }
    this.phase = 'linking';
    if (!restored) {
      try {
        await this.context.store.write(this.name, encodeSession(session));
      } catch (error) {
        this.report('session.save', error);
      }
      if (gen !== this.generation) return;
    }
    this.session = session;
    this.account = this.network.account(session.number, session.pushname);
    this.identity = { id: this.account.id, pushname: session.pushname };
    this.phase = 'ready';
    this.account.devices.add(this);
    this.fire('authenticated', { restored });
    if (gen === this.generation) this.fire('ready');
  }

  private report(event: string, error: unknown): void {
    engineReporter(this.context)(event, error);
  }

  private async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.phase !== 'qr') {
      throw new WakitError(
        'INVALID_STATE',
        `"${this.name}" can only pair while waiting to be linked`,
      );
    }
    const number = toNumber(phoneNumber);
    if (!number)
      throw new WakitError('VALIDATION_FAILED', `"${phoneNumber}" is not a phone number`);
    const code = makePairingCode(this.network.random);
    this.halt('linking');
    const gen = this.generation;
    // The person types the code on the phone: modelled as linking after autoScanMs (default 0).
    this.after(this.config.autoScanMs ?? 0, () => {
      this.link({ number, pushname: this.name, token: newToken() }, false, gen).catch(
        (error: unknown) => this.report('pairing', error),
      );
    });
    return Promise.resolve(code);
  }

  /** @internal Network-side disconnection (see SimulatorNetwork.disconnect). */
  dropConnection(reason: DisconnectReason): void {
    if (this.phase === 'idle' || this.phase === 'stopped') {
      throw new WakitError('INVALID_STATE', `"${this.name}" is not running`);
    }
    const session = this.session;
    this.halt('stopped');
    if (reason === 'banned' && session) this.network.banned.add(session.number);
    if ((reason === 'session_expired' || reason === 'logout') && session) {
      this.network.revoked.add(session.token);
      this.session = null;
      this.context.store.delete(this.name).then(
        () => this.fire('disconnected', reason),
        (error: unknown) => {
          this.context.logger.error(
            { err: error, client: this.name },
            'could not delete the expired session',
          );
          this.fire('disconnected', reason);
        },
      );
      return;
    }
    this.fire('disconnected', reason);
  }

  // ── what reaches this device (the network calls these) ────────────────────────────────────────

  /** @internal A message reached our account: the lean inbound path. */
  receiveInbound(record: SimRecord, sender: SimAccount): void {
    const message = incomingMessage(record, this.account?.id ?? '', sender, this.account);
    this.fire('message', message);
    this.fire('message.create', message);
  }

  /** @internal Our account wrote from its phone: the message shows here as our own. */
  receiveOwn(record: SimRecord, account: SimAccount): void {
    this.fire('message.create', ownMessage(record, account));
  }

  /** @internal Someone reacted, edited or revoked in a chat of our account. */
  receiveAction(notice: SimActionNotice): void {
    if (notice.event === 'message.reaction') this.fire(notice.event, notice.update);
    else if (notice.event === 'message.edit') this.fire(notice.event, notice.update);
    else if (notice.event === 'chat.state') this.fire(notice.event, notice.update);
    else this.fire(notice.event, notice.update);
  }

  /** @internal A group event for our account (we are a member). */
  receiveGroupEvent(event: SimGroupEvent): void {
    fireGroupEvent(this, event);
  }

  /** @internal Someone calls our account. */
  receiveCall(call: CallData): void {
    this.fire('call', call);
  }

  /** @internal Someone voted on a poll of a chat of our account. */
  receiveVote(vote: PollVote): void {
    this.fire('poll.vote', vote);
  }

  private ensureReady(): SimAccount {
    if (this.phase !== 'ready' || !this.account) {
      throw new WakitError('CLIENT_NOT_READY', `"${this.name}" is not linked and ready`);
    }
    return this.account;
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────────────

  private after(ms: number, fn: () => boolean | void, cancel?: () => void): void {
    const timer = setTimeout(() => {
      if (fn() === true) timer.refresh();
      else this.timers.delete(timer);
    }, ms);
    this.timers.set(timer, cancel);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.after(ms, resolve, () =>
        reject(new WakitError('CLIENT_NOT_READY', `"${this.name}" stopped while sending`)),
      );
    });
  }
}
