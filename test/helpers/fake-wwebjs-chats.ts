/* eslint-disable @typescript-eslint/require-await -- async like the real methods: throws become rejections */
/**
 * Chats, contacts and calls for the fake whatsapp-web.js 1.34 (fake-wwebjs-client.ts), written
 * from node_modules/whatsapp-web.js/src: `Chat#_patch` / `fetchMessages` (structures/Chat.js),
 * `Contact#_patch` / `block` / `unblock` (structures/Contact.js, built from
 * `WWebJS.getContactModel`, Injected/Utils.js:1008), `Call#_patch` / `reject` (structures/Call.js)
 * and `Client#getChats` / `getContacts` / `getProfilePicUrl` (Client.js).
 *
 * Chats are derived from the network's messages (own ones and those received by the client's
 * account) and groups; what WhatsApp keeps besides (saved names, archived, pinned, muted,
 * pictures, blocked people) is per network in `chatsState(network)`.
 */
import type { FakeClient, FakeWhatsAppNetwork, RawMessage } from './fake-wwebjs-client.js';
import { FakeMessage } from './fake-wwebjs-client.js';

export interface FakeChatsState {
  /** Chat id → what WhatsApp Web keeps about it. */
  chats: Map<string, { archive?: boolean; pin?: number; muted?: boolean; unread?: number }>;
  /** Saved contacts: id → name. */
  saved: Map<string, string>;
  business: Set<string>;
  blocked: Set<string>;
  /** Id → eurl; ids not here have no (visible) picture. */
  pictures: Map<string, string>;
  /** `WWebJS.rejectCall(peerJid, id)` calls. */
  rejected: Array<{ peerJid: string; id: string }>;
  /** Address-book entries that are not on WhatsApp (isWAContact: false). */
  notOnWhatsApp: Set<string>;
}

const states = new WeakMap<FakeWhatsAppNetwork, FakeChatsState>();

export function chatsState(network: FakeWhatsAppNetwork): FakeChatsState {
  let state = states.get(network);
  if (!state) {
    state = {
      chats: new Map(),
      saved: new Map(),
      business: new Set(),
      blocked: new Set(),
      pictures: new Map(),
      rejected: [],
      notOnWhatsApp: new Set(),
    };
    states.set(network, state);
  }
  return state;
}

/** The raw messages of `chatId` as the client's account sees them, in order. */
function messagesOf(client: FakeClient, chatId: string): RawMessage[] {
  const me = client.account;
  return [...client.network.messages.values()].filter(
    (m) => m.id.remote === chatId && (m.id.fromMe ? m.from === me : m.to === me),
  );
}

/** `Chat` as ChatFactory builds it (structures/Chat.js `_patch`), with `fetchMessages`. */
export class FakeFullChat {
  id: { _serialized: string };
  name: string;
  isGroup: boolean;
  isReadOnly: boolean;
  unreadCount: number;
  timestamp: number | undefined;
  archived: boolean;
  pinned: boolean;
  isMuted: boolean;
  lastMessage: FakeMessage | undefined;
  participants?: Array<{ id: { _serialized: string }; isAdmin: boolean; isSuperAdmin: boolean }>;

  constructor(
    private readonly client: FakeClient,
    base: { id: { _serialized: string }; isGroup: boolean; isReadOnly: boolean },
    participants?: FakeFullChat['participants'],
  ) {
    const chatId = base.id._serialized;
    const state = chatsState(client.network);
    const kept = state.chats.get(chatId) ?? {};
    const messages = messagesOf(client, chatId);
    const last = messages.at(-1);
    const lastOwn = messages.findLastIndex((m) => m.id.fromMe);
    this.id = base.id;
    this.isGroup = base.isGroup;
    this.isReadOnly = base.isReadOnly;
    if (participants) this.participants = participants;
    this.name =
      state.saved.get(chatId) ??
      (base.isGroup ? `Group ${chatId.split('@')[0]}` : `+${chatId.split('@')[0]}`);
    this.unreadCount = kept.unread ?? messages.length - 1 - lastOwn;
    this.timestamp = last?.t;
    this.archived = kept.archive ?? false;
    this.pinned = !!kept.pin;
    this.isMuted = kept.muted ?? false;
    this.lastMessage = last ? new FakeMessage(client, last) : undefined;
  }

  /** Chat.js:203: non-notification messages oldest first; with `limit`, the latest `limit`. */
  async fetchMessages(searchOptions: { limit?: number; fromMe?: boolean } = {}) {
    this.client.calls.push({ method: 'fetchMessages', args: [this.id._serialized, searchOptions] });
    this.client.requirePage();
    let messages = messagesOf(this.client, this.id._serialized).filter(
      (m) => searchOptions.fromMe === undefined || m.id.fromMe === searchOptions.fromMe,
    );
    const limit = searchOptions.limit ?? 0;
    if (limit > 0 && messages.length > limit) messages = messages.slice(messages.length - limit);
    return messages.map((m) => new FakeMessage(this.client, m));
  }
}

/** Client#getChatById: a group, or a person (registered or a known LID), else undefined. */
export function fakeChatById(client: FakeClient, chatId: string): FakeFullChat | undefined {
  const base = client.network.chat(client, chatId);
  if (base) return new FakeFullChat(client, base, base.participants);
  if (chatId.endsWith('@lid') && client.network.lids.has(chatId)) {
    return new FakeFullChat(client, {
      id: { _serialized: chatId },
      isGroup: false,
      isReadOnly: false,
    });
  }
  return undefined;
}

