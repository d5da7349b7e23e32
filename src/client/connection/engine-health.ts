import type { Logger } from 'pino';
import { WakitError, isWakitError } from '../../errors/index.js';
import type { Engine } from '../../engines/engine.js';
import {
  CAPABILITIES,
  allCapabilities,
  capabilitiesFor,
  type Capability,
  type EngineHealth,
  type EngineProbe,
} from '../../engines/health.js';
import type { Clock } from '../../kernel/clock.js';

export interface EngineHealthDeps {
  client: string;
  engine(): Engine | null;
  clock: Clock;
  /** Time between checks while READY; 0: only after READY and on demand. */
  intervalMs: number;
  log: Logger;
  /**
   * A check found another status, build, set of broken capabilities or pin status (the first
   * check too).
   */
  changed(health: EngineHealth): void;
  /** Held sends (ENGINE_INCOMPATIBLE) now. */
  held(): number;
  /** Puts the held sends back in the queue (a repaired capability, or an operator's retry). */
  retryHeld(): void;
}

/**
 * The engine health of one client: probes the engine after READY, every `intervalMs` while READY
 * and on demand (`check`), keeps the last result for `info()`, and says which sends cannot be made
 * on this build (`blocked`): ENGINE_INCOMPATIBLE, naming the capability and the build.
 */
export class EngineHealthMonitor {
  #current: EngineHealth | null = null;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<EngineHealth | null> | null = null;

  constructor(private readonly deps: EngineHealthDeps) {}

  get current(): EngineHealth | null {
    return this.#current;
  }

  /** READY: check now, then on the timer. */
  start(): void {
    this.stop();
    // not reported: a probe that fails has no verdict; the next one asks again
    void this.check().catch((error: unknown) =>
      this.deps.log.debug({ err: error }, 'the engine health probe failed'),
    );
    const { intervalMs, clock } = this.deps;
    if (intervalMs <= 0) return;
    const tick = (): void => {
      this.#timer = clock.setTimeout(() => {
        // not reported: a probe that fails has no verdict; the next tick asks again
        void this.check()
          .catch(() => undefined)
          .finally(() => this.#timer !== undefined && tick());
      }, intervalMs);
      this.#timer.unref?.();
    };
    tick();
  }

  /** Left READY: no more timed checks (the last result is kept). */
  stop(): void {
    if (this.#timer !== undefined) this.deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Probes now (concurrent callers share one probe); null when the engine has no probes. */
  check(): Promise<EngineHealth | null> {
    this.#running ??= this.#probe().finally(() => (this.#running = null));
    return this.#running;
  }

  /**
   * An engine ended its attempt because a capability stopped answering (a hung page: a WakitError
   * cause with `details.reason: 'page_hung'` and `details.capability`): that capability is
   * degraded now, with the reason, until the next check (after READY) finds it answering again.
   */
  degradedBy(cause: unknown): void {
    if (!isWakitError(cause) || cause.details?.reason !== 'page_hung') return;
    const capability = cause.details.capability as Capability;
    if (!CAPABILITIES.includes(capability)) return;
    const before = this.#current;
    const capabilities = before ? { ...before.capabilities } : allCapabilities();
    const detail = cause.details.detail;
    capabilities[capability] = {
      ok: false,
      detail: typeof detail === 'string' ? detail : cause.message,
    };
    this.#record(
      {
        build: before?.build ?? null,
        library: before?.library ?? null,
        compat: before?.compat ?? [],
        capabilities,
        ...(before?.pin ? { pin: before.pin } : {}),
      },
      before,
    );
  }

  /** ENGINE_INCOMPATIBLE when a capability `kind` needs is known broken; else undefined. */
  blocked(kind: string): WakitError | undefined {
    const health = this.#current;
    if (!health || health.status === 'ok') return undefined;
    const capability = capabilitiesFor(kind).find((name) => !health.capabilities[name].ok);
    return capability ? incompatible(this.deps.client, kind, capability, health) : undefined;
  }

  /** Checks, then puts the held sends back in the queue; resolves to how many were held. */
  async retryHeld(): Promise<number> {
    const held = this.deps.held();
    // not reported: a probe without a verdict; a repair found here retries them already
    await this.check().catch(() => undefined);
    this.deps.retryHeld();
    return held;
  }

  /** After an engine failure: probe again, then `blocked(kind)`. */
  async recheck(kind: string): Promise<WakitError | undefined> {
    try {
      await this.check();
    } catch (error) {
      // not reported: the send's own failure is the answer; this probe only had no verdict
      this.deps.log.debug({ err: error }, 'the health probe after a failed send failed');
    }
    return this.blocked(kind);
  }

  async #probe(): Promise<EngineHealth | null> {
    const engine = this.deps.engine();
    if (!engine?.ops.account.checkHealth) return null;
    const probe = await engine.ops.account.checkHealth();
    return this.#record(probe, this.#current);
  }

  #record(probe: EngineProbe, before: EngineHealth | null): EngineHealth {
    const broken = CAPABILITIES.filter((name) => !probe.capabilities[name].ok);
    const health: EngineHealth = {
      ...probe,
      status: broken.length > 0 ? 'degraded' : 'ok',
      broken,
      checkedAt: new Date(this.deps.clock.now()).toISOString(),
    };
    this.#current = health;
    if (!before || signature(before) !== signature(health)) {
      if (health.status === 'degraded') {
        this.deps.log.warn(
          { build: health.build, broken: health.broken, library: health.library },
          'client %s: the engine is degraded on this WhatsApp Web build',
          this.deps.client,
        );
      }
      if (health.pin?.status === 'mismatch') {
        this.deps.log.warn(
          { pinned: health.pin.pinned, running: health.pin.running },
          'client %s: the pin does not hold: WhatsApp Web %s runs, not the pinned %s',
          this.deps.client,
          health.pin.running,
          health.pin.pinned,
        );
      }
      this.deps.changed(health);
    }
    if (before?.broken.some((name) => !broken.includes(name))) {
      this.deps.log.info(
        { build: health.build },
        'client %s: capabilities repaired',
        this.deps.client,
      );
      this.deps.retryHeld();
    }
    return health;
  }
}

const signature = (health: EngineHealth): string =>
  `${health.status}|${health.build ?? ''}|${health.broken.join(',')}|${health.pin?.status ?? ''}`;

function incompatible(
  client: string,
  kind: string,
  capability: Capability,
  health: EngineHealth,
): WakitError {
  const build = health.build ?? 'unknown';
  const detail = health.capabilities[capability].detail;
  return new WakitError(
    'ENGINE_INCOMPATIBLE',
    `Client ${client} cannot send ${kind} on WhatsApp Web ${build}: ${capability} is broken` +
      `${detail ? ` (${detail})` : ''}. The send is held in the outbox; retry held sends after ` +
      `upgrading wakit or pinning a working engine.webVersion (docs/engines.md)`,
    {
      details: {
        client,
        kind,
        capability,
        build,
        ...(health.library ? { library: health.library } : {}),
        held: true,
      },
    },
  );
}
