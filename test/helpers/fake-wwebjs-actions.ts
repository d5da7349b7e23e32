/* eslint-disable @typescript-eslint/require-await -- async like the real methods: throws become rejections */
/**
 * Message actions and presence for the fake whatsapp-web.js (test/helpers/fake-wwebjs-client.ts),
 * written from node_modules/whatsapp-web.js/src 1.34:
 * - `Message#react` → `Client#sendReaction` (Client.js:1567): nothing happens for an unknown id;
 * - `Message#edit` (structures/Message.js:875): null unless own and editable (`canEditText`);
 * - `Message#delete(everyone)` (Message.js:604): revokes when `canSenderRevokeMsg` or
 *   `canAdminRevokeMsg`, else falls back to "delete for me" without a word;
 * - `Client#sendSeen` (Client.js:1339, false for an unknown chat), `sendPresenceAvailable` /
 *   `Unavailable` (Client.js:1984), `Chat#sendStateTyping` / `sendStateRecording` / `clearState`;
 * - events `message_reaction(Reaction)`, `message_edit(message, newBody, prevBody)`,
 *   `message_revoke_everyone(message, revokedMessage)` (Client.js:917, 971, 692).
 * Importing this module installs them on the fake's prototypes.
 */
import {
  FakeClient,
  FakeMessage,
  FakeWhatsAppNetwork,
  type RawMessage,
} from './fake-wwebjs-client.js';

declare module './fake-wwebjs-client.js' {
  interface FakeMessage {
    react(reaction: string): Promise<void>;
    edit(content: string): Promise<FakeMessage | null>;
    delete(everyone?: boolean, clearMedia?: boolean): Promise<void>;
  }
  interface FakeClient {
    sendReaction(messageId: string, reaction: string): Promise<void>;
    sendSeen(chatId: string): Promise<boolean>;
    sendPresenceAvailable(): Promise<void>;
    sendPresenceUnavailable(): Promise<void>;
  }
  interface FakeWhatsAppNetwork {
    /** `from` (a contact) reacts to a message the linked account `to` sees. */
    reactFrom(to: string, from: string, messageId: string, emoji: string): void;
    /** The author of a received message edits it. */
    editFrom(to: string, messageId: string, body: string): void;
    /** The author of a received message deletes it for everyone. */
    revokeFrom(to: string, messageId: string): void;
  }
}

const SEEN_REVOKABLE = new Set(['chat', 'image', 'video', 'audio', 'document', 'sticker']);

function clientOf(network: FakeWhatsAppNetwork, account: string): FakeClient {
  const client = [...network.clients].find((c) => c.account === account && c.isReady);
  if (!client) throw new Error(`account ${account} is not online`);
  return client;
}

function reactionOf(raw: RawMessage, sender: string, emoji: string, fromMe: boolean) {
  const id = `3EB0REACT${Math.floor(Math.random() * 1e9)}`;
  return {
    id: { fromMe, remote: raw.id.remote, id, _serialized: `${fromMe}_${raw.id.remote}_${id}` },
    orphan: 0,
    timestamp: Math.floor(Date.now() / 1000),
    reaction: emoji,
    read: false,
    msgId: { ...raw.id },
    senderId: sender,
    ack: 1,
  };
}

FakeClient.prototype.sendReaction = async function (messageId: string, reaction: string) {
  this.calls.push({ method: 'sendReaction', args: [messageId, reaction] });
  this.requirePage();
  const raw = this.network.messages.get(messageId);
  if (!raw) return; // `if (!msg) return null;`
  this.emit('message_reaction', reactionOf(raw, this.account!, reaction, true));
};

FakeMessage.prototype.react = async function (reaction: string) {
  return this.client.sendReaction(this.id._serialized, reaction);
};

FakeMessage.prototype.edit = async function (content: string) {
  this.client.calls.push({ method: 'edit', args: [this.id._serialized, content] });
  if (!this.fromMe) return null;
  this.client.requirePage();
  const raw = this.client.network.messages.get(this.id._serialized);
  if (!raw || raw.type !== 'chat') return null; // canEditText
  const previous = raw.body ?? '';
  raw.body = content;
  const edited = new FakeMessage(this.client, raw);
  this.client.emit('message_edit', edited, content, previous);
  return edited;
};

FakeMessage.prototype.delete = async function (everyone?: boolean) {
  this.client.calls.push({ method: 'delete', args: [this.id._serialized, everyone] });
  this.client.requirePage();
  const raw = this.client.network.messages.get(this.id._serialized);
  if (!raw) return;
  const chat = this.client.network.chat(this.client, raw.id.remote);
  const admin = chat?.participants?.some(
    (p) => p.id._serialized === this.client.account && p.isAdmin,
  );
  if (everyone && (raw.id.fromMe || admin) && SEEN_REVOKABLE.has(raw.type)) {
    const before = new FakeMessage(this.client, { ...raw });
    raw.type = 'revoked';
    raw.body = '';
    this.client.emit('message_revoke_everyone', new FakeMessage(this.client, raw), before);
    return;
  }
  this.client.network.messages.delete(this.id._serialized); // "delete for me"
};

FakeClient.prototype.sendSeen = async function (chatId: string) {
  this.calls.push({ method: 'sendSeen', args: [chatId] });
  this.requirePage();
  return this.network.chat(this, chatId) !== undefined;
};

FakeClient.prototype.sendPresenceAvailable = async function () {
  this.calls.push({ method: 'sendPresenceAvailable', args: [] });
  this.requirePage();
};

FakeClient.prototype.sendPresenceUnavailable = async function () {
  this.calls.push({ method: 'sendPresenceUnavailable', args: [] });
  this.requirePage();
};

// `Chat#sendStateTyping` & co. on the chats `getChatById` returns.
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(this)
const getChatById = FakeClient.prototype.getChatById;
FakeClient.prototype.getChatById = async function (chatId: string) {
  const chat = await getChatById.call(this, chatId);
  if (!chat) return chat;
  const state = (name: string) => async () => {
    this.calls.push({ method: name, args: [chatId] });
    this.requirePage();
    return true;
  };
  return Object.assign(chat, {
    sendStateTyping: state('sendStateTyping'),
    sendStateRecording: state('sendStateRecording'),
    clearState: state('clearState'),
  });
};

FakeWhatsAppNetwork.prototype.reactFrom = function (to, from, messageId, emoji) {
  const raw = this.messages.get(messageId);
  if (!raw) throw new Error(`no message ${messageId}`);
  clientOf(this, to).emit('message_reaction', reactionOf(raw, from, emoji, false));
};

FakeWhatsAppNetwork.prototype.editFrom = function (to, messageId, body) {
  const raw = this.messages.get(messageId);
  if (!raw) throw new Error(`no message ${messageId}`);
  const client = clientOf(this, to);
  const previous = raw.body ?? '';
  raw.body = body;
  client.emit('message_edit', new FakeMessage(client, raw), body, previous);
};

FakeWhatsAppNetwork.prototype.revokeFrom = function (to, messageId) {
  const raw = this.messages.get(messageId);
  if (!raw) throw new Error(`no message ${messageId}`);
  const client = clientOf(this, to);
  const before = new FakeMessage(client, { ...raw });
  raw.type = 'revoked';
  raw.body = '';
  client.emit('message_revoke_everyone', new FakeMessage(client, raw), before);
};
