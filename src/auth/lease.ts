import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bucket } from '@google-cloud/storage';
import type { Logger } from 'pino';
import { WakitError, isWakitError } from '../errors/index.js';
import { systemClock, type Clock } from '../kernel/clock.js';
import { callSafely } from '../kernel/listeners.js';
import type { AcquireOptions, SessionLease, SessionStore } from './session-store.js';
import { deleteObject, readRecord, writeRecord } from './gcs-record.js';
import { gcsStatus } from './gcs-status.js';

/** The content of `<path>/<client>/lease.json`. Times are ISO 8601 (UTC). */
export interface LeaseRecord {
  /** Who holds it: in a fleet the node id, else `<hostname>:<pid>:<random>`. */
  holder: string;
  expiresAt: string;
  acquiredAt: string;
  /** In a fleet: the holder node's REST URL (requests for the client are forwarded there). */
  url?: string;
}

export interface GcsLeaseOptions {
  bucket: Bucket;
  /** Full object name of the lease, e.g. `wakit/sessions/alice/lease.json`. */
  object: string;
  client: string;
  holder: string;
  /** The holder's address, written into the record when known (a fleet node's REST URL). */
  holderUrl?: () => string;
  ttlMs: number;
  renewMs: number;
  logger: Logger;
  clock?: Clock;
  onLost?: AcquireOptions['onLost'];
}

/** A holder id unique to this process: `<hostname>:<pid>:<random>`. */
export function defaultHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** `{ url }` when the holder has an address, else nothing. */
function urlOf(options: GcsLeaseOptions): { url?: string } {
  const url = options.holderUrl?.();
  return url ? { url } : {};
}

/** How many times a lost write race is re-evaluated before giving up with SESSION_LEASED. */
const MAX_RACES = 5;

function leasedError(client: string, record: LeaseRecord): WakitError {
  return new WakitError(
    'SESSION_LEASED',
    `session "${client}" is held by ${record.holder} until ${record.expiresAt}`,
    { details: { client, holder: record.holder, expiresAt: record.expiresAt } },
  );
}

function storeError(client: string, action: string, cause: unknown): WakitError {
  const status = gcsStatus(cause);
  return new WakitError('SESSION_STORE_ERROR', `could not ${action} the lease of "${client}"`, {
    details: { client, ...(status === undefined ? {} : { status }) },
    cause,
  });
}

/**
 * A lease on one client's session in GCS: a small object written with generation preconditions.
 * Created with `ifGenerationMatch: 0`; taken over (lapsed, or held by this same holder) and renewed
 * with `ifGenerationMatch: <generation last seen>`, so of two servers racing exactly one wins.
 * Renewed every `renewMs`; losing a renewal race (412), finding the object gone (404), or failing to
 * renew before `expiresAt` means the lease is lost: it is logged and `onLost` is called once.
 */
export class GcsLease implements SessionLease {
  private generation: number;
  private expiresAtMs: number;
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> | undefined;
  private released: Promise<void> | undefined;
  private stopped = false;
  private lostError: WakitError | undefined;
  private readonly clock: Clock;

  private constructor(
    private readonly options: GcsLeaseOptions,
    generation: number,
    readonly acquiredAt: string,
    expiresAtMs: number,
  ) {
    this.generation = generation;
    this.expiresAtMs = expiresAtMs;
    this.clock = options.clock ?? systemClock;
    this.schedule();
  }

  /** Takes the lease or throws `SESSION_LEASED` (details: holder, expiresAt). */
  static async acquire(options: GcsLeaseOptions): Promise<GcsLease> {
    const { bucket, object, client, holder, ttlMs } = options;
    const clock = options.clock ?? systemClock;
    let seen: LeaseRecord | undefined;
    for (let race = 0; race < MAX_RACES; race++) {
      let current;
      try {
        current = await readRecord<LeaseRecord>(bucket, object);
      } catch (error) {
        throw storeError(client, 'read', error);
      }
      const now = clock.now();
      if (current) {
        seen = current.value;
        const expires = Date.parse(current.value.expiresAt);
        if (current.value.holder !== holder && !(expires <= now)) throw leasedError(client, seen);
      }
      const acquiredAt = new Date(now).toISOString();
      const record: LeaseRecord = {
        holder,
        acquiredAt,
        expiresAt: new Date(now + ttlMs).toISOString(),
        ...urlOf(options),
      };
      try {
        const generation = await writeRecord(bucket, object, record, current?.generation ?? 0);
        options.logger.info(
          {
            client,
            holder,
            expiresAt: record.expiresAt,
            ...(current && current.value.holder !== holder
              ? { previousHolder: current.value.holder }
              : {}),
          },
          current ? 'session lease taken over' : 'session lease acquired',
        );
        return new GcsLease(options, generation, acquiredAt, now + ttlMs);
      } catch (error) {
        if (gcsStatus(error) !== 412) throw storeError(client, 'write', error);
        // Another server wrote the lease between our read and write: look again.
      }
    }
    throw leasedError(
      client,
      seen ?? {
        holder: 'unknown',
        acquiredAt: '',
        expiresAt: new Date(clock.now() + ttlMs).toISOString(),
      },
    );
  }

  get holder(): string {
    return this.options.holder;
  }

  get expiresAt(): string {
    return new Date(this.expiresAtMs).toISOString();
  }

  /** True once the lease was lost (taken over, deleted, or not renewed in time). */
  get lost(): boolean {
    return this.lostError !== undefined;
  }

