/**
 * The simulator's model of message actions and presence: reactions, edits, deletes (for everyone
 * and for me), chat states ("typing…"), read receipts and online state. It keeps WhatsApp's rules:
 * only the author edits, within 15 minutes; only the author (or a group admin) deletes for
 * everyone, within 2 days 12 hours; only people who see a message react to it. Everyone in the
 * chat sees what happens: phones in their `actions` log, linked bot clients as engine events.
 */
import { WakitError } from '../../errors/index.js';
import { EDIT_WINDOW_MS, REVOKE_WINDOW_MS } from '../ports/actions.js';
import type { ChatState } from '../ports/presence.js';
import type { SimAccount, SimRecord } from './account.js';
import type { SimGroupImpl } from './group.js';
import { GROUP_SUFFIX, serializeId } from './ids.js';
import type { ActionsNetwork, SimActionEvent, SimActionNotice } from './action-types.js';

interface RecordState {
  /** Reactor account id → emoji. */
  readonly reactions: Map<string, string>;
  /** Accounts that deleted it for themselves. */
  readonly hiddenFor: Set<string>;
}

interface Waiter {
  predicate: (event: SimActionEvent) => boolean;
  resolve: (event: SimActionEvent) => void;
}

/** Events kept per phone; older ones are dropped. */
export const SIM_ACTION_LOG_LIMIT = 1_000;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const EDITABLE = new Set(['chat', 'image', 'video', 'document']);
const isChannel = (id: string): boolean => id.endsWith('@newsletter');
const isStatus = (id: string): boolean => id === 'status@broadcast';

export class SimActions {
  readonly #state = new WeakMap<SimRecord, RecordState>();
  readonly #logs = new WeakMap<SimAccount, SimActionEvent[]>();
  readonly #waiters = new WeakMap<SimAccount, Set<Waiter>>();
  readonly #online = new Map<string, boolean>();

  constructor(private readonly network: ActionsNetwork) {}

  // ── message actions ──────────────────────────────────────────────────────────────────────────

