/**
 * Turns: the messages one chat member sends within a quiet window (and an upper bound) gathered
 * into one turn, handed to handlers, commands and conversations as one message
 * (docs/turns.md). Each message is written to the conversation store before the
 * window closes, so a window open at a crash is completed after the restart; closing it claims the
 * turn with a compare-and-set first, so it is handed on once.
 */
import type { BotClient } from '../client/bot-client.js';
import { internalsOf } from '../client/core/client-internals.js';
import { Message } from '../client/inbound/message.js';
import type { MessageData } from '../client/types.js';
import type { ChatStateUpdate } from '../engines/ports/presence.js';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import { runOutside } from '../kernel/effect-guard.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { chatOf } from './person-key.js';
import type { ConversationStore, StateRecord } from './store/conversation-store.js';
import { turnSettings, type TurnOption, type TurnSettings } from './turn-option.js';

/** The largest turn: the message that fills it closes the window at once. */
export const MAX_TURN_MESSAGES = 50;
/** How long "typing…" or "recording…" holds a window open without a `paused` (WhatsApp's own). */
export const TYPING_HOLD_MS = 25_000;
/** A claimed turn's record is deleted once handed on; left by a crash, it expires after a day. */
const HANDLED_TTL_MS = 86_400_000;
const MAX_DELAY_MS = 2_147_483_647;

/** A window as the store keeps it. */
interface PendingTurn {
  client: string;
  chatId: string;
  member: string;
  openedAt: number;
  dueAt: number;
  quietMs: number;
  maxMs: number;
  /** The messages received so far, oldest first, as plain data. */
  messages: MessageData[];
  /** Claimed: handed on (or being handed on) once; never again. */
  handled?: true;
}

export interface TurnWindowDeps {
  /** The conversation service: its store, and the definitions (a conversation's `turns`). */
  conversations: {
    readonly store: ConversationStore;
    readonly definitions: readonly { name: string; turns?: TurnOption }[];
  };
  clock: Clock;
  /** The bot's `conversations.turns`, undefined when not configured. */
  configured: TurnSettings | undefined;
  /** The turns plugins asked for (read when a window opens). */
  plugins(): readonly TurnOption[];
  /** The event pipeline: its chat lanes, and the message chain a closed turn goes down. */
  pipeline: {
    inLane(client: BotClient, chatId: string, work: () => Promise<void>): Promise<void>;
    dispatch(client: BotClient, event: 'message', args: [Message]): Promise<void>;
  };
  report(report: ErrorReport): void;
}

/** The store key of a chat member's window (`:` is no client name's: apart from chat state). */
export function turnKey(client: string, chatId: string, member: string): string {
  return `turn:${client}\n${chatId}\n${member}`;
}

export class TurnWindow {
  readonly #d: TurnWindowDeps;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #unwatch: (() => void)[] = [];
  #closed = false;

  constructor(deps: TurnWindowDeps) {
    this.#d = deps;
  }

