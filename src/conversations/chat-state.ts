/**
 * Chat state: a JSON value per chat (and per member in a group), typed by the bot's zod schema
 * with defaults, written by compare-and-set so two writers (two handlers, two nodes) never lose an
 * update: the loser reads again and reapplies its change.
 */
import type { z } from 'zod';
import { WakitError } from '../errors/index.js';
import { stateKey, type ConversationStore } from './store/conversation-store.js';

const MAX_TRIES = 20;

export interface ChatStateOptions {
  maxBytes: number;
  /** 0: never expires. */
  ttlMs: number;
  now(): number;
}

/** One chat's state, typed. */
export interface ChatStateHandle<S> {
  get(): Promise<S>;
  /** Applies `fn` to the current value and writes it; retried when another writer came first. */
  update(fn: (value: S) => S | Promise<S>): Promise<S>;
  /** Erases it (the next `get` returns the schema's defaults). */
  clear(): Promise<void>;
}

export class ChatStates {
  /** Updates of one key in this process, one after another (compare-and-set covers the rest). */
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    /** The store (opened on first use). */
    private readonly storeOf: () => ConversationStore,
    private readonly options: ChatStateOptions,
  ) {}

  private get store(): ConversationStore {
    return this.storeOf();
  }

  /** The state of a chat (or of one member of a group chat). */
  of<S>(
    client: string,
    chatId: string,
    schema?: z.ZodType<S>,
    member?: string,
  ): ChatStateHandle<S> {
    const key = stateKey(client, chatId, member || undefined);
    const parse = (value: unknown): S =>
      schema ? schema.parse(value ?? {}) : ((value ?? {}) as S);
    return {
      get: async () => parse((await this.store.getState(key))?.value),
      update: (fn) => this.#serial(key, () => this.#update(key, client, chatId, parse, schema, fn)),
      clear: async () => {
        await this.store.deleteState(key);
      },
    };
  }

  #serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => {
      // not reported: the caller of this update gets its failure (mine); the queue goes on
    });
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return mine;
  }

  async #update<S>(
    key: string,
    client: string,
    chatId: string,
    parse: (value: unknown) => S,
    schema: z.ZodType<S> | undefined,
    fn: (value: S) => S | Promise<S>,
  ): Promise<S> {
    for (let tries = 0; tries < MAX_TRIES; tries += 1) {
      const current = await this.store.getState(key);
      const next = await fn(parse(current?.value));
      const checked = schema ? schema.parse(next) : next;
      this.#checkSize(key, checked);
      const ttl = this.options.ttlMs;
      const written = await this.store.putState(
        key,
        checked,
        current?.version ?? 0,
        ttl > 0 ? this.options.now() + ttl : undefined,
      );
      if (written !== undefined) return checked;
    }
    throw new WakitError(
      'STATE_CONFLICT',
      `Chat state of ${chatId} kept changing: update not applied`,
      {
        details: { client, chatId, tries: MAX_TRIES },
      },
    );
  }

  /** Every value of a chat (its own and its members'), for an operator. */
  async read(
    client: string,
    chatId: string,
  ): Promise<{ member?: string; value: unknown; updatedAt: number }[]> {
    const prefix = stateKey(client, chatId);
    const rows = await this.store.listStates(prefix);
    return rows
      .filter(({ key }) => key === prefix || key.startsWith(`${prefix}\n`))
      .map(({ key, record }) => ({
        ...(key.length > prefix.length ? { member: key.slice(prefix.length + 1) } : {}),
        value: record.value,
        updatedAt: record.updatedAt,
      }));
  }

  /** Erases every value of a chat (a person's request to be forgotten); resolves to how many. */
  async erase(client: string, chatId: string): Promise<number> {
    const prefix = stateKey(client, chatId);
    const rows = await this.store.listStates(prefix);
    let erased = 0;
    for (const { key } of rows) {
      if (key !== prefix && !key.startsWith(`${prefix}\n`)) continue;
      if (await this.store.deleteState(key)) erased += 1;
    }
    return erased;
  }

  #checkSize(key: string, value: unknown): void {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
    if (bytes > this.options.maxBytes) {
      throw new WakitError(
        'STATE_TOO_LARGE',
        `Chat state would be ${bytes} bytes, over conversations.stateMaxBytes (${this.options.maxBytes})`,
        { details: { bytes, maxBytes: this.options.maxBytes, key: key.split('\n')[1] } },
      );
    }
  }
}
