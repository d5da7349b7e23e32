import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { CRC32C, Storage, type Bucket } from '@google-cloud/storage';
import type { Logger } from 'pino';
import type { AuthConfig } from '../config/schema.js';
import { WakitError, isWakitError } from '../errors/index.js';
import { systemClock, type Clock } from '../kernel/clock.js';
import type { AcquireOptions, SessionLease, SessionStore } from './session-store.js';
import { privateDir } from './local-store.js';
import { deleteObject, readRecord, writeRecord } from './gcs-record.js';
import { gcsStatus } from './gcs-status.js';
import { GcsLease, defaultHolderId } from './lease.js';

export type RemoteAuthConfig = Extract<AuthConfig, { type: 'remote' }>;

export interface GcsSessionStoreOptions {
  /** A ready client (tests, custom credentials); else one is built from the config. */
  storage?: Storage;
  /** Lease holder id; default `<hostname>:<pid>:<random>`. */
  holderId?: string;
  /** The holder's address, kept in the lease record (a fleet node's REST URL). */
  holderUrl?: () => string;
  /** Uploads larger than this use a resumable upload, smaller ones a multipart upload. */
  resumableThreshold?: number;
  clock?: Clock;
}

/** One backup object, as recorded in the pointer. */
export interface BackupRef {
  object: string;
  generation: number;
  size: number;
  md5Hash: string;
  crc32c: string;
  createdAt: string;
}

/** The content of `<path>/<client>/current.json`: newest backup first. */
export interface SessionPointer {
  version: 1;
  backups: BackupRef[];
}

const DEFAULT_RESUMABLE_THRESHOLD = 8 * 1024 * 1024;

