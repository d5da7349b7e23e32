import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { WakitError } from '../errors/index.js';
import { privateDir } from '../auth/local-store.js';
import { clientRecordSchema, type ClientRecord, type ClientRegistry } from './client-registry.js';

export const REGISTRY_FILE = 'clients.json';

const fileSchema = z
  .object({ version: z.literal(1), clients: z.array(clientRecordSchema) })
  .strict()
  .refine(
    (file) => new Set(file.clients.map((c) => c.name)).size === file.clients.length,
    'client names must be unique',
  );

/**
 * The registry as one JSON file, `<dir>/clients.json` (0600; the directory, when wakit creates it,
 * 0700). Every change rewrites a temporary file and renames it over the old one, so a crash leaves
 * either the old or the new registry, never half of one. Changes are serialised; the file is read
 * once and then kept in memory (one process owns a data directory).
 */
export class FileClientRegistry implements ClientRegistry {
  readonly kind = 'file';
  readonly file: string;
  readonly #dir: string;
  readonly #warn: (message: string) => void;
  #records: Promise<Map<string, ClientRecord>> | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(dir: string, options: { warn?: (message: string) => void } = {}) {
    this.#dir = dir;
    this.file = path.join(dir, REGISTRY_FILE);
    this.#warn = options.warn ?? (() => undefined);
  }

  async list(): Promise<ClientRecord[]> {
    return [...(await this.#load()).values()].map((r) => structuredClone(r));
  }

  put(record: ClientRecord): Promise<void> {
    const parsed = clientRecordSchema.parse(record);
    return this.#change((records) => {
      records.set(parsed.name, structuredClone(parsed));
      return true;
    });
  }

  delete(name: string): Promise<void> {
    return this.#change((records) => records.delete(name));
  }

  #load(): Promise<Map<string, ClientRecord>> {
    this.#records ??= this.#read();
    // a failed read is tried again next time (the file may be fixed)
    this.#records.catch(() => (this.#records = undefined));
    return this.#records;
  }

  async #read(): Promise<Map<string, ClientRecord>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw this.#unavailable('read', error);
    }
    // the file holds secrets: errors say where it is wrong, never what it contains
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.#corrupt('it is not JSON', []);
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      throw this.#corrupt(
        'its shape is wrong',
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.code })),
      );
    }
    return new Map(parsed.data.clients.map((c) => [c.name, c]));
  }

  #corrupt(why: string, issues: { path: string; message: string }[]): WakitError {
    return new WakitError(
      'REGISTRY_CORRUPT',
      `The client registry ${this.file} is not a registry wakit wrote (${why}); it is left untouched (restore it, fix it, or move it away)`,
      { details: { file: this.file }, ...(issues.length > 0 ? { issues } : {}) },
    );
  }

  /** Applies `edit` to a copy of the records and writes it; nothing changes if the write fails. */
  #change(edit: (records: Map<string, ClientRecord>) => boolean): Promise<void> {
    const run = this.#chain.then(async () => {
      const next = new Map(await this.#load());
      if (!edit(next)) return;
      await this.#write(next);
      this.#records = Promise.resolve(next);
    });
    // not reported: the caller awaits `run` and gets the failure
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async #write(records: Map<string, ClientRecord>): Promise<void> {
    const body = `${JSON.stringify({ version: 1, clients: [...records.values()] }, null, 2)}\n`;
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await privateDir(this.#dir, this.#warn);
      await writeFile(temp, body, { mode: 0o600, flush: true });
      await rename(temp, this.file);
    } catch (error) {
      // not reported: best-effort cleanup; the write's failure is thrown below
      await rm(temp, { force: true }).catch(() => undefined);
      throw this.#unavailable('write', error);
    }
  }

  #unavailable(what: 'read' | 'write', error: unknown): WakitError {
    const code = (error as NodeJS.ErrnoException).code;
    return new WakitError(
      'REGISTRY_UNAVAILABLE',
      `Could not ${what} the client registry ${this.file}${code ? ` (${code})` : ''}`,
      { details: { file: this.file, ...(code ? { reason: code } : {}) }, cause: error },
    );
  }
}
