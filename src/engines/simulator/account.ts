/** An account of the virtual network: a phone people hold, or the account a bot client links to. */
import { WakitError } from '../../errors/index.js';
import type { MediaFile } from '../types.js';
import type { GroupOps } from '../ports/groups.js';
import type {
  SimGroupAddPrivacy,
  SimGroupEvent,
  SimInboxMessage,
  SimKindContent,
  SimMediaContent,
  SimPhone,
  SimSendOptions,
} from './types.js';
import type { CallData } from '../ports/calls.js';
import { GROUP_SUFFIX, LID_SUFFIX, deriveLid, toNumber, userId } from './ids.js';
import type { SimCall } from './calls.js';
import { SimChats, type SimChatState } from './chats.js';
import { SimAddressBook, type SimPictureVisibility } from './contacts.js';
import type { PollVote } from '../ports/messages.js';
import type { ActionDevice, SimActionEvent } from './action-types.js';
import type { SimActions } from './actions.js';
import type { ChatState } from '../ports/presence.js';

/** Messages kept per inbox; older ones are dropped (the benchmark pushes millions through). */
export const SIM_INBOX_LIMIT = 1_000;

/** A message as stored by the network: one object shared by every receiver's inbox. */
export interface SimRecord extends SimInboxMessage {
  readonly stanza: string;
  /** The chat the sender addressed (a user id or a group id). */
  readonly target: string;
  readonly media?: MediaFile;
  /** Receivers see the sender by LID (a LID-addressed phone, or a group in LID addressing mode). */
  readonly byLid: boolean;
  ack: number;
  /** A poll's current votes: voter account id → the option names chosen. */
  votes?: Map<string, string[]>;
}

/** What the network needs from an engine linked to an account. */
export interface LinkedDevice extends ActionDevice {
  receiveInbound(record: SimRecord, sender: SimAccount): void;
  /** The account wrote from its phone: its linked devices see the message (`fromMe`). */
  receiveOwn(record: SimRecord, account: SimAccount): void;
  receiveGroupEvent(event: SimGroupEvent): void;
  /** Someone calls this account. */
  receiveCall(call: CallData): void;
  /** A vote on a poll of a chat this account is in, as this account sees it. */
  receiveVote(vote: PollVote): void;
}

interface Waiter {
  predicate: (message: SimInboxMessage) => boolean;
  resolve: (message: SimInboxMessage) => void;
}

export type PhoneSend = (
  sender: SimAccount,
  chatId: string,
  content: string | SimMediaContent | SimKindContent,
  opts: SimSendOptions,
) => { id: string };

export type PhoneCall = (caller: SimAccount, to: string, opts: { video?: boolean }) => SimCall;

/** Digits of a number or `@c.us` id; VALIDATION_FAILED otherwise. */
function digitsOf(numberOrId: string): string {
  const digits = toNumber(numberOrId);
  if (!digits) {
    throw new WakitError('VALIDATION_FAILED', `"${numberOrId}" is not a phone number or @c.us id`);
  }
  return digits;
}
export type PhoneVote = (voter: SimAccount, pollMessageId: string, options: string[]) => void;

export class SimAccount implements SimPhone {
  readonly id: string;
  /** `<digits>@lid`: every account has one, as on WhatsApp. */
  readonly lid: string;
  /** Its messages arrive as `…@lid` and its number is hidden from those who do not have it saved. */
  lidAddressed = false;
  /** Numbers this account has saved as contacts (they see a LID-addressed phone's number). */
  readonly contacts = new Set<string>();
  /** Engines currently linked and ready on this account (multi-device). */
  readonly devices = new Set<LinkedDevice>();
  /** Group management as this account (set by the network). */
  groups!: GroupOps;
  groupAdd: SimGroupAddPrivacy = 'everyone';
  private events: SimGroupEvent[] = [];
  /** Conversations: history, unread counts, archived / pinned / muted. */
  readonly chats = new SimChats();
  /** Saved names, blocked people, own profile picture. */
  readonly book = new SimAddressBook();
  /** @internal Reactions, edits, revokes and presence (simulator/actions.ts), set by the network. */
  actionsModel: SimActions | undefined;
  private box: SimRecord[] = [];
  private readonly waiters = new Set<Waiter>();
  /** @internal Set by the network: casts this phone's votes. */
  voteVia: PhoneVote = () => {
    throw new WakitError('INTERNAL', 'this phone is not on a network');
  };

  constructor(
    readonly number: string,
    public pushname: string,
    private readonly sendVia: PhoneSend,
    lidDigits?: string,
    private readonly callVia?: PhoneCall,
  ) {
    this.id = userId(number);
    this.lid = `${lidDigits ?? deriveLid(number)}${LID_SUFFIX}`;
  }

