import { mkdir, readFile, rename, rm, stat, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SessionLease, SessionStore } from './session-store.js';

const SESSION_FILE = 'session.bin';
const NO_LEASE: SessionLease = { release: () => Promise.resolve() };

/** Creates a directory (and parents) private to this user: 0700 even if the umask is looser. */
export async function privateDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  return dir;
}

/**
 * Sessions as files: `<dataPath>/<client>/session.bin` (file 0600, directory 0700). Writes go to a
 * temporary file first and are renamed over the old one, so a crash never leaves half a session.
 */
export class LocalSessionStore implements SessionStore {
  readonly type = 'local' as const;

  constructor(private readonly dataPath: string) {}

  private clientDir(client: string): string {
    return path.join(this.dataPath, client);
  }

  async exists(client: string): Promise<boolean> {
    try {
      return (await stat(path.join(this.clientDir(client), SESSION_FILE))).isFile();
    } catch {
      return false;
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
    await privateDir(this.dataPath);
    return privateDir(this.clientDir(client));
  }
}