  react(actor: SimAccount, messageId: string, emoji: string): void {
    const record = this.#visible(actor, messageId);
    const reactions = this.#of(record).reactions;
    if (emoji === '') reactions.delete(actor.id);
    else reactions.set(actor.id, emoji);
    const timestamp = Math.floor(Date.now() / 1000);
    this.#tell(record, actor, (viewer, view, by) => ({
      log: { type: 'reaction', by, chatId: view.chatId, messageId: record.id, emoji },
      notice: {
        event: 'message.reaction',
        update: {
          messageId: view.messageId,
          chatId: view.chatId,
          senderId: by,
          emoji,
          removed: emoji === '',
          fromMe: viewer === actor,
          timestamp,
        },
      },
    }));
  }

  edit(actor: SimAccount, messageId: string, text: string): void {
    const record = this.#visible(actor, messageId);
    if (record.author !== actor.id) {
      throw new WakitError('PERMISSION_DENIED', `Only the author can edit message ${messageId}`, {
        details: { messageId, reason: 'not_author' },
      });
    }
    if (!EDITABLE.has(record.type) || (record.type !== 'chat' && record.media === undefined)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        `Message ${messageId} is a ${record.type} message: only text and captions can be edited`,
        { details: { messageId, type: record.type } },
      );
    }
    checkWindow(record, messageId, EDIT_WINDOW_MS, 'edited');
    const previousBody = record.body;
    const writable = record as Writable<SimRecord>;
    writable.body = text;
    if (record.type !== 'chat') writable.caption = text;
    const timestamp = Math.floor(Date.now() / 1000);
    this.#tell(record, actor, (viewer, view, by) => ({
      log: {
        type: 'edit',
        by,
        chatId: view.chatId,
        messageId: record.id,
        body: text,
        previousBody,
      },
      notice: {
        event: 'message.edit',
        update: {
          messageId: view.messageId,
          chatId: view.chatId,
          author: by,
          body: text,
          previousBody,
          fromMe: viewer === actor,
          timestamp,
        },
      },
    }));
  }

  revoke(actor: SimAccount, messageId: string): void {
    const record = this.#visible(actor, messageId);
    if (record.author !== actor.id) {
      const group = record.isGroup ? this.network.findGroup(record.target) : undefined;
      if (!group?.admins.has(actor.id)) {
        throw new WakitError(
          'PERMISSION_DENIED',
          `Only the author${record.isGroup ? ' or a group admin' : ''} can delete message ${messageId} for everyone`,
          { details: { messageId, reason: record.isGroup ? 'not_author_or_admin' : 'not_author' } },
        );
      }
    }
    checkWindow(record, messageId, REVOKE_WINDOW_MS, 'deleted for everyone');
    const previousBody = record.body;
    const writable = record as Writable<SimRecord>;
    writable.type = 'revoked';
    writable.body = '';
    writable.caption = undefined;
    writable.media = undefined;
    this.#of(record).reactions.clear();
    const timestamp = Math.floor(Date.now() / 1000);
    this.#tell(record, actor, (viewer, view, by) => ({
      log: { type: 'revoke', by, chatId: view.chatId, messageId: record.id, previousBody },
      notice: {
        event: 'message.revoke',
        update: {
          messageId: view.messageId,
          chatId: view.chatId,
          by,
          fromMe: viewer.id === record.author,
          previousBody,
          timestamp,
        },
      },
    }));
  }

  /** Deletes a message on the actor's devices only: nobody else is told. */
  deleteForMe(actor: SimAccount, messageId: string): void {
    this.#of(this.#visible(actor, messageId)).hiddenFor.add(actor.id);
  }

  reactionsOn(messageId: string): ReadonlyMap<string, string> {
    const record = this.network.findMessage(messageId);
    return new Map(record ? this.#state.get(record)?.reactions : undefined);
  }

  // ── presence ─────────────────────────────────────────────────────────────────────────────────

  chatState(actor: SimAccount, chatId: string, state: ChatState): void {
    const { others, group } = this.#chat(actor, chatId);
    for (const other of others) {
      const by = this.#as(actor, other, group?.addressing === 'lid');
      this.#log(other, { type: 'chat-state', by, chatId: group ? group.id : by, state });
      // linked bots see it too (whatsapp-web.js reports no chat state of others: the real one not)
      const update = { chatId: group ? group.id : by, by, state };
      for (const device of other.devices) device.receiveAction?.({ event: 'chat.state', update });
    }
  }

  /**
   * Marks the chat read: its unread count drops to 0, others' messages in it get ack 3 (read),
   * their senders are told.
   */
  seen(actor: SimAccount, chatId: string): void {
    const { others, group } = this.#chat(actor, chatId);
    actor.chats.markSeen(group ? group.id : (others[0] ?? actor).id);
    const told = new Set<SimAccount>();
    for (const record of actor.inbox as ReadonlyArray<SimRecord>) {
      if (record.author === actor.id || record.ack >= 3) continue;
      const inChat = group
        ? record.target === group.id
        : !record.isGroup && others.some((other) => other.id === record.author);
      if (!inChat) continue;
      record.ack = 3;
      const author = this.network.person(record.author);
      if (author) told.add(author);
    }
    for (const other of told) {
      const by = this.#as(actor, other, group?.addressing === 'lid');
      this.#log(other, { type: 'seen', by, chatId: group ? group.id : by });
    }
  }

  setOnline(actor: SimAccount, online: boolean): void {
    this.#online.set(actor.id, online);
  }

  onlineOf(account: SimAccount): boolean | null {
    return this.#online.get(account.id) ?? null;
  }

  // ── what phones see ──────────────────────────────────────────────────────────────────────────

  logOf(account: SimAccount): ReadonlyArray<SimActionEvent> {
    const log = this.#logs.get(account) ?? [];
    return log.length > SIM_ACTION_LOG_LIMIT ? log.slice(-SIM_ACTION_LOG_LIMIT) : log;
  }

  waitFor(
    account: SimAccount,
    predicate: (event: SimActionEvent) => boolean,
    timeoutMs: number,
  ): Promise<SimActionEvent> {
    const found = this.logOf(account).find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      let waiters = this.#waiters.get(account);
      if (!waiters) this.#waiters.set(account, (waiters = new Set()));
      const waiter: Waiter = {
        predicate,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new WakitError(
            'TIMEOUT',
            `phone ${account.number} saw no matching action in ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref?.();
      waiters.add(waiter);
    });
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────────────

  #of(record: SimRecord): RecordState {
    let state = this.#state.get(record);
    if (!state) this.#state.set(record, (state = { reactions: new Map(), hiddenFor: new Set() }));
    return state;
  }

  /** The message, if `actor` sees it (and it is not deleted): MESSAGE_NOT_FOUND otherwise. */
  #visible(actor: SimAccount, messageId: string): SimRecord {
    const record = this.network.findMessage(messageId);
    const missing = (why: string): WakitError =>
      new WakitError('MESSAGE_NOT_FOUND', `Message ${messageId} ${why}`, {
        details: { messageId },
      });
    if (!record || !this.#participants(record).includes(actor)) throw missing('is unknown');
    if (record.type === 'revoked') throw missing('was deleted for everyone');
    if (this.#state.get(record)?.hiddenFor.has(actor.id)) throw missing('was deleted');
    return record;
  }

  /** Accounts in the record's chat: the group's members, else its author and addressee. */
  #participants(record: SimRecord): SimAccount[] {
    const author = this.network.person(record.author);
    const accounts: SimAccount[] = author ? [author] : [];
    const add = (id: string): void => {
      const account = this.network.person(id);
      if (account && !accounts.includes(account)) accounts.push(account);
    };
    if (record.isGroup) {
      for (const member of this.network.findGroup(record.target)?.members ?? []) add(member);
    } else if (isChannel(record.target)) {
      for (const follower of this.network.findChannel(record.target)?.followers ?? []) {
        add(follower);
      }
    } else if (!isStatus(record.target)) {
      add(record.target);
    }
    return accounts;
  }

  /** The other accounts of a chat `actor` is in: CHAT_NOT_FOUND otherwise. */
  #chat(actor: SimAccount, chatId: string): { others: SimAccount[]; group?: SimGroupImpl } {
    if (chatId.endsWith(GROUP_SUFFIX)) {
      const group = this.network.findGroup(chatId);
      if (!group?.members.has(actor.id)) {
        throw new WakitError('CHAT_NOT_FOUND', `${actor.id} is not in group ${chatId}`, {
          details: { chatId },
        });
      }
      const others = [...group.members]
        .filter((id) => id !== actor.id)
        .map((id) => this.network.person(id))
        .filter((account): account is SimAccount => account !== undefined);
      return { others, group };
    }
    const other = this.network.person(chatId);
    if (!other) {
      throw new WakitError('CHAT_NOT_FOUND', `${chatId} is not on WhatsApp`, {
        details: { chatId },
      });
    }
    return { others: other === actor ? [] : [other] };
  }

  /** How `viewer` sees `actor`: by LID when the actor is LID-addressed or the group uses LIDs. */
  #as(actor: SimAccount, viewer: SimAccount, lidGroup: boolean): string {
    if (actor === viewer) return actor.id;
    return actor.lidAddressed || lidGroup ? actor.lid : actor.id;
  }

  /** How `viewer` knows the record: its id and chat (as whatsapp-web.js serializes them). */
  #view(record: SimRecord, viewer: SimAccount): { messageId: string; chatId: string } {
    if (viewer.id === record.author) {
      return { messageId: serializeId(true, record.target, record.stanza), chatId: record.target };
    }
    const author = this.network.person(record.author);
    const senderId = record.byLid && author ? author.lid : record.author;
    const shared = record.isGroup || isChannel(record.chatId) || isStatus(record.chatId);
    const from = shared ? record.chatId : senderId;
    const authorPart = record.isGroup || isStatus(record.chatId) ? senderId : undefined;
    return { messageId: serializeId(false, from, record.stanza, authorPart), chatId: from };
  }

  /** Tells everyone in the record's chat: phones (other than the actor) log it, devices emit it. */
  #tell(
    record: SimRecord,
    actor: SimAccount,
    build: (
      viewer: SimAccount,
      view: { messageId: string; chatId: string },
      by: string,
    ) => { log: Omit<SimActionEvent, 'at'>; notice: SimActionNotice },
  ): void {
    const lidGroup = record.isGroup && this.network.findGroup(record.target)?.addressing === 'lid';
    for (const viewer of this.#participants(record)) {
      const { log, notice } = build(
        viewer,
        this.#view(record, viewer),
        this.#as(actor, viewer, lidGroup),
      );
      if (viewer !== actor) this.#log(viewer, log);
      // Every linked device, the acting one included (whatsapp-web.js reports own actions too).
      for (const device of viewer.devices) device.receiveAction?.(notice);
    }
  }

  #log(account: SimAccount, event: Omit<SimActionEvent, 'at'>): void {
    const entry: SimActionEvent = { ...event, at: Date.now() };
    let log = this.#logs.get(account);
    if (!log) this.#logs.set(account, (log = []));
    log.push(entry);
    if (log.length > 2 * SIM_ACTION_LOG_LIMIT) log.splice(0, log.length - SIM_ACTION_LOG_LIMIT);
    const waiters = this.#waiters.get(account);
    if (!waiters) return;
    for (const waiter of waiters) {
      if (waiter.predicate(entry)) {
        waiters.delete(waiter);
        waiter.resolve(entry);
      }
    }
  }
}

/** MESSAGE_TOO_OLD once `windowMs` passed since the message was sent. */
function checkWindow(record: SimRecord, messageId: string, windowMs: number, what: string): void {
  const sentAt = record.timestamp * 1000;
  if (Date.now() - sentAt <= windowMs) return;
  throw new WakitError(
    'MESSAGE_TOO_OLD',
    `Message ${messageId} is older than ${windowText(windowMs)}: it can no longer be ${what}`,
    { details: { messageId, windowMs, sentAt: new Date(sentAt).toISOString() } },
  );
}

function windowText(ms: number): string {
  return ms >= 3_600_000 ? `${ms / 3_600_000} hours` : `${ms / 60_000} minutes`;
}