/** Client#getChats: chats with messages, the groups the account is in, and status@broadcast. */
export function fakeChats(client: FakeClient): FakeFullChat[] {
  const ids = new Set<string>();
  for (const m of client.network.messages.values()) {
    if ((m.id.fromMe && m.from === client.account) || (!m.id.fromMe && m.to === client.account))
      ids.add(m.id.remote);
  }
  for (const [id, group] of client.network.groups) {
    if (group.participants.some((p) => p.id === client.account)) ids.add(id);
  }
  const chats: FakeFullChat[] = [];
  for (const id of ids) {
    const chat =
      id === 'status@broadcast'
        ? new FakeFullChat(client, { id: { _serialized: id }, isGroup: false, isReadOnly: true })
        : fakeChatById(client, id);
    if (chat) chats.push(chat);
  }
  return chats;
}

/** `Contact` (structures/Contact.js) from a `getContactModel` serialization. */
export class FakeContact {
  id: { _serialized: string };
  number: string;
  name: string | undefined;
  pushname: string;
  isBusiness: boolean;
  isMe: boolean;
  isUser: boolean;
  isGroup: boolean;
  isWAContact: boolean;
  isMyContact: boolean;
  isBlocked: boolean;

  constructor(
    private readonly client: FakeClient,
    id: string,
  ) {
    const network = client.network;
    const state = chatsState(network);
    // getContactModel: a LID contact whose phone is known is reported by its phone.
    const phone =
      id.endsWith('@lid') && !network.hiddenPhones.has(id) ? network.lids.get(id) : undefined;
    const shown = phone ?? id;
    this.id = { _serialized: shown };
    this.number = shown.split('@')[0] ?? '';
    this.isGroup = shown.endsWith('@g.us');
    this.isUser = !this.isGroup;
    this.isMe = shown === client.account;
    this.isWAContact =
      !state.notOnWhatsApp.has(shown) &&
      (network.registered.has(shown) || network.lids.has(shown) || this.isGroup);
    this.isMyContact = state.saved.has(shown);
    this.name = state.saved.get(shown);
    this.pushname = `Contact ${id.split('@')[0]}`;
    this.isBusiness = state.business.has(shown);
    this.isBlocked = state.blocked.has(shown);
  }

  async block(): Promise<boolean> {
    if (this.isGroup) return false;
    this.client.calls.push({ method: 'block', args: [this.id._serialized] });
    this.client.requirePage();
    chatsState(this.client.network).blocked.add(this.id._serialized);
    this.isBlocked = true;
    return true;
  }

  async unblock(): Promise<boolean> {
    if (this.isGroup) return false;
    this.client.calls.push({ method: 'unblock', args: [this.id._serialized] });
    this.client.requirePage();
    chatsState(this.client.network).blocked.delete(this.id._serialized);
    this.isBlocked = false;
    return true;
  }
}

/** Client#getContacts: WhatsApp Web's Contact collection (people, groups, itself, address book). */
export function fakeContacts(client: FakeClient): FakeContact[] {
  const state = chatsState(client.network);
  const ids = new Set<string>([...state.saved.keys(), ...state.notOnWhatsApp]);
  for (const chat of fakeChats(client)) ids.add(chat.id._serialized);
  if (client.account) ids.add(client.account);
  ids.delete('status@broadcast');
  return [...ids].map((id) => new FakeContact(client, id));
}

/** `Call` (structures/Call.js). */
export class FakeCallEvent {
  readonly id: string;
  readonly from: string;
  readonly timestamp: number;
  readonly isVideo: boolean;
  readonly isGroup: boolean;
  readonly fromMe: boolean;
  readonly canHandleLocally = false;
  readonly webClientShouldHandle = false;
  readonly participants = {};

  constructor(
    private readonly client: FakeClient,
    data: {
      id: string;
      peerJid: string;
      offerTime: number;
      isVideo: boolean;
      isGroup: boolean;
      outgoing: boolean;
    },
  ) {
    this.id = data.id;
    this.from = data.peerJid;
    this.timestamp = data.offerTime;
    this.isVideo = data.isVideo;
    this.isGroup = data.isGroup;
    this.fromMe = data.outgoing;
  }

  /** `WWebJS.rejectCall(peerJid, id)` through the page. */
  async reject(): Promise<void> {
    this.client.calls.push({ method: 'rejectCall', args: [this.from, this.id] });
    this.client.requirePage();
    chatsState(this.client.network).rejected.push({ peerJid: this.from, id: this.id });
  }
}

let callCounter = 0;

/** WhatsApp Web's call collection gets a call: the client emits `call` (Client.js:878-893). */
export function offerCall(
  client: FakeClient,
  call: { from: string; isVideo?: boolean; isGroup?: boolean; outgoing?: boolean; id?: string },
): FakeCallEvent {
  const event = new FakeCallEvent(client, {
    id: call.id ?? `CALL${(++callCounter).toString(16).toUpperCase().padStart(28, '0')}`,
    peerJid: call.from,
    offerTime: Math.floor(Date.now() / 1000),
    isVideo: call.isVideo ?? false,
    isGroup: call.isGroup ?? false,
    outgoing: call.outgoing ?? false,
  });
  client.emit('call', event);
  return event;
}