  /** Extends the lease by `ttlMs` now (the timer calls this every `renewMs`). */
  async renew(): Promise<void> {
    if (this.stopped) return;
    const run = this.doRenew();
    this.inflight = run;
    try {
      await run;
    } finally {
      if (this.inflight === run) this.inflight = undefined;
    }
  }

  /** Stops renewing and deletes the lease if it is still ours. Idempotent; never throws. */
  release(): Promise<void> {
    this.released ??= this.doRelease();
    return this.released;
  }

  /** Stops the timer without deleting the object (the same holder is re-taking the lease). */
  supersede(): void {
    this.stop();
  }

  private async doRenew(): Promise<void> {
    const { bucket, object, client, holder, ttlMs, logger } = this.options;
    const now = this.clock.now();
    const record: LeaseRecord = {
      holder,
      acquiredAt: this.acquiredAt,
      expiresAt: new Date(now + ttlMs).toISOString(),
      ...urlOf(this.options),
    };
    try {
      this.generation = await writeRecord(bucket, object, record, this.generation);
      if (this.stopped) return;
      this.expiresAtMs = now + ttlMs;
      logger.debug({ client, expiresAt: record.expiresAt }, 'session lease renewed');
    } catch (error) {
      if (this.stopped) return;
      const status = gcsStatus(error);
      if (status === 412 && (await this.adoptOwnWrite(record))) return;
      if (status === 412 || status === 404) {
        this.markLost(
          status === 412 ? 'taken over by another holder' : 'lease object was deleted',
          error,
        );
      } else if (this.clock.now() >= this.expiresAtMs) {
        this.markLost('not renewed before it expired', error);
      } else {
        logger.warn(
          { client, status, err: error instanceof Error ? error.message : String(error) },
          'session lease renewal failed; will retry',
        );
      }
    }
  }

  /**
   * A 412 can answer the automatic retry of a write that did succeed (its response was lost):
   * if the lease holds exactly what we wrote, it is still ours.
   */
  private async adoptOwnWrite(record: LeaseRecord): Promise<boolean> {
    try {
      const current = await readRecord<LeaseRecord>(this.options.bucket, this.options.object);
      if (!current || this.stopped) return false;
      const { holder, acquiredAt, expiresAt } = current.value;
      if (
        holder !== record.holder ||
        acquiredAt !== record.acquiredAt ||
        expiresAt !== record.expiresAt
      ) {
        return false;
      }
      this.generation = current.generation;
      this.expiresAtMs = Date.parse(expiresAt);
      return true;
    } catch {
      return false; // not reported: not known to be ours; the caller treats it as lost
    }
  }

  private async doRelease(): Promise<void> {
    this.stop();
    // not reported: a renewal that failed was handled there (retried or the lease marked lost)
    await this.inflight?.catch(() => undefined);
    if (this.lostError) return;
    const { bucket, object, client, logger } = this.options;
    try {
      await deleteObject(bucket, object, this.generation);
      logger.info({ client }, 'session lease released');
    } catch (error) {
      // not reported: 412, someone else holds it now; anything else, it lapses after ttlMs anyway
      logger.warn({ client, status: gcsStatus(error) }, 'session lease not deleted on release');
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.renew().finally(() => this.schedule());
    }, this.options.renewMs);
    this.timer.unref?.();
  }

  private stop(): void {
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private markLost(reason: string, cause: unknown): void {
    if (this.lostError) return;
    const { client, holder, logger, onLost } = this.options;
    this.stop();
    this.lostError = new WakitError(
      'SESSION_LEASED',
      `lease of session "${client}" lost: ${reason}`,
      {
        details: { client, holder, reason },
        cause,
      },
    );
    logger.error({ client, holder, reason }, 'session lease lost');
    if (onLost) {
      callSafely(onLost, [this.lostError], (error) =>
        logger.error(
          { client, err: error instanceof Error ? error.message : String(error) },
          'onLost threw',
        ),
      );
    }
  }
}

export interface AcquireWithRetryOptions extends AcquireOptions {
  /** `wait`: retry every `retryMs` until the lease lapses; `fail`: throw the first SESSION_LEASED. */
  onLeased: 'wait' | 'fail';
  retryMs: number;
  /** Abort the wait (e.g. on `stop()`): the last SESSION_LEASED error is thrown. */
  signal?: AbortSignal;
  /** Called with each SESSION_LEASED error before waiting (log it, emit a state change). */
  onWaiting?: (error: WakitError) => void;
}

/**
 * Acquires a client's lease on any store, waiting or failing on SESSION_LEASED per `onLeased`.
 * Other errors are thrown as they are.
 */
export async function acquireWithRetry(
  store: SessionStore,
  client: string,
  options: AcquireWithRetryOptions,
): Promise<SessionLease> {
  const { onLeased, retryMs, signal, onWaiting, onLost } = options;
  const acquireOptions: AcquireOptions = onLost ? { onLost } : {};
  for (;;) {
    let leased: WakitError;
    try {
      return await store.acquire(client, acquireOptions);
    } catch (error) {
      if (!isWakitError(error, 'SESSION_LEASED') || onLeased === 'fail') throw error;
      leased = error;
    }
    if (signal?.aborted) throw leased;
    onWaiting?.(leased);
    try {
      await sleep(retryMs, undefined, signal ? { signal } : {});
    } catch {
      throw leased;
    }
  }
}
