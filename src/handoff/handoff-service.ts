/**
 * Handoff (docs/handoff.md): per client and chat, a mode `bot | human | closed`. Outside `bot` the
 * pipeline's gate keeps handlers, commands and conversations away from the chat. A message the
 * account sends that wakit did not send (a person on the phone or on WhatsApp Web) makes the chat
 * `human` until the account has been silent there for `handoff.silenceMinutes`; that deadline is
 * stored with the mode and armed again at start, so it fires with no new message, after restarts.
 */
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { Message } from '../client/inbound/message.js';
import { internalsOf } from '../client/core/client-internals.js';
import { normalizeChatId, REPLY_KINDS } from '../client/chat-id.js';
import { prepareContent } from '../client/send/send-contract.js';
import type { WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { ConversationTimers } from '../conversations/conversation-timers.js';
import { chatOf } from '../conversations/person-key.js';
import type { ConversationStore } from '../conversations/store/conversation-store.js';
import { ChatModes, infoOf, type ModeValue } from './chat-modes.js';
import { OperatorCommands } from './operator-commands.js';
import { OwnSends } from './own-sends.js';
import { PersonIds } from './person-ids.js';
import {
  CHAT_MODES,
  MAX_MODE_REASON,
  type ChatMode,
  type ChatModeInfo,
  type ChatModeSource,
  type SetChatModeOptions,
} from './types.js';

/** What the service uses of the conversations. */
export interface HandoffConversations {
  readonly store: ConversationStore;
  personChat(client: string, chatId: string): Promise<string>;
  list(client?: string): Promise<{ id: string; chatId: string }[]>;
  end(id: string): Promise<void>;
  restartTimers(client: string, chatId: string): Promise<void>;
}

export interface HandoffDeps {
  config: Readonly<WakitConfig>;
  clock: Clock;
  logger: Logger;
  clients: { get(name: string): BotClient };
  conversations: HandoffConversations;
  report(report: ErrorReport): void;
}

/** Switches per mode since start (the `/metrics` counter). */
export type SwitchCounts = Record<ChatMode, number>;

const timerId = (client: string, chatId: string): string => `${client}\n${chatId}`;

export class HandoffService {
  readonly modes: ChatModes;
  readonly switches: SwitchCounts = { bot: 0, human: 0, closed: 0 };
  readonly #d: HandoffDeps;
  readonly #timers: ConversationTimers;
  readonly #own = new Map<string, OwnSends>();
  /** Deadlines loaded at start, by client: armed once the client exists (`watch`). */
  readonly #loaded = new Map<string, { chatId: string; until: number }[]>();
  readonly #commands: OperatorCommands;
  readonly #log: Logger;
  readonly #ids: PersonIds;

  constructor(deps: HandoffDeps) {
    this.#d = deps;
    this.modes = new ChatModes(() => deps.conversations.store);
    this.#ids = new PersonIds(() => deps.conversations.store);
    this.#log = deps.logger.child({ component: 'handoff' });
    this.#commands = new OperatorCommands(deps.config);
    this.#timers = new ConversationTimers(deps.clock, (id) => {
      const [client = '', chatId = ''] = id.split('\n');
      return this.#silenceOver(client, chatId).catch((error: unknown) =>
        deps.report({ source: 'handoff', client, event: 'handoff:silence', error }),
      );
    });
  }

  /** Reads the silence deadlines kept in the store; each is armed when its client is there. */
  async load(): Promise<void> {
    for (const { client, chatId, value } of await this.modes.list()) {
      if (value.mode !== 'human' || value.until === undefined) continue;
      const list = this.#loaded.get(client) ?? [];
      list.push({ chatId, until: value.until });
      this.#loaded.set(client, list);
    }
  }

  /** Follows the account's own messages of `client` (automatic `human`, operator commands). */
  watch(client: BotClient): void {
    if (this.#own.has(client.name)) return;
    this.#own.set(client.name, new OwnSends(client, this.#d.config.queue.sendTimeoutMs));
    // deadlines kept from before the start (they fire at once when they passed)
    for (const { chatId, until } of this.#loaded.get(client.name) ?? []) {
      this.#timers.set(timerId(client.name, chatId), until);
    }
    this.#loaded.delete(client.name);
    // in a fleet the client may come here after its deadlines were set on another node
    client.on('ready', () => {
      void this.#arm(client.name).catch((error: unknown) =>
        this.#d.report({ source: 'handoff', client: client.name, event: 'handoff:arm', error }),
      );
    });
    client.on('message.create', (message) => {
      void this.#fromAccount(client, message).catch((error: unknown) =>
        this.#d.report({
          source: 'handoff',
          client: client.name,
          event: 'message.create',
          messageId: message.id,
          error,
        }),
      );
    });
  }

  /** Arms the silence deadlines stored for `client` (a deadline passed fires at once). */
  async #arm(client: string): Promise<void> {
    for (const { chatId, value } of await this.modes.list(client)) {
      if (value.mode === 'human' && value.until !== undefined) {
        this.#timers.set(timerId(client, chatId), value.until);
      }
    }
  }

  close(): void {
    this.#timers.close();
    for (const own of this.#own.values()) own.close();
    this.#own.clear();
  }

  /**
   * The pipeline's gate for a message or a vote of `chatId`: true lets the whole chain run; false
   * only the handlers that opted in (`allModes`). An operator's `!bot`/`!human`/`!close` is
   * handled here, before anything else sees it.
   */
  async open(client: BotClient, chatId: string, message?: Message): Promise<boolean> {
    if (message && (await this.#operatorCommand(client, message))) return false;
    return !(await this.held(client.name, chatId));
  }

  /** Is the chat out of `bot` (its conversations' timers wait)? */
  async held(client: string, chatId: string): Promise<boolean> {
    const value = await this.modes.get(client, chatId);
    return value !== undefined && value.mode !== 'bot';
  }

  /** A chat named by an operator as modes are keyed (a person by one id; INVALID_CHAT_ID). */
  #chat(clientName: string, chatId: string): Promise<string> {
    const client = this.#d.clients.get(clientName);
    const id = normalizeChatId(chatId, 'chatId', { allow: REPLY_KINDS });
    return this.#ids.key(client, id);
  }

  async mode(clientName: string, chatId: string): Promise<ChatModeInfo> {
    const chat = await this.#chat(clientName, chatId);
    return infoOf(clientName, chat, await this.modes.get(clientName, chat));
  }

  async setMode(
    clientName: string,
    chatId: string,
    mode: ChatMode,
    by: ChatModeSource = 'sdk',
    options: SetChatModeOptions = {},
  ): Promise<ChatModeInfo> {
    if (!CHAT_MODES.includes(mode)) {
      throw new WakitError('VALIDATION_FAILED', `Chat mode must be bot, human or closed`, {
        details: { mode },
      });
    }
    const { reason } = options;
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_MODE_REASON)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `A mode's reason is a text of at most ${MAX_MODE_REASON} characters`,
        { details: { field: 'reason' } },
      );
    }
    const chat = await this.#chat(clientName, chatId);
    const client = this.#d.clients.get(clientName);
    return this.#switch(client, chat, by, (current) =>
      current?.mode === mode && current.until === undefined && current.reason === reason
        ? undefined
        : { mode, since: this.#since(current, mode), by, ...(reason ? { reason } : {}) },
    );
  }

  /** The chats whose mode was set (every client, or one), `bot` ones included. */
  async list(client?: string): Promise<ChatModeInfo[]> {
    return (await this.modes.list(client)).map(({ client: c, chatId, value }) =>
      infoOf(c, chatId, value),
    );
  }

  // -------------------------------------------------------------------------------------------

  #since(current: ModeValue | undefined, mode: ChatMode): number {
    return current?.mode === mode ? current.since : this.#d.clock.now();
  }

  async #switch(
    client: BotClient,
    chatId: string,
    by: ChatModeSource,
    fn: (current: ModeValue | undefined) => ModeValue | undefined,
  ): Promise<ChatModeInfo> {
    const [before, after] = await this.modes.update(client.name, chatId, fn);
    const id = timerId(client.name, chatId);
    this.#timers.set(id, after?.mode === 'human' ? after.until : undefined);
    const previous = before?.mode ?? 'bot';
    if (after && after.mode !== previous) await this.#changed(client, chatId, previous, after, by);
    return infoOf(client.name, chatId, after);
  }

  async #changed(
    client: BotClient,
    chatId: string,
    previous: ChatMode,
    value: ModeValue,
    by: ChatModeSource,
  ): Promise<void> {
    this.switches[value.mode] += 1;
    this.#log.info(
      { client: client.name, chatId, mode: value.mode, previous, by },
      'chat mode %s → %s',
      previous,
      value.mode,
    );
    const change = infoOf(client.name, chatId, value);
    internalsOf(client).events.emit('chat.mode', {
      client: client.name,
      chatId,
      mode: value.mode,
      previous,
      by,
      at: change.since as string,
      ...(change.until ? { until: change.until } : {}),
      ...(change.reason ? { reason: change.reason } : {}),
    });
    const conversations = this.#d.conversations;
    if (value.mode === 'bot') {
      await conversations.restartTimers(client.name, chatId);
    } else if (previous === 'bot' && this.#d.config.handoff.conversations === 'end') {
      for (const info of await conversations.list(client.name)) {
        if (info.chatId === chatId) await conversations.end(info.id);
      }
    }
  }

  /** A message of the account: from wakit (nothing to do), an operator command, or a person. */
  async #fromAccount(client: BotClient, message: Message): Promise<void> {
    if (!message.fromMe || message.isStatus || message.broadcast || message.isChannel) return;
    // the account's own chat (notes to self, the engine's own checks) is no customer's
    if (message.chatId === message.from || message.to === message.from) return;
    const command = message.type === 'chat' ? this.#commands.parse(message.body) : undefined;
    if (!command && !this.#d.config.handoff.auto) return;
    if (await this.#own.get(client.name)?.sent(message.id)) return;
    const chatId = await this.#ids.key(client, message.chatId);
    if (command) {
      await this.#switch(client, chatId, 'operator', (current) =>
        current?.mode === command.mode && current.until === undefined
          ? undefined
          : { mode: command.mode, since: this.#since(current, command.mode), by: 'operator' },
      );
      return;
    }
    const until = this.#d.clock.now() + this.#d.config.handoff.silenceMinutes * 60_000;
    await this.#switch(client, chatId, 'phone', (current) => {
      // a chat closed or handed over by hand stays so: only an automatic human is extended
      if (current && current.mode !== 'bot' && current.until === undefined) return undefined;
      return { mode: 'human', since: this.#since(current, 'human'), by: 'phone', until };
    });
  }

  /** `!bot`, `!human`, `!close` of an operator in a chat with the bot. */
  async #operatorCommand(client: BotClient, message: Message): Promise<boolean> {
    if (message.fromMe || message.type !== 'chat') return false;
    const command = this.#commands.parse(message.body);
    if (!command || !this.#commands.isOperator(message.sender)) return false;
    const chatId = command.chat
      ? await this.#ids.key(client, command.chat)
      : chatOf(message).chatId;
    const info = await this.#switch(client, chatId, 'operator', (current) =>
      current?.mode === command.mode && current.until === undefined
        ? undefined
        : { mode: command.mode, since: this.#since(current, command.mode), by: 'operator' },
    );
    await message.reply(`Chat ${info.chatId}: ${info.mode}`);
    return true;
  }

  /** A silence deadline passed: an automatic `human` goes back to `bot`. */
  async #silenceOver(clientName: string, chatId: string): Promise<void> {
    const client = this.#d.clients.get(clientName);
    if (client.state !== 'READY') {
      // the bot takes over (and says so) once its client is READY: the deadline fires again then
      client.once('ready', () => this.#timers.set(timerId(clientName, chatId), 0));
      return;
    }
    const now = this.#d.clock.now();
    let ended: number | undefined;
    const info = await this.#switch(client, chatId, 'silence', (current) => {
      if (current?.mode !== 'human' || current.until === undefined || current.until > now) {
        return undefined;
      }
      ended = current.until;
      return { mode: 'bot', since: now, by: 'silence' };
    });
    const text = this.#d.config.handoff.resumeMessage;
    if (ended === undefined || info.mode !== 'bot' || text === undefined) return;
    // keyed by the deadline: a second node or a repeat after a crash sends nothing twice
    await client.enqueue(prepareContent(chatId, text), {
      idempotencyKey: `${chatId}:${ended}`,
      idempotencyScope: 'handoff',
    });
  }
}
