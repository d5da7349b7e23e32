import type { Clock } from '../../kernel/clock.js';
import type { EngineIdentity } from '../engine.js';
import type { BrowserLike, ClientLike, MessageLike, PageLike } from './types.js';
import { CallBook } from './calls.js';
import type { CompatLayer } from './compat/index.js';
import type { PinCheck } from '../health.js';

export interface CreatedWaiter {
  chatId: string;
  promise: Promise<MessageLike | null>;
  resolve(message: MessageLike | null): void;
  timer?: NodeJS.Timeout;
}

/**
 * One launch of a whatsapp-web.js Client and what the engine knows about it. An engine runs one
 * attempt per `start()`; when it fails the engine reports it once (`disconnected`) and the client's
 * ConnectionSupervisor decides whether to start a fresh engine.
 */
export class Attempt {
  sawQr = false;
  authenticated = false;
  ready = false;
  /** The linked account, known once READY. */
  identity: EngineIdentity | null = null;
  /** No longer current: its events are ignored. */
  retired = false;
  /** Events are ignored for a while (e.g. during logout) without retiring. */
  muted = false;
  disposed = false;
  /** Calls offered during this attempt (`ops.calls.reject` finds them here). */
  readonly calls = new CallBook();
  /** Fails the attempt when WhatsApp Web does not load within `authTimeoutMs`. */
  watchdog: NodeJS.Timeout | undefined;
  /** Settles (never rejects) once `initialize()` has settled and been handled. */
  initialized: Promise<void> = Promise.resolve();
  /** The compat fixes installed into this attempt's page. */
  compat: CompatLayer | null = null;
  /** The pin against the build the page reported at its last load (running-build.ts). */
  pin: PinCheck | null = null;
  /**
   * The page load (CompatLayer.pageLoads) whose `authenticated` / `ready` the engine took: each is
   * taken at most once per page load (a resync or a replayed synced event re-emits both).
   */
  authenticatedOnLoad: number | null = null;
  readyOnLoad: number | null = null;
  /** Clock time of the last message event (or of READY): the inbound check's silence. */
  lastMessageAt = 0;
  /** Page reloads the inbound check made (inbound-bridge.ts). */
  bridgeReloads = 0;

  private browser: BrowserLike | null = null;
  private page: PageLike | null = null;
  private onGone: (() => void) | null = null;
  private readonly waiters = new Set<CreatedWaiter>();

  constructor(
    readonly id: number,
    readonly client: ClientLike,
  ) {}

  get listening(): boolean {
    return !this.retired && !this.muted;
  }

  /** Calls `onGone` once when the browser disconnects or the page crashes or closes. */
  watchBrowser(onGone: () => void): void {
    if (!this.onGone) {
      let fired = false;
      this.onGone = () => {
        if (fired) return;
        fired = true;
        onGone();
      };
    }
    const gone = this.onGone;
    const { pupBrowser, pupPage } = this.client;
    if (pupBrowser && this.browser !== pupBrowser) {
      this.browser = pupBrowser;
      pupBrowser.on('disconnected', gone);
    }
    if (pupPage && this.page !== pupPage) {
      this.page = pupPage;
      pupPage.on('error', gone);
      pupPage.on('close', gone);
    }
  }

  unwatchBrowser(): void {
    if (!this.onGone) return;
    this.browser?.off?.('disconnected', this.onGone);
    this.page?.off?.('error', this.onGone);
    this.page?.off?.('close', this.onGone);
    this.browser = null;
    this.page = null;
  }

  /** Resolves with the next own message created in `chatId`, or null after `timeoutMs`. */
  waitForCreated(chatId: string, timeoutMs: number, clock: Clock): CreatedWaiter {
    let resolve!: (message: MessageLike | null) => void;
    const promise = new Promise<MessageLike | null>((r) => {
      resolve = r;
    });
    const waiter: CreatedWaiter = {
      chatId,
      promise,
      resolve: (message) => {
        if (waiter.timer) clock.clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        resolve(message);
      },
    };
    waiter.timer = clock.setTimeout(() => waiter.resolve(null), timeoutMs);
    this.waiters.add(waiter);
    return waiter;
  }

  notifyCreated(message: MessageLike): void {
    if (!message.fromMe) return;
    for (const waiter of this.waiters) {
      if (waiter.chatId === message.to) {
        waiter.resolve(message);
        return;
      }
    }
  }

  /** The attempt ended: pending waits resolve with null. */
  rejectWaiters(): void {
    for (const waiter of [...this.waiters]) waiter.resolve(null);
  }
}
