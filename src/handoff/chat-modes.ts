/**
 * Where chat modes are kept: the conversation store's chat state (compare-and-set), under a key
 * prefix of their own, so every adapter (memory, SQLite, a fleet's Redis) keeps them as it keeps
 * chat state: durable, and shared by every node that shares the store.
 */
import { WakitError } from '../errors/index.js';
import type { ConversationStore, StateRecord } from '../conversations/store/conversation-store.js';
import type { ChatMode, ChatModeInfo, ChatModeSource } from './types.js';

/** `~` cannot start a client name: no chat state key starts with it. */
const PREFIX = '~mode\n';
const MAX_TRIES = 20;

/** What is stored per chat. */
export interface ModeValue {
  mode: ChatMode;
  since: number;
  by: ChatModeSource;
  /** Unix ms: an automatic `human` goes back to `bot` then (the silence deadline). */
  until?: number;
  reason?: string;
}

export function modeKey(client: string, chatId: string): string {
  return `${PREFIX}${client}\n${chatId}`;
}

/** The client and chat of a mode key. */
export function chatOfKey(key: string): { client: string; chatId: string } {
  const [client = '', chatId = ''] = key.slice(PREFIX.length).split('\n');
  return { client, chatId };
}

function valueOf(record: StateRecord | undefined): ModeValue | undefined {
  const value = record?.value as ModeValue | undefined;
  return value && typeof value.mode === 'string' ? value : undefined;
}

export function infoOf(client: string, chatId: string, value: ModeValue | undefined): ChatModeInfo {
  if (!value) return { client, chatId, mode: 'bot' };
  return {
    client,
    chatId,
    mode: value.mode,
    since: new Date(value.since).toISOString(),
    by: value.by,
    ...(value.until !== undefined ? { until: new Date(value.until).toISOString() } : {}),
    ...(value.reason !== undefined ? { reason: value.reason } : {}),
  };
}

export class ChatModes {
  constructor(private readonly storeOf: () => ConversationStore) {}

  async get(client: string, chatId: string): Promise<ModeValue | undefined> {
    return valueOf(await this.storeOf().getState(modeKey(client, chatId)));
  }

  /**
   * Applies `fn` to the stored value by compare-and-set (another writer first: read and apply
   * again). `fn` returns the new value, or undefined to leave it. Resolves to [before, after].
   */
  async update(
    client: string,
    chatId: string,
    fn: (current: ModeValue | undefined) => ModeValue | undefined,
  ): Promise<[ModeValue | undefined, ModeValue | undefined]> {
    const store = this.storeOf();
    const key = modeKey(client, chatId);
    for (let tries = 0; tries < MAX_TRIES; tries += 1) {
      const record = await store.getState(key);
      const before = valueOf(record);
      const after = fn(before);
      if (after === undefined) return [before, before];
      if ((await store.putState(key, after, record?.version ?? 0)) !== undefined) {
        return [before, after];
      }
    }
    throw new WakitError('STATE_CONFLICT', `The mode of ${chatId} kept changing: not switched`, {
      details: { client, chatId, tries: MAX_TRIES },
    });
  }

  /** Every stored mode (of one client). */
  async list(client?: string): Promise<{ client: string; chatId: string; value: ModeValue }[]> {
    const rows = await this.storeOf().listStates(client ? `${PREFIX}${client}\n` : PREFIX);
    const out: { client: string; chatId: string; value: ModeValue }[] = [];
    for (const { key, record } of rows) {
      const value = valueOf(record);
      if (value) out.push({ ...chatOfKey(key), value });
    }
    return out;
  }
}
