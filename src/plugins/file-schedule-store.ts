/**
 * The schedule store of one server: every claim succeeds (one process runs the jobs), and the last
 * run of each job is kept in `<auth.dataPath>/schedules.json`, so `catchUp: 'last'` knows after a
 * restart what ran. Each change rewrites a temporary file and renames it over the old one.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ScheduleStore } from './schedule-types.js';

export const SCHEDULES_FILE = 'schedules.json';

const fileSchema = z.object({
  version: z.literal(1),
  lastRuns: z.record(z.string(), z.number()),
  since: z.record(z.string(), z.number()),
});

interface Times {
  lastRuns: Map<string, number>;
  since: Map<string, number>;
}

export class FileScheduleStore implements ScheduleStore {
  readonly file: string;
  readonly #dir: string;
  #times: Promise<Times> | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.#dir = dir;
    this.file = path.join(dir, SCHEDULES_FILE);
  }

  claim(): Promise<boolean> {
    return Promise.resolve(true);
  }

  renew(): Promise<void> {
    return Promise.resolve();
  }

  async finish(job: string, firingAt: number): Promise<void> {
    await this.#change(({ lastRuns }) => {
      if ((lastRuns.get(job) ?? -Infinity) >= firingAt) return false;
      lastRuns.set(job, firingAt);
      return true;
    });
  }

  async lastRun(job: string): Promise<number | undefined> {
    return (await this.#load()).lastRuns.get(job);
  }

  async since(job: string, at: number): Promise<number> {
    await this.#change(({ since }) => {
      if (since.has(job)) return false;
      since.set(job, at);
      return true;
    });
    return (await this.#load()).since.get(job) ?? at;
  }

  /** Applies `change` and rewrites the file when it changed something; changes are serialised. */
  #change(change: (times: Times) => boolean): Promise<void> {
    const write = this.#chain.then(async () => {
      const times = await this.#load();
      if (!change(times)) return;
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
      const body = {
        version: 1,
        lastRuns: Object.fromEntries(times.lastRuns),
        since: Object.fromEntries(times.since),
      };
      await writeFile(temporary, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, this.file);
    });
    // not reported: the caller gets the failure; the chain goes on for later writes
    this.#chain = write.catch(() => undefined);
    return write;
  }

  #load(): Promise<Times> {
    this.#times ??= this.#read();
    return this.#times;
  }

  async #read(): Promise<Times> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { lastRuns: new Map(), since: new Map() };
      }
      throw error;
    }
    // a file that does not parse is started over: at worst one catch-up run is skipped
    const parsed = fileSchema.safeParse(safeJson(text));
    return {
      lastRuns: new Map(parsed.success ? Object.entries(parsed.data.lastRuns) : []),
      since: new Map(parsed.success ? Object.entries(parsed.data.since) : []),
    };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // not reported: the caller treats a file that does not parse as empty (see #read)
    return undefined;
  }
}
