/**
 * The port of what conversations keep: chat state (versioned values, compare-and-set) and the
 * journal of each active conversation (an append-only list of steps plus one record). Adapters:
 * memory (tests), SQLite (one file beside the outbox, the default), Redis (a fleet).
 */

/** A chat state value with the version a compare-and-set must name. */
export interface StateRecord {
  value: unknown;
  /** 1 for the first write; each write adds one. */
  version: number;
  /** Unix ms after which the value counts as absent; undefined: never. */
  expiresAt?: number;
  updatedAt: number;
}

/** What a conversation waits for, and when its timer fires. */
export interface ConversationWait {
  /** Unix ms of the next timer (the reminder, then the expiry); undefined: no timeout. */
  dueAt?: number;
  /** What the timer does when it fires. */
  phase?: 'remind' | 'expire';
  /** The code waits for the person; false or absent: it was cut off in the middle of a step. */
  waiting?: boolean;
}

/** One active conversation (the journal's head). */
export interface ConversationRecord {
  id: string;
  client: string;
  chatId: string;
  /** The member it talks with in a group; the chat's person otherwise. */
  member: string;
  name: string;
  version: number;
  startedAt: number;
  updatedAt: number;
  /** Steps journaled so far. */
  steps: number;
  /** What started it (command arguments, keyword, `start()`'s input): JSON. */
  input?: unknown;
  wait: ConversationWait;
}

/** One journaled step: what the conversation did or received at its index. */
export type Step =
  /** A message or a poll vote it received: the part of it the conversation read. */
  | { k: 'in'; v: unknown }
  /** Something it sent: a fingerprint of the content, the send's result. */
  | { k: 'say'; h: string; v?: unknown }
  /** A value from outside (external(), now(), random(), a state update's result). */
  | { k: 'ext'; v: unknown }
  /** A timer fired while it waited (the reminder). */
  | { k: 'timer'; v: 'remind' };

export interface ConversationStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  getState(key: string): Promise<StateRecord | undefined>;
  /**
   * Writes `value` if the stored version is `expectedVersion` (0: absent); returns the new
   * version, or undefined when another writer came first (the caller reads again and retries).
   */
  putState(
    key: string,
    value: unknown,
    expectedVersion: number,
    expiresAt?: number,
  ): Promise<number | undefined>;
  deleteState(key: string): Promise<boolean>;
  /** Keys (and records) that start with `prefix`. */
  listStates(prefix: string): Promise<{ key: string; record: StateRecord }[]>;

  /** Starts a conversation; false when the chat member already has one. */
  begin(record: ConversationRecord): Promise<boolean>;
  /** The active conversation of a chat member. */
  active(client: string, chatId: string, member: string): Promise<ConversationRecord | undefined>;
  get(id: string): Promise<ConversationRecord | undefined>;
  /**
   * Appends the step at `index` and updates the record's wait; false when a step is already
   * there (another writer, or a replay of a journaled message: nothing is applied twice).
   */
  append(id: string, index: number, step: Step, wait: ConversationWait): Promise<boolean>;
  /** Updates the record's wait (no step). */
  setWait(id: string, wait: ConversationWait): Promise<void>;
  steps(id: string): Promise<Step[]>;
  /** Ends it: record and steps are gone. False when it was not active. */
  end(id: string): Promise<boolean>;
  /** Active conversations, oldest first (optionally of one client). */
  list(client?: string): Promise<ConversationRecord[]>;
  /** Active conversations of a client cut off in the middle of a step (not waiting). */
  interrupted(client: string): Promise<ConversationRecord[]>;
  /** Every active conversation that has a timer (optionally of one client), with when it fires. */
  timers(client?: string): Promise<{ id: string; client: string; dueAt: number }[]>;
  close(): Promise<void>;
}

/** The key of a chat state: client, chat and (in groups) the member. */
export function stateKey(client: string, chatId: string, member?: string): string {
  return member ? `${client}\n${chatId}\n${member}` : `${client}\n${chatId}`;
}