  /**
   * The pipeline's first `message` middleware: a message that opens or joins a window is held (the
   * chain goes on when the window closes, with the turn); a turn, an own message or a message of a
   * chat without turns goes on now.
   */
  readonly middleware = async (
    { client, message }: { client: BotClient; message: Message },
    next: () => Promise<void>,
  ): Promise<void> => {
    if (message.turn !== undefined || !(await this.#hold(client, message))) await next();
  };

  /** Follows a client: others typing extend their windows; windows left open are completed at READY. */
  watch(client: BotClient): void {
    const onState = (update: ChatStateUpdate): void => {
      void this.#presence(client, update).catch((error: unknown) =>
        this.#report(client, 'turn:presence', error),
      );
    };
    const recover = (): void => {
      void this.recover(client).catch((error: unknown) =>
        this.#report(client, 'turn:recover', error),
      );
    };
    client.on('chat.state', onState);
    client.on('ready', recover);
    this.#unwatch.push(() => {
      client.off('chat.state', onState);
      client.off('ready', recover);
    });
    if (client.state === 'READY') recover();
  }

  /** Arms the windows of `client` found in the store (a restart): each closes at its due time. */
  async recover(client: BotClient): Promise<number> {
    const rows = await this.#d.conversations.store.listStates(`turn:${client.name}\n`);
    for (const { key, record } of rows) {
      const turn = record.value as PendingTurn;
      if (turn.handled) await this.#d.conversations.store.deleteState(key);
      else this.#arm(client, key, turn);
    }
    return rows.length;
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) this.#d.clock.clearTimeout(timer);
    this.#timers.clear();
    for (const unwatch of this.#unwatch.splice(0)) unwatch();
  }

  /** The settings of a window opened now: the conversation's, the bot's, the plugins', or off. */
  async #settings(
    client: string,
    chatId: string,
    member: string,
  ): Promise<TurnSettings | undefined> {
    const { store, definitions } = this.#d.conversations;
    const active = await store.active(client, chatId, member);
    const own = active && definitions.find((d) => d.name === active.name)?.turns;
    if (own !== undefined) return turnSettings(own);
    if (this.#d.configured !== undefined) return turnSettings(this.#d.configured);
    let widest: TurnSettings | undefined;
    for (const option of this.#d.plugins()) {
      const settings = turnSettings(option);
      if (!settings) continue;
      widest = {
        quietMs: Math.max(widest?.quietMs ?? 0, settings.quietMs),
        maxMs: Math.max(widest?.maxMs ?? 0, settings.maxMs),
      };
    }
    return widest;
  }

  /** Whether any setting can turn them on: when none can, a message costs no store read. */
  #possible(): boolean {
    const { configured, conversations } = this.#d;
    if (turnSettings(configured)) return true;
    if (conversations.definitions.some((d) => turnSettings(d.turns))) return true;
    return configured === undefined && this.#d.plugins().some((option) => turnSettings(option));
  }

  /** Records `message` in its window (opening one); false when turns are off for its chat. */
  async #hold(client: BotClient, message: Message): Promise<boolean> {
    if (message.fromMe || message.isStatus || message.broadcast || message.isChannel) return false;
    if (!this.#possible()) return false;
    const { chatId, member } = chatOf(message);
    const key = turnKey(client.name, chatId, member);
    const data = JSON.parse(JSON.stringify(message)) as MessageData;
    const written = await this.#update(key, async (open, now) => {
      if (open) {
        if (open.messages.some((m) => m.id === message.id)) return open;
        return due({ ...open, messages: [...open.messages, data] }, now);
      }
      const settings = await this.#settings(client.name, chatId, member);
      if (!settings) return undefined;
      return due(
        {
          client: client.name,
          chatId,
          member,
          openedAt: now,
          dueAt: now,
          ...settings,
          messages: [data],
        },
        now,
      );
    });
    if (!written) return false;
    this.#arm(client, key, written);
    return true;
  }

  /** Typing or recording holds an open window; `paused` lets it close `quietMs` later. */
  async #presence(client: BotClient, update: ChatStateUpdate): Promise<void> {
    const isGroup = update.chatId.endsWith('@g.us');
    const known = await client.resolveContact(update.by).catch(() => {
      // not reported: a person the client cannot look up keeps the id the update came with
      return undefined;
    });
    const sender = {
      id: update.by,
      ...(known?.lid ? { lid: known.lid } : {}),
      ...(known?.phone ? { phone: known.phone } : {}),
    };
    const { chatId, member } = chatOf({
      chatId: isGroup ? update.chatId : (sender.lid ?? update.chatId),
      isGroup,
      sender,
    });
    const key = turnKey(client.name, chatId, member);
    await this.#inLane(client, chatId, 'turn:presence', async () => {
      const written = await this.#update(key, (open, now) => {
        if (!open) return Promise.resolve(undefined);
        const bound = open.openedAt + open.maxMs;
        const hold =
          update.state === 'paused' ? open.quietMs : Math.max(open.quietMs, TYPING_HOLD_MS);
        const dueAt = Math.min(now + hold, bound);
        return Promise.resolve(dueAt === open.dueAt ? open : { ...open, dueAt });
      });
      if (written) this.#arm(client, key, written);
    });
  }

  /**
   * Read, change and compare-and-set the open window of `key` (up to 20 tries): `change` gets it
   * (undefined when none is open) and returns what to write, or undefined to write nothing.
   */
  async #update(
    key: string,
    change: (open: PendingTurn | undefined, now: number) => Promise<PendingTurn | undefined>,
  ): Promise<PendingTurn | undefined> {
    const store = this.#d.conversations.store;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const record = await store.getState(key);
      const open = openOf(record);
      const next = await change(open, this.#d.clock.now());
      if (next === undefined) return undefined;
      if (next === open) return open;
      if ((await store.putState(key, next, record?.version ?? 0)) !== undefined) return next;
    }
    throw new WakitError(
      'STATE_CONFLICT',
      `The turn window ${key} kept changing under this write`,
      {
        details: { key },
      },
    );
  }

  #arm(client: BotClient, key: string, turn: PendingTurn): void {
    if (this.#closed) return;
    const previous = this.#timers.get(key);
    if (previous) this.#d.clock.clearTimeout(previous);
    const delay = Math.min(Math.max(0, turn.dueAt - this.#d.clock.now()), MAX_DELAY_MS);
    const fire = (): void => {
      this.#timers.delete(key);
      void this.#inLane(client, turn.chatId, 'turn:close', () => this.#close(client, key));
    };
    // armed inside a handler's scope too: the window's timer fires outside it
    const timer = runOutside(() => this.#d.clock.setTimeout(fire, delay));
    timer.unref?.();
    this.#timers.set(key, timer);
  }

  /** Runs `work` in the chat's lane; its failure is reported (the lane passes none on). */
  #inLane(
    client: BotClient,
    chatId: string,
    event: string,
    work: () => Promise<void>,
  ): Promise<void> {
    return this.#d.pipeline.inLane(client, chatId, () =>
      work().catch((error: unknown) => this.#report(client, event, error)),
    );
  }

  #report(client: BotClient, event: string, error: unknown): void {
    this.#d.report({ source: 'conversation', client: client.name, event, error });
  }

  /** Closes the window of `key` if it is due: claims the turn (compare-and-set), hands it on once. */
  async #close(client: BotClient, key: string): Promise<void> {
    const store = this.#d.conversations.store;
    const record = await store.getState(key);
    if (!record) return;
    const open = openOf(record);
    if (!open) {
      await store.deleteState(key); // claimed before a crash: handed on then, not again
      return;
    }
    const now = this.#d.clock.now();
    if (open.dueAt > now) return this.#arm(client, key, open);
    const claimed: PendingTurn = { ...open, handled: true };
    if ((await store.putState(key, claimed, record.version, now + HANDLED_TTL_MS)) === undefined) {
      return; // another writer came first: it re-armed the window, or another node claimed it
    }
    const internals = internalsOf(client);
    const turn = Message.turnOf(open.messages.map((data) => internals.message(data)));
    try {
      await this.#d.pipeline.dispatch(client, 'message', [turn]);
    } finally {
      await store.deleteState(key);
    }
  }
}

/** The window in a record, unless it was claimed. */
function openOf(record: StateRecord | undefined): PendingTurn | undefined {
  const turn = record?.value as PendingTurn | undefined;
  return turn && !turn.handled ? turn : undefined;
}

/** When the window closes after a message at `now`: quiet after it, bounded, or at once when full. */
function due(turn: PendingTurn, now: number): PendingTurn {
  const bound = turn.openedAt + turn.maxMs;
  const dueAt =
    turn.messages.length >= MAX_TURN_MESSAGES ? now : Math.min(now + turn.quietMs, bound);
  return { ...turn, dueAt };
}
