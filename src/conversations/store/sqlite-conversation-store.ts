/* eslint-disable @typescript-eslint/require-await -- an async port (Redis is async) kept synchronously: SQLite and memory answer at once */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WakitError } from '../../errors/index.js';
import type {
  ConversationRecord,
  ConversationStore,
  ConversationWait,
  StateRecord,
  Step,
} from './conversation-store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS chat_state (
  key TEXT PRIMARY KEY, value TEXT NOT NULL, version INTEGER NOT NULL,
  expires_at INTEGER, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY, client TEXT NOT NULL, chat_id TEXT NOT NULL, member TEXT NOT NULL,
  name TEXT NOT NULL, version INTEGER NOT NULL, started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, steps INTEGER NOT NULL, due_at INTEGER, phase TEXT, input TEXT,
  waiting INTEGER NOT NULL DEFAULT 0,
  UNIQUE (client, chat_id, member));
CREATE INDEX IF NOT EXISTS conversations_due ON conversations (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS conversation_steps (
  id TEXT NOT NULL, idx INTEGER NOT NULL, step TEXT NOT NULL, PRIMARY KEY (id, idx)) WITHOUT ROWID;
`;

interface ConversationRow {
  id: string;
  client: string;
  chat_id: string;
  member: string;
  name: string;
  version: number;
  started_at: number;
  updated_at: number;
  steps: number;
  due_at: number | null;
  phase: string | null;
  input: string | null;
  waiting: number;
}

const toRecord = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  client: row.client,
  chatId: row.chat_id,
  member: row.member,
  name: row.name,
  version: row.version,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  steps: row.steps,
  ...(row.input !== null ? { input: JSON.parse(row.input) as unknown } : {}),
  wait: {
    ...(row.due_at !== null ? { dueAt: row.due_at } : {}),
    ...(row.phase ? { phase: row.phase as 'remind' | 'expire' } : {}),
    ...(row.waiting === 1 ? { waiting: true } : {}),
  },
});

/**
 * Conversations and chat state in one SQLite file (WAL), 0600 in a 0700 directory: a step is one
 * row (appending costs the same at step 2 and at step 200), a state write one compare-and-set.
 */
export class SqliteConversationStore implements ConversationStore {
  readonly kind = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #file: string;
  readonly #now: () => number;
  readonly #q;

  constructor(file: string, now: () => number = Date.now) {
    this.#file = file;
    this.#now = now;
    const dir = path.dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    try {
      this.#db = new Database(file);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
      this.#db.exec(SCHEMA);
    } catch (error) {
      throw new WakitError(
        'STORAGE_CORRUPT',
        `The conversation store ${file} cannot be opened (${(error as Error).message}). ` +
          'It was left untouched: restore it from a backup, or move it away to start empty.',
        { cause: error, details: { file } },
      );
    }
    chmodSync(file, 0o600);
    const db = this.#db;
    this.#q = {
      getState: db.prepare<
        [string],
        { value: string; version: number; expires_at: number | null; updated_at: number }
      >('SELECT value, version, expires_at, updated_at FROM chat_state WHERE key = ?'),
      insertState: db.prepare(
        'INSERT OR IGNORE INTO chat_state (key, value, version, expires_at, updated_at) VALUES (?, ?, 1, ?, ?)',
      ),
      updateState: db.prepare(
        'UPDATE chat_state SET value = ?, version = version + 1, expires_at = ?, updated_at = ? WHERE key = ? AND version = ?',
      ),
      deleteState: db.prepare('DELETE FROM chat_state WHERE key = ?'),
      listStates: db.prepare<
        [string, string],
        {
          key: string;
          value: string;
          version: number;
          expires_at: number | null;
          updated_at: number;
        }
      >(
        'SELECT key, value, version, expires_at, updated_at FROM chat_state WHERE key >= ? AND key < ? ORDER BY key',
      ),
      begin: db.prepare(
        `INSERT OR IGNORE INTO conversations (id, client, chat_id, member, name, version, started_at, updated_at, steps, due_at, phase, input)
         VALUES (@id, @client, @chatId, @member, @name, @version, @startedAt, @updatedAt, 0, @dueAt, @phase, @input)`,
      ),
      active: db.prepare<[string, string, string], ConversationRow>(
        'SELECT * FROM conversations WHERE client = ? AND chat_id = ? AND member = ?',
      ),
      get: db.prepare<[string], ConversationRow>('SELECT * FROM conversations WHERE id = ?'),
      insertStep: db.prepare(
        'INSERT OR IGNORE INTO conversation_steps (id, idx, step) VALUES (?, ?, ?)',
      ),
      advance: db.prepare(
        'UPDATE conversations SET steps = ?, due_at = ?, phase = ?, waiting = ?, updated_at = ? WHERE id = ? AND steps = ?',
      ),
      setWait: db.prepare(
        'UPDATE conversations SET due_at = ?, phase = ?, waiting = ? WHERE id = ?',
      ),
      interrupted: db.prepare<[string], ConversationRow>(
        'SELECT * FROM conversations WHERE client = ? AND waiting = 0 ORDER BY started_at, id',
      ),
      steps: db.prepare<[string], { step: string }>(
        'SELECT step FROM conversation_steps WHERE id = ? ORDER BY idx',
      ),
      endSteps: db.prepare('DELETE FROM conversation_steps WHERE id = ?'),
      end: db.prepare('DELETE FROM conversations WHERE id = ?'),
      listAll: db.prepare<[], ConversationRow>(
        'SELECT * FROM conversations ORDER BY started_at, id',
      ),
      listClient: db.prepare<[string], ConversationRow>(
        'SELECT * FROM conversations WHERE client = ? ORDER BY started_at, id',
      ),
      timers: db.prepare<[], { id: string; client: string; due_at: number }>(
        'SELECT id, client, due_at FROM conversations WHERE due_at IS NOT NULL',
      ),
      clientTimers: db.prepare<[string], { id: string; client: string; due_at: number }>(
        'SELECT id, client, due_at FROM conversations WHERE client = ? AND due_at IS NOT NULL',
      ),
    };
    const append = (id: string, index: number, step: Step, wait: ConversationWait): boolean => {
      const inserted = this.#q.insertStep.run(id, index, JSON.stringify(step));
      if (inserted.changes === 0) return false;
      const moved = this.#q.advance.run(
        index + 1,
        wait.dueAt ?? null,
        wait.phase ?? null,
        wait.waiting ? 1 : 0,
        this.#now(),
        id,
        index,
      );
      if (moved.changes === 0) throw new RollBack();
      return true;
    };
    this.#append = db.transaction(append);
    this.#end = db.transaction((id: string) => {
      this.#q.endSteps.run(id);
      return this.#q.end.run(id).changes > 0;
    });
  }

  readonly #append: (id: string, index: number, step: Step, wait: ConversationWait) => boolean;
  readonly #end: (id: string) => boolean;

  async getState(key: string): Promise<StateRecord | undefined> {
    const row = this.#q.getState.get(key);
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= this.#now()) return undefined;
    return {
      value: JSON.parse(row.value),
      version: row.version,
      updatedAt: row.updated_at,
      ...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
    };
  }

  async putState(
    key: string,
    value: unknown,
    expectedVersion: number,
    expiresAt?: number,
  ): Promise<number | undefined> {
    const json = JSON.stringify(value);
    const now = this.#now();
    if (expectedVersion === 0) {
      // an expired value counts as absent: replace it
      const row = this.#q.getState.get(key);
      if (row && row.expires_at !== null && row.expires_at <= now) this.#q.deleteState.run(key);
      return this.#q.insertState.run(key, json, expiresAt ?? null, now).changes > 0 ? 1 : undefined;
    }
    const done = this.#q.updateState.run(json, expiresAt ?? null, now, key, expectedVersion);
    return done.changes > 0 ? expectedVersion + 1 : undefined;
  }

  async deleteState(key: string): Promise<boolean> {
    return this.#q.deleteState.run(key).changes > 0;
  }

  async listStates(prefix: string): Promise<{ key: string; record: StateRecord }[]> {
    const now = this.#now();
    return this.#q.listStates
      .all(prefix, `${prefix}\uffff`)
      .filter((row) => !(row.expires_at !== null && row.expires_at <= now))
      .map((row) => ({
        key: row.key,
        record: {
          value: JSON.parse(row.value) as unknown,
          version: row.version,
          updatedAt: row.updated_at,
          ...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
        },
      }));
  }

  async begin(record: ConversationRecord): Promise<boolean> {
    const done = this.#q.begin.run({
      ...record,
      dueAt: record.wait.dueAt ?? null,
      phase: record.wait.phase ?? null,
      input: record.input === undefined ? null : JSON.stringify(record.input),
    });
    return done.changes > 0;
  }

  async active(
    client: string,
    chatId: string,
    member: string,
  ): Promise<ConversationRecord | undefined> {
    const row = this.#q.active.get(client, chatId, member);
    return row ? toRecord(row) : undefined;
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    const row = this.#q.get.get(id);
    return row ? toRecord(row) : undefined;
  }

  async append(id: string, index: number, step: Step, wait: ConversationWait): Promise<boolean> {
    try {
      return this.#append(id, index, step, wait);
    } catch (error) {
      if (error instanceof RollBack) return false;
      throw storeError(error, this.#file);
    }
  }

  async setWait(id: string, wait: ConversationWait): Promise<void> {
    this.#q.setWait.run(wait.dueAt ?? null, wait.phase ?? null, wait.waiting ? 1 : 0, id);
  }

  async steps(id: string): Promise<Step[]> {
    return this.#q.steps.all(id).map((row) => JSON.parse(row.step) as Step);
  }

  async end(id: string): Promise<boolean> {
    return this.#end(id);
  }

  async list(client?: string): Promise<ConversationRecord[]> {
    const rows = client === undefined ? this.#q.listAll.all() : this.#q.listClient.all(client);
    return rows.map(toRecord);
  }

  async interrupted(client: string): Promise<ConversationRecord[]> {
    return this.#q.interrupted.all(client).map(toRecord);
  }

  async timers(client?: string): Promise<{ id: string; client: string; dueAt: number }[]> {
    const rows = client === undefined ? this.#q.timers.all() : this.#q.clientTimers.all(client);
    return rows.map((row) => ({ id: row.id, client: row.client, dueAt: row.due_at }));
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

class RollBack extends Error {}

function storeError(error: unknown, file: string): WakitError {
  const code = (error as { code?: string }).code ?? '';
  const full = code === 'SQLITE_FULL';
  return new WakitError(
    full ? 'STORAGE_FULL' : 'STORAGE_UNAVAILABLE',
    `The conversation store ${path.basename(file)} cannot be written (${code || (error as Error).message})`,
    { cause: error, details: { file: path.basename(file) } },
  );
}