function md5Of(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

function crc32cOf(data: Buffer): string {
  const crc = new CRC32C();
  crc.update(data);
  return crc.toString();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}

/**
 * Sessions in Google Cloud Storage. Layout under `<storage.path>/<client>/`:
 * `current.json` (pointer to the newest backups, written with generation preconditions),
 * `backups/<ms timestamp>-<random>.bin` (immutable session backups) and `lease.json`.
 *
 * A write uploads a new backup object, checks its size, MD5 and CRC32C against the local bytes, and
 * only then switches the pointer; the newest `1 + keepGenerations` backups are kept. A read follows
 * the pointer and falls back to an older backup when the newest is missing or corrupt.
 * Session bytes are never logged.
 */
export class GcsSessionStore implements SessionStore {
  readonly type = 'remote' as const;
  readonly holderId: string;
  private readonly holderUrl: (() => string) | undefined;
  private readonly storage: Storage;
  private readonly bucket: Bucket;
  private readonly prefix: string;
  private readonly threshold: number;
  private readonly clock: Clock;
  private readonly writes = new Map<string, Promise<unknown>>();
  private readonly leases = new Map<string, GcsLease>();

  constructor(
    private readonly config: RemoteAuthConfig,
    private readonly logger: Logger,
    options: GcsSessionStoreOptions = {},
  ) {
    const { projectId, bucket, apiEndpoint } = config.storage;
    this.storage =
      options.storage ?? new Storage({ projectId, ...(apiEndpoint ? { apiEndpoint } : {}) });
    this.bucket = this.storage.bucket(bucket);
    this.prefix = config.storage.path.replace(/^\/+|\/+$/g, '');
    this.holderId = options.holderId ?? defaultHolderId();
    this.holderUrl = options.holderUrl;
    this.threshold = options.resumableThreshold ?? DEFAULT_RESUMABLE_THRESHOLD;
    this.clock = options.clock ?? systemClock;
    const endpoint = apiEndpoint ?? process.env.STORAGE_EMULATOR_HOST;
    if (
      endpoint &&
      /^http:\/\//i.test(endpoint) &&
      !/^http:\/\/(localhost|127\.|\[::1\])/i.test(endpoint)
    ) {
      logger.warn(
        { endpoint },
        'session storage endpoint is not HTTPS: session data travels unencrypted',
      );
    }
  }

  /** Object name of a file of this client: `<path>/<client>/<rest>`. */
  objectName(client: string, rest: string): string {
    return [this.prefix, client, rest].filter(Boolean).join('/');
  }

  async exists(client: string): Promise<boolean> {
    return ((await this.pointer(client))?.value.backups.length ?? 0) > 0;
  }

  async read(client: string): Promise<Buffer | null> {
    const pointer = await this.pointer(client);
    if (!pointer || pointer.value.backups.length === 0) return null;
    const problems: string[] = [];
    for (const [index, ref] of pointer.value.backups.entries()) {
      const problem = await this.download(ref).then(
        (data) => ({ data }),
        (error: unknown) => ({ error }),
      );
      if ('data' in problem) {
        if (index > 0) {
          this.logger.warn(
            { client, object: ref.object, skipped: problems },
            'session restored from an older backup: newer backups are missing or corrupt',
          );
        }
        return problem.data;
      }
      const status = gcsStatus(problem.error);
      const corrupt =
        isWakitError(problem.error) || status === 404 || isChecksumError(problem.error);
      if (!corrupt) {
        throw this.error(client, 'read', problem.error);
      }
      problems.push(`${ref.object}: ${describe(problem.error)}`);
      this.logger.warn(
        { client, object: ref.object, reason: describe(problem.error) },
        'session backup unusable',
      );
    }
    throw new WakitError('SESSION_STORE_ERROR', `no intact session backup of "${client}" in GCS`, {
      details: { client, backups: problems },
    });
  }

  write(client: string, data: Buffer): Promise<void> {
    const previous = this.writes.get(client) ?? Promise.resolve();
    // not reported: the previous write's caller got its failure; this one runs after it anyway
    const next = previous.catch(() => undefined).then(() => this.doWrite(client, data));
    this.writes.set(client, next);
    // not reported: the caller gets the failure from `next`
    void next
      .finally(() => {
        if (this.writes.get(client) === next) this.writes.delete(client);
      })
      .catch(() => undefined);
    return next;
  }

  /** Removes every backup and the pointer (logout, session_expired) and the local working files. */
  async delete(client: string): Promise<void> {
    // not reported: that write's caller got its failure; the delete goes on
    await this.writes.get(client)?.catch(() => undefined);
    try {
      await deleteObject(this.bucket, this.objectName(client, 'current.json'));
      const [files] = await this.bucket.getFiles({ prefix: this.objectName(client, 'backups/') });
      await Promise.all(files.map((file) => deleteObject(this.bucket, file.name)));
    } catch (error) {
      throw this.error(client, 'delete', error);
    }
    await rm(path.join(this.config.dataPath, client), { recursive: true, force: true });
    this.logger.info({ client }, 'session deleted from GCS');
  }

  async acquire(client: string, options: AcquireOptions = {}): Promise<SessionLease> {
    const lease = await GcsLease.acquire({
      bucket: this.bucket,
      object: this.objectName(client, 'lease.json'),
      client,
      holder: this.holderId,
      ...(this.holderUrl ? { holderUrl: this.holderUrl } : {}),
      ttlMs: this.config.lease.ttlMs,
      renewMs: this.config.lease.renewMs,
      logger: this.logger,
      clock: this.clock,
      ...(options.onLost ? { onLost: options.onLost } : {}),
    });
    // The same holder re-taking its own lease: the older handle must not renew (and lose) it.
    this.leases.get(client)?.supersede();
    this.leases.set(client, lease);
    return lease;
  }

  async workDir(client: string): Promise<string> {
    await privateDir(this.config.dataPath);
    return privateDir(path.join(this.config.dataPath, client));
  }

  // ---- internals ----

  private async pointer(
    client: string,
  ): Promise<{ value: SessionPointer; generation: number } | null> {
    try {
      return await readRecord<SessionPointer>(this.bucket, this.objectName(client, 'current.json'));
    } catch (error) {
      throw this.error(client, 'read the session pointer of', error);
    }
  }

  private async doWrite(client: string, data: Buffer): Promise<void> {
    const md5Hash = md5Of(data);
    const crc32c = crc32cOf(data);
    const now = this.clock.now();
    const stamp = String(now).padStart(15, '0');
    const object = this.objectName(
      client,
      `backups/${stamp}-${randomBytes(4).toString('hex')}.bin`,
    );
    const file = this.bucket.file(object);

    try {
      await file.save(data, {
        resumable: data.length > this.threshold,
        contentType: 'application/octet-stream',
        validation: 'crc32c',
        metadata: { cacheControl: 'no-store', metadata: { client } },
        preconditionOpts: { ifGenerationMatch: 0 },
      });
    } catch (error) {
      await this.discard(client, object);
      throw this.error(client, 'upload a backup of', error);
    }

    const meta = file.metadata;
    const ref: BackupRef = {
      object,
      generation: Number(meta.generation),
      size: Number(meta.size),
      md5Hash: String(meta.md5Hash ?? ''),
      crc32c: String(meta.crc32c ?? ''),
      createdAt: new Date(now).toISOString(),
    };
    if (ref.size !== data.length || ref.md5Hash !== md5Hash || ref.crc32c !== crc32c) {
      await this.discard(client, object);
      throw new WakitError(
        'SESSION_STORE_ERROR',
        `uploaded backup of "${client}" failed verification`,
        {
          details: { client, object, expectedSize: data.length, size: ref.size },
        },
      );
    }

    const pointer = await this.pointer(client);
    const kept = (pointer?.value.backups ?? []).filter((b) => b.object !== object);
    const backups = [ref, ...kept].slice(0, 1 + this.config.keepGenerations);
    const pointerName = this.objectName(client, 'current.json');
    try {
      await writeRecord(
        this.bucket,
        pointerName,
        { version: 1, backups },
        pointer?.generation ?? 0,
      );
    } catch (error) {
      if (gcsStatus(error) === 412 && (await this.pointsTo(client, object))) {
        // The automatic retry of a pointer write that did succeed (its response was lost).
        await this.prune(client, backups);
        return;
      }
      await this.discard(client, object);
      if (gcsStatus(error) === 412) {
        throw new WakitError(
          'SESSION_LEASED',
          `session pointer of "${client}" was changed by another writer; backup discarded`,
          { details: { client }, cause: error },
        );
      }
      throw this.error(client, 'switch the session pointer of', error);
    }
    this.logger.debug({ client, object, size: data.length }, 'session backed up to GCS');
    await this.prune(client, backups);
  }

  /** Deletes backups that are neither in the pointer nor newer than its newest entry. */
  private async prune(client: string, backups: BackupRef[]): Promise<void> {
    const keep = new Set(backups.map((b) => b.object));
    const newest = backups[0].object;
    try {
      const [files] = await this.bucket.getFiles({ prefix: this.objectName(client, 'backups/') });
      const stale = files.filter((f) => !keep.has(f.name) && f.name < newest);
      await Promise.all(stale.map((f) => deleteObject(this.bucket, f.name)));
    } catch (error) {
      // not reported: the next backup prunes again (the stale ones stay until then)
      this.logger.warn({ client, reason: describe(error) }, 'pruning old session backups failed');
    }
  }

  private async pointsTo(client: string, object: string): Promise<boolean> {
    try {
      return (await this.pointer(client))?.value.backups[0]?.object === object;
    } catch {
      return false; // not reported: unknown counts as "not ours"; the write fails with its error
    }
  }

  private async discard(client: string, object: string): Promise<void> {
    try {
      await deleteObject(this.bucket, object);
    } catch (error) {
      // not reported: the prune after the next backup removes it; the write fails with its error
      this.logger.warn(
        { client, object, reason: describe(error) },
        'could not delete a failed backup',
      );
    }
  }

  private async download(ref: BackupRef): Promise<Buffer> {
    const [data] = await this.bucket
      .file(ref.object, { generation: ref.generation })
      .download({ validation: 'crc32c' });
    if (data.length !== ref.size || md5Of(data) !== ref.md5Hash || crc32cOf(data) !== ref.crc32c) {
      throw new WakitError(
        'SESSION_STORE_ERROR',
        `backup ${ref.object} does not match its checksum`,
      );
    }
    return data;
  }

  private error(client: string, action: string, cause: unknown): WakitError {
    if (cause instanceof WakitError) return cause;
    const status = gcsStatus(cause);
    return new WakitError(
      'SESSION_STORE_ERROR',
      `could not ${action} session "${client}" in GCS: ${describe(cause)}`,
      {
        details: { client, ...(status === undefined ? {} : { status }) },
        cause,
      },
    );
  }
}

/** The client's own integrity errors (download or upload hash mismatch). */
function isChecksumError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'CONTENT_DOWNLOAD_MISMATCH' || code === 'MD5_NOT_AVAILABLE';
}
