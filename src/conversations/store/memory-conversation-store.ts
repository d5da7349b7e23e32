/* eslint-disable @typescript-eslint/require-await -- an async port (Redis is async) kept synchronously: SQLite and memory answer at once */
import type {
  ConversationRecord,
  ConversationStore,
  ConversationWait,
  StateRecord,
  Step,
} from './conversation-store.js';

const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

/** Conversations and chat state in memory: for tests, gone with the process. */
export class MemoryConversationStore implements ConversationStore {
  readonly kind = 'memory' as const;
  readonly #states = new Map<string, StateRecord>();
  readonly #records = new Map<string, ConversationRecord>();
  readonly #steps = new Map<string, Step[]>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async getState(key: string): Promise<StateRecord | undefined> {
    const record = this.#states.get(key);
    if (!record) return undefined;
    if (record.expiresAt !== undefined && record.expiresAt <= this.#now()) return undefined;
    return clone(record);
  }

  async putState(
    key: string,
    value: unknown,
    expectedVersion: number,
    expiresAt?: number,
  ): Promise<number | undefined> {
    let current = this.#states.get(key);
    // an expired value counts as absent: version 0 replaces it (as SQLite and Redis do)
    if (
      expectedVersion === 0 &&
      current?.expiresAt !== undefined &&
      current.expiresAt <= this.#now()
    )
      current = undefined;
    if ((current?.version ?? 0) !== expectedVersion) return undefined;
    const version = expectedVersion + 1;
    this.#states.set(key, {
      value: clone(value),
      version,
      updatedAt: this.#now(),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    return version;
  }

  async deleteState(key: string): Promise<boolean> {
    return this.#states.delete(key);
  }

  async listStates(prefix: string): Promise<{ key: string; record: StateRecord }[]> {
    const now = this.#now();
    return [...this.#states]
      .filter(
        ([key, r]) => key.startsWith(prefix) && !(r.expiresAt !== undefined && r.expiresAt <= now),
      )
      .map(([key, record]) => ({ key, record: clone(record) }));
  }

  async begin(record: ConversationRecord): Promise<boolean> {
    // checked and taken in one synchronous turn: two begins at once cannot both win
    for (const r of this.#records.values()) {
      if (r.client === record.client && r.chatId === record.chatId && r.member === record.member)
        return false;
    }
    this.#records.set(record.id, clone(record));
    this.#steps.set(record.id, []);
    return true;
  }

  async active(
    client: string,
    chatId: string,
    member: string,
  ): Promise<ConversationRecord | undefined> {
    for (const record of this.#records.values()) {
      if (record.client === client && record.chatId === chatId && record.member === member) {
        return clone(record);
      }
    }
    return undefined;
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    return clone(this.#records.get(id));
  }

  async append(id: string, index: number, step: Step, wait: ConversationWait): Promise<boolean> {
    const steps = this.#steps.get(id);
    const record = this.#records.get(id);
    if (!steps || !record || steps.length !== index) return false;
    steps.push(clone(step));
    record.steps = steps.length;
    record.wait = clone(wait);
    record.updatedAt = this.#now();
    return true;
  }

  async setWait(id: string, wait: ConversationWait): Promise<void> {
    const record = this.#records.get(id);
    if (record) record.wait = clone(wait);
  }

  async steps(id: string): Promise<Step[]> {
    return clone(this.#steps.get(id) ?? []);
  }

  async end(id: string): Promise<boolean> {
    this.#steps.delete(id);
    return this.#records.delete(id);
  }

  async list(client?: string): Promise<ConversationRecord[]> {
    return [...this.#records.values()]
      .filter((r) => client === undefined || r.client === client)
      .sort((a, b) => a.startedAt - b.startedAt)
      .map(clone);
  }

  async interrupted(client: string): Promise<ConversationRecord[]> {
    return (await this.list(client)).filter((r) => !r.wait.waiting);
  }

  async timers(client?: string): Promise<{ id: string; client: string; dueAt: number }[]> {
    return [...this.#records.values()]
      .filter((r) => r.wait.dueAt !== undefined && (client === undefined || r.client === client))
      .map((r) => ({ id: r.id, client: r.client, dueAt: r.wait.dueAt as number }));
  }

  async close(): Promise<void> {}
}
