/**
 * Recurring jobs of plugins (`ctx.schedule`, docs/scheduling.md "Recurring jobs"): the options a
 * plugin passes, what its handler receives, what `sdk.plugins.schedules()` lists, and the store the
 * scheduler claims firings in (one server: memory and a file; a fleet: Redis, src/cluster).
 */

/** What happens to firings missed while the bot was down (or its clock jumped). */
export type CatchUp = 'none' | 'last';

/** `ctx.schedule(spec, handler, options)`. */
export interface ScheduleOptions {
  /**
   * The job's name, unique within the plugin; the fleet claims each firing by (plugin, name,
   * firing time). Default: the cron expression itself.
   */
  name?: string;
  /** IANA time zone the expression is read in (`Europe/Berlin`); default UTC. */
  timezone?: string;
  /**
   * Firings missed while the bot was down: `none` (default) skips them; `last` runs the most
   * recent one once at start when it has not run (anywhere in the fleet).
   */
  catchUp?: CatchUp;
}

/** What a job's handler receives for one firing. */
export interface ScheduleRun {
  /** The job's name. */
  readonly name: string;
  /** The firing's scheduled time (not when the handler started). */
  readonly firingAt: Date;
  /** True when this run catches up a firing missed while the bot was down (`catchUp: 'last'`). */
  readonly catchUp: boolean;
}

/** A recurring job's handler; a throw or rejection is reported like a handler's failure. */
export type ScheduleHandler = (run: ScheduleRun) => unknown;

/** One recurring job, as `sdk.plugins.schedules()` and `GET /api/v1/schedules` list it. */
export interface ScheduleInfo {
  plugin: string;
  name: string;
  /** The cron expression. */
  cron: string;
  timezone: string;
  catchUp: CatchUp;
  /** ISO 8601 time of the next firing; null when the expression never fires again. */
  nextRun: string | null;
  /** ISO 8601 firing time of the last run (in a fleet: on any node); null before the first. */
  lastRun: string | null;
  /** Whether this node is running the job's handler now. */
  running: boolean;
}

/**
 * Where firings are claimed and last runs kept. One server: every claim succeeds (the scheduler
 * itself skips a job whose handler is still running). A fleet: the first node to claim a firing
 * runs it, and no node claims one while another still runs the job.
 */
export interface ScheduleStore {
  /**
   * Claims the firing of `job` at `firingAt` for this node: false when another node has, or the job
   * still runs elsewhere. The claim is kept `claimMs`; the job's running mark `holdMs` (renewed
   * while the handler runs, so a node that dies mid-run blocks the job for at most that long).
   */
  claim(job: string, firingAt: number, claimMs: number, holdMs: number): Promise<boolean>;
  /** The job's run of `firingAt` finished: records it as the last run and clears the running mark. */
  finish(job: string, firingAt: number): Promise<void>;
  /** Keeps the job's running mark alive for another `holdMs` (a long handler). */
  renew(job: string, holdMs: number): Promise<void>;
  /** The firing time of the job's last run, if any. */
  lastRun(job: string): Promise<number | undefined>;
  /**
   * When the job was first seen: records `at` unless a time is recorded already, and returns the
   * recorded one (firings before it were not missed: the job did not exist).
   */
  since(job: string, at: number): Promise<number>;
}