  addContact(numberOrId: string, name?: string): void {
    const digits = numberOrId.replace(/@c\.us$/, '').replace(/[\s+-]/g, '');
    if (!/^\d{5,20}$/.test(digits)) {
      throw new WakitError('VALIDATION_FAILED', `"${numberOrId}" is not a phone number`);
    }
    this.contacts.add(digits);
    if (name !== undefined) this.book.names.set(digits, name);
  }

  block(numberOrId: string): void {
    this.book.blocked.add(userId(digitsOf(numberOrId)));
  }

  unblock(numberOrId: string): void {
    this.book.blocked.delete(userId(digitsOf(numberOrId)));
  }

  setProfilePicture(url: string | null, opts: { visibleTo?: SimPictureVisibility } = {}): void {
    this.book.picture = url === null ? null : { url, visibleTo: opts.visibleTo ?? 'everyone' };
  }

  setChatFlags(chatId: string, state: SimChatState): void {
    const key =
      chatId.endsWith(GROUP_SUFFIX) || chatId.endsWith('@newsletter')
        ? chatId
        : userId(digitsOf(chatId));
    this.chats.setState(key, state);
  }

  call(to: string, opts: { video?: boolean } = {}): SimCall {
    if (!this.callVia) throw new WakitError('NOT_SUPPORTED', 'this phone cannot place calls');
    return this.callVia(this, to, opts);
  }

  /** How `viewer` sees this account's number: hidden behind the LID unless saved as a contact. */
  phoneVisibleTo(viewer: SimAccount): boolean {
    return !this.lidAddressed || viewer === this || viewer.contacts.has(this.number);
  }

  send(
    chatId: string,
    content: string | SimMediaContent | SimKindContent,
    opts: SimSendOptions = {},
  ): Promise<{ id: string }> {
    try {
      return Promise.resolve(this.sendVia(this, chatId, content, opts));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  vote(pollMessageId: string, options: string[]): Promise<void> {
    try {
      this.voteVia(this, pollMessageId, options);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  get inbox(): ReadonlyArray<SimInboxMessage> {
    return this.box.length > SIM_INBOX_LIMIT ? this.box.slice(-SIM_INBOX_LIMIT) : this.box;
  }

  get groupEvents(): ReadonlyArray<SimGroupEvent> {
    return this.events.length > SIM_INBOX_LIMIT ? this.events.slice(-SIM_INBOX_LIMIT) : this.events;
  }

  /** @internal A group event for this member: kept, and handed to its linked devices. */
  receiveGroupEvent(event: SimGroupEvent): void {
    this.events.push(event);
    if (this.events.length > 2 * SIM_INBOX_LIMIT) this.events = this.events.slice(-SIM_INBOX_LIMIT);
    for (const device of this.devices) device.receiveGroupEvent(event);
  }

  /** @internal Called by the network when a message reaches this account. */
  receive(record: SimRecord): void {
    this.box.push(record);
    if (this.box.length > 2 * SIM_INBOX_LIMIT) this.box = this.box.slice(-SIM_INBOX_LIMIT);
    if (this.waiters.size === 0) return;
    for (const waiter of this.waiters) {
      if (waiter.predicate(record)) {
        this.waiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  }

  waitForMessage(
    predicate: (message: SimInboxMessage) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<SimInboxMessage> {
    const found = this.inbox.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new WakitError(
            'TIMEOUT',
            `phone ${this.number} received no matching message in ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref?.();
      this.waiters.add(waiter);
    });
  }
  // ── actions (simulator/actions.ts) ─────────────────────────────────────────────────────────

  react(messageId: string, emoji: string): Promise<void> {
    return this.act((model) => model.react(this, messageId, emoji));
  }

  edit(messageId: string, text: string): Promise<void> {
    return this.act((model) => model.edit(this, messageId, text));
  }

  revoke(messageId: string): Promise<void> {
    return this.act((model) => model.revoke(this, messageId));
  }

  setChatState(chatId: string, state: ChatState): Promise<void> {
    return this.act((model) => model.chatState(this, chatId, state));
  }

  get actions(): ReadonlyArray<SimActionEvent> {
    return this.actionsModel?.logOf(this) ?? [];
  }

  waitForAction(
    predicate: (event: SimActionEvent) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<SimActionEvent> {
    return this.act((model) => model.waitFor(this, predicate, timeoutMs));
  }

  get online(): boolean | null {
    return this.actionsModel?.onlineOf(this) ?? null;
  }

  reactionsOn(messageId: string): ReadonlyMap<string, string> {
    return this.actionsModel?.reactionsOn(messageId) ?? new Map<string, string>();
  }

  private act<T>(fn: (model: SimActions) => T | Promise<T>): Promise<T> {
    try {
      if (!this.actionsModel) throw new WakitError('INTERNAL', 'this phone is on no network');
      return Promise.resolve(fn(this.actionsModel));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
