/**
 * Recurring jobs of plugins (`ctx.schedule`, docs/scheduling.md "Recurring jobs"). Cron expressions
 * and time zones are read by croner (used only to compute firing times: it starts no timer); the
 * timers are the kernel's clock, so a `VirtualClock` drives them in tests. Each firing is claimed in
 * the ScheduleStore first: on one server every claim succeeds, in a fleet the first node wins, so a
 * firing runs once per fleet. A job whose handler still runs when its next firing comes skips that
 * firing (on this node; in a fleet the store's running mark makes the other nodes skip it too).
 */
import { Cron } from 'croner';
import type { Logger } from 'pino';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import type {
  CatchUp,
  ScheduleHandler,
  ScheduleInfo,
  ScheduleOptions,
  ScheduleStore,
} from './schedule-types.js';

const MAX_DELAY_MS = 2_147_483_647;
/** How long a job's running mark lasts without renewal (a node that died mid-run). */
export const SCHEDULE_HOLD_MS = 60_000;
/** A firing's claim lasts at least this long, or two periods of the job. */
const MIN_CLAIM_MS = 60_000;
const MAX_CLAIM_MS = 7 * 24 * 3_600_000;
/** How long `sdk.stop()` waits for job handlers that still run. */
const CLOSE_WAIT_MS = 10_000;

interface Job {
  readonly plugin: string;
  readonly name: string;
  readonly id: string;
  readonly cron: Cron;
  readonly spec: string;
  readonly timezone: string;
  readonly catchUp: CatchUp;
  readonly handler: ScheduleHandler;
  timer: NodeJS.Timeout | undefined;
  next: number | undefined;
  /** The last run this node knows of (the store's may be later: another node's, or not written yet). */
  lastRun: number | undefined;
  running: boolean;
  removed: boolean;
}

export interface SchedulerDeps {
  clock: Clock;
  /** Where firings are claimed (a fleet's store arrives with its lazily loaded code). */
  store: () => ScheduleStore | Promise<ScheduleStore>;
  report: (report: ErrorReport) => void;
  logger: Logger;
}

