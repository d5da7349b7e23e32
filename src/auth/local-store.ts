import { mkdir, readFile, rename, rm, stat, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SessionLease, SessionStore } from './session-store.js';

const SESSION_FILE = 'session.bin';
const NO_LEASE: SessionLease = { release: () => Promise.resolve() };

/**
 * Makes sure `dir` exists. The directories this call creates (`dir` and missing parents) are
 * private to this user: 0700 even if the umask is looser. A directory that already exists is never
 * changed (it may be shared, e.g. a sticky 1777 directory): when group or others can reach it,
 * `warn` is told once.
 */
export async function privateDir(
  dir: string,
  warn: (message: string) => void = () => undefined,
): Promise<string> {
  const first = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (first !== undefined) {
    // chmod only what we created: from the first new directory down to `dir`
    const created = [dir];
    for (let d = dir; d !== first && path.dirname(d) !== d;) {
      d = path.dirname(d);
      created.push(d);
    }
    for (const d of created) await chmod(d, 0o700);
    return dir;
  }
  const mode = (await stat(dir)).mode & 0o7777;
  if ((mode & 0o077) !== 0 && !warned.has(dir)) {
    warned.add(dir);
    warn(
      `session directory ${dir} is mode ${mode.toString(8)}: group or others can reach it. wakit leaves existing directories as they are; make it private (chmod 700) or point auth.dataPath at a directory wakit creates`,
    );
  }
  return dir;
}

/** Directories already warned about (once per process). */
const warned = new Set<string>();

/**
 * Sessions as files: `<dataPath>/<client>/session.bin` (file 0600; directories it creates 0700). Writes go to a
 * temporary file first and are renamed over the old one, so a crash never leaves half a session.
 */
export class LocalSessionStore implements SessionStore {
  readonly type = 'local' as const;

  readonly #warn: (message: string) => void;

  /** `warn` hears about existing directories that are not private (they are never chmodded). */
  constructor(
    private readonly dataPath: string,
    options: { warn?: (message: string) => void } = {},
  ) {
    this.#warn = options.warn ?? (() => undefined);
  }

  private clientDir(client: string): string {
    return path.join(this.dataPath, client);
  }

  async exists(client: string): Promise<boolean> {
    try {
      return (await stat(path.join(this.clientDir(client), SESSION_FILE))).isFile();
    } catch {
      return false; // not reported: no session file is the answer
    }
  }

  async read(client: string): Promise<Buffer | null> {
    try {
      return await readFile(path.join(this.clientDir(client), SESSION_FILE));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(client: string, data: Buffer): Promise<void> {
    const dir = await this.workDir(client);
    const target = path.join(dir, SESSION_FILE);
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, data, { mode: 0o600, flush: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(client: string): Promise<void> {
    await rm(this.clientDir(client), { recursive: true, force: true });
  }

  acquire(): Promise<SessionLease> {
    return Promise.resolve(NO_LEASE);
  }

  async workDir(client: string): Promise<string> {
    await privateDir(this.dataPath, this.#warn);
    return privateDir(this.clientDir(client), this.#warn);
  }
}
