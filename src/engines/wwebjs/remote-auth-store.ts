import { readFile, stat, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { SessionStore } from '../../auth/session-store.js';
import type { RemoteAuthStore } from './types.js';

export interface RemoteAuthStoreOptions {
  store: SessionStore;
  clientName: string;
  /** RemoteAuth's `dataPath` (absolute or relative to the working directory). */
  dataPath: string;
  logger: Logger;
  /**
   * Whether a delete asked for by RemoteAuth may go through. RemoteAuth deletes the remote session
   * on *every* disconnect (CONFLICT, TIMEOUT...); wakit keeps it unless the session is really gone
   * (logout, session_expired).
   */
  mayDelete: () => boolean;
  /** Whether a backup may be written now (false once the session was logged out or expired). */
  mayWrite?: () => boolean;
  /** Where a failed backup goes (EngineContext.report); logged when absent. */
  report?: (event: string, error: unknown) => void;
  /** Working directory bare session names are resolved against (defaults to process.cwd()). */
  cwd?: string;
}

/** A zip file starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * whatsapp-web.js RemoteAuth's store contract on top of our SessionStore port. RemoteAuth writes
 * `<dataPath>/RemoteAuth-<clientId>.zip` and then calls `save({ session })`; releases differ on
 * what `session` is: the bare name `RemoteAuth-<clientId>` (1.34: stores historically opened
 * `${session}.zip` relative to the working directory) or a path inside `dataPath`. Both work here.
 *
 * `save` never throws: RemoteAuth calls it from an un-awaited `afterAuthReady()` and a
 * `setInterval`, where a rejection would be unhandled. Failures are logged and the previous backup
 * stays in place (the store replaces atomically).
 */
export class RemoteAuthStoreAdapter implements RemoteAuthStore {
  private readonly dataPath: string;
  private readonly cwd: string;
  /** Saves and deletes run one at a time, so a late backup can never resurrect a deleted session. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: RemoteAuthStoreOptions) {
    this.cwd = options.cwd ?? process.cwd();
    this.dataPath = path.resolve(this.cwd, options.dataPath);
  }

  private get log(): Logger {
    return this.options.logger;
  }

  /** The session names RemoteAuth uses for this client; anything else is a wiring mistake. */
  private checkSession(session: string): void {
    const expected = `RemoteAuth-${this.options.clientName}`;
    if (path.basename(session) !== expected) {
      this.log.warn(
        { session: path.basename(session), expected },
        'RemoteAuth asked for an unexpected session name; using the client name',
      );
    }
  }

  /** Where the zip for `session` may be, in order of preference. */
  zipCandidates(session: string): string[] {
    const file = `${session}.zip`;
    const candidates = path.isAbsolute(session)
      ? [file]
      : [
          path.join(this.dataPath, `${path.basename(session)}.zip`),
          path.resolve(this.dataPath, file),
          path.resolve(this.cwd, file),
        ];
    return [...new Set(candidates)];
  }

  async sessionExists({ session }: { session: string }): Promise<boolean> {
    this.checkSession(session);
    return this.options.store.exists(this.options.clientName);
  }

  /** Resolves once no save or delete is in flight. */
  idle(): Promise<void> {
    return this.chain;
  }

  private report(event: string, error: unknown): void {
    if (this.options.report) this.options.report(event, error);
    else this.log.error({ err: error }, 'session backup failed; the previous backup is kept');
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task, task);
    // not reported: the caller of this task gets its failure from `run`
    this.chain = run.catch(() => {});
    return run;
  }

  save({ session }: { session: string }): Promise<void> {
    this.checkSession(session);
    return this.serial(() => this.backup(session));
  }

  private async backup(session: string): Promise<void> {
    try {
      const zipPath = await this.findZip(session);
      if (!zipPath) {
        this.log.error(
          { session: path.basename(session) },
          'RemoteAuth session zip not found; backup skipped',
        );
        return;
      }
      const data = await readFile(zipPath);
      if (data.length < ZIP_MAGIC.length || !data.subarray(0, 4).equals(ZIP_MAGIC)) {
        this.log.error(
          { bytes: data.length },
          'RemoteAuth session zip is empty or broken; backup skipped',
        );
        return;
      }
      if (this.options.mayWrite && !this.options.mayWrite()) {
        this.log.info('session is logged out; backup skipped');
        return;
      }
      await this.options.store.write(this.options.clientName, data);
      this.log.info({ bytes: data.length }, 'session backed up');
    } catch (error) {
      // the previous backup is kept
      this.report('session.backup', error);
    }
  }

  async extract({ session, path: target }: { session: string; path: string }): Promise<void> {
    this.checkSession(session);
    const data = await this.options.store.read(this.options.clientName);
    if (!data) throw new Error(`No saved session for client ${this.options.clientName}`);
    const file = path.resolve(this.cwd, target);
    await rm(file, { force: true });
    await writeFile(file, data, { mode: 0o600 });
  }

  delete({ session }: { session: string }): Promise<void> {
    this.checkSession(session);
    return this.serial(async () => {
      if (!this.options.mayDelete()) {
        this.log.info('RemoteAuth asked to delete the session on a transient disconnect; kept');
        return;
      }
      await this.options.store.delete(this.options.clientName);
    });
  }

  private async findZip(session: string): Promise<string | undefined> {
    for (const candidate of this.zipCandidates(session)) {
      try {
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not reported: not there; try the next convention
      }
    }
    return undefined;
  }
}