export class Scheduler {
  readonly #deps: SchedulerDeps;
  readonly #log: Logger;
  readonly #jobs = new Map<string, Job>();
  /** Firings in progress (claim, handler, record). */
  readonly #inFlight = new Set<Promise<void>>();
  #started = false;
  #closed = false;

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
    this.#log = deps.logger.child({ component: 'schedules' });
  }

  /** Adds a job of `plugin` (VALIDATION_FAILED for a bad expression, zone or duplicate name). */
  add(
    plugin: string,
    spec: string,
    handler: ScheduleHandler,
    options: ScheduleOptions = {},
  ): () => void {
    const fail = (message: string, details: Record<string, unknown> = {}): never => {
      throw new WakitError('VALIDATION_FAILED', `Plugin ${plugin}: schedule: ${message}`, {
        details: { plugin, cron: spec, ...details },
      });
    };
    if (typeof spec !== 'string' || spec.trim() === '') fail('needs a cron expression');
    if (typeof handler !== 'function') fail('needs a handler function');
    const name = options.name ?? spec;
    const catchUp = options.catchUp ?? 'none';
    if (catchUp !== 'none' && catchUp !== 'last') fail(`catchUp must be 'none' or 'last'`);
    const timezone = options.timezone ?? 'UTC';
    const id = `${plugin}:${name}`;
    if (this.#jobs.has(id)) fail(`a job named ${JSON.stringify(name)} exists already`, { name });
    let cron: Cron;
    try {
      cron = new Cron(spec, { timezone });
      cron.nextRun(new Date(this.#deps.clock.now()));
    } catch (error) {
      // converted: croner's message says what is wrong with the expression or the zone
      return fail(error instanceof Error ? error.message : String(error), { timezone });
    }
    const job: Job = {
      plugin,
      name,
      id,
      cron,
      spec,
      timezone,
      catchUp,
      handler,
      timer: undefined,
      next: undefined,
      lastRun: undefined,
      running: false,
      removed: false,
    };
    this.#jobs.set(id, job);
    if (this.#started) void this.#begin(job);
    return () => {
      job.removed = true;
      this.#disarm(job);
      this.#jobs.delete(id);
    };
  }

  /** Arms every job: catch-up first (`catchUp: 'last'`), then each one's next firing. */
  async start(): Promise<void> {
    this.#started = true;
    await Promise.all([...this.#jobs.values()].map((job) => this.#begin(job)));
  }

  /**
   * Stops firing, then waits for the firings in progress (their handlers and records) up to
   * `waitMs`; a handler still running after that finishes on its own.
   */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    this.#closed = true;
    for (const job of this.#jobs.values()) this.#disarm(job);
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.#inFlight),
      new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** Every job with its next firing and its last run (read from the store). */
  async list(): Promise<ScheduleInfo[]> {
    const store = await this.#deps.store();
    const jobs = [...this.#jobs.values()];
    const lastRuns = await Promise.all(jobs.map((job) => store.lastRun(job.id)));
    return jobs.map((job, i) => {
      const next = this.#started ? job.next : job.cron.nextRun(new Date(this.#deps.clock.now()));
      const stored = lastRuns[i];
      const last =
        stored === undefined || (job.lastRun !== undefined && job.lastRun > stored)
          ? job.lastRun
          : stored;
      return {
        plugin: job.plugin,
        name: job.name,
        cron: job.spec,
        timezone: job.timezone,
        catchUp: job.catchUp,
        nextRun: next === undefined || next === null ? null : new Date(next).toISOString(),
        lastRun: last === undefined ? null : new Date(last).toISOString(),
        running: job.running,
      };
    });
  }

  async #begin(job: Job): Promise<void> {
    const now = this.#deps.clock.now();
    this.#arm(job, now);
    try {
      const store = await this.#deps.store();
      // firings before the job was first seen were not missed
      const since = await store.since(job.id, now);
      if (job.catchUp !== 'last') return;
      const last = Math.max(since, (await store.lastRun(job.id)) ?? since);
      const missed = job.cron.previousRuns(1, new Date(now))[0]?.getTime();
      // started, not awaited: a long catch-up run does not hold up sdk.start()
      if (missed !== undefined && missed > last) void this.#fire(job, missed, true);
    } catch (error) {
      this.#report(job, error);
    }
  }

  #arm(job: Job, from: number): void {
    this.#disarm(job);
    if (this.#closed || job.removed) return;
    const next = job.cron.nextRun(new Date(from))?.getTime();
    job.next = next;
    if (next === undefined) return;
    this.#wait(job, next);
  }

  #wait(job: Job, at: number): void {
    const delay = Math.min(Math.max(0, at - this.#deps.clock.now()), MAX_DELAY_MS);
    job.timer = this.#deps.clock.setTimeout(() => this.#due(job, at), delay);
    job.timer.unref?.();
  }

  #disarm(job: Job): void {
    if (job.timer) this.#deps.clock.clearTimeout(job.timer);
    job.timer = undefined;
  }

  #due(job: Job, at: number): void {
    job.timer = undefined;
    if (this.#closed || job.removed) return;
    const now = this.#deps.clock.now();
    // a timer that fired early, or a delay longer than one timer can wait
    if (now < at) return this.#wait(job, at);
    this.#arm(job, Math.max(at, now));
    void this.#fire(job, at, false);
  }

  /** Runs one firing; never rejects (failures are reported). */
  #fire(job: Job, at: number, catchUp: boolean): Promise<void> {
    const firing = this.#claimAndRun(job, at, catchUp);
    this.#inFlight.add(firing);
    void firing.finally(() => this.#inFlight.delete(firing));
    return firing;
  }

  async #claimAndRun(job: Job, at: number, catchUp: boolean): Promise<void> {
    if (job.running) {
      this.#log.warn(
        { plugin: job.plugin, job: job.name, firingAt: new Date(at).toISOString() },
        'schedule %s: still running, firing skipped',
        job.id,
      );
      return;
    }
    job.running = true;
    let store: ScheduleStore | undefined;
    let renew: NodeJS.Timeout | undefined;
    try {
      store = await this.#deps.store();
      if (!(await store.claim(job.id, at, this.#claimMs(job, at), SCHEDULE_HOLD_MS))) return;
      const held = store;
      const keep = (): void => {
        renew = this.#deps.clock.setTimeout(() => {
          held.renew(job.id, SCHEDULE_HOLD_MS).catch((error: unknown) => this.#report(job, error));
          keep();
        }, SCHEDULE_HOLD_MS / 3);
        renew.unref?.();
      };
      keep();
      try {
        await job.handler({ name: job.name, firingAt: new Date(at), catchUp });
      } catch (error) {
        this.#report(job, error);
      }
      if (renew) this.#deps.clock.clearTimeout(renew);
      renew = undefined;
      job.lastRun = Math.max(at, job.lastRun ?? at);
      // this node may run the next firing now; the store's mark goes once finish() wrote it
      job.running = false;
      await store.finish(job.id, at);
    } catch (error) {
      this.#report(job, error);
    } finally {
      if (renew) this.#deps.clock.clearTimeout(renew);
      job.running = false;
    }
  }

  /** A firing's claim outlives the window in which another node might still try it. */
  #claimMs(job: Job, at: number): number {
    const next = job.cron.nextRun(new Date(at))?.getTime();
    const period = next === undefined ? 0 : next - at;
    return Math.min(Math.max(MIN_CLAIM_MS, 2 * period), MAX_CLAIM_MS);
  }

  #report(job: Job, error: unknown): void {
    this.#deps.report({
      source: 'plugin',
      plugin: job.plugin,
      event: `schedule:${job.name}`,
      error,
    });
  }
}
