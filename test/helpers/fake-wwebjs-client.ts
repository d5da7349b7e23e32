/* eslint-disable @typescript-eslint/require-await -- async like the real methods: throws become rejections */
/**
 * A faithful fake of whatsapp-web.js 1.34 for the wwebjs engine tests, written from
 * node_modules/whatsapp-web.js/src: `Client` (same methods, events and argument shapes),
 * `Message` (built from a raw WhatsApp Web model exactly like Message#_patch), `MessageMedia`,
 * `LocalAuth` / `RemoteAuth` (same hooks, same files: `<dataPath>/session-<id>` and
 * `<dataPath>/RemoteAuth-<id>.zip`), and puppeteer's Browser/Page events.
 *
 * `FakeWhatsAppNetwork` plays WhatsApp: registered numbers, groups, linking by QR, messages, acks.
 * The browser profile is a directory: linking writes `wa-session.json` into the auth strategy's
 * `userDataDir`, and a client whose profile holds it restores without a QR, like Chromium would.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  RemoteAuthStore,
  SendOptionsLike,
  WwebjsBindings,
  WwebjsClientOptions,
} from '../../src/engines/wwebjs/types.js';
import { FakeContact, fakeChatById, fakeChats, fakeContacts } from './fake-wwebjs-chats.js';
import { chatsState, type FakeFullChat } from './fake-wwebjs-chats.js';
import {
  FakeLocation,
  FakePoll,
  applyKind,
  patchKinds,
  quotedMessageOf,
  type KindRaw,
} from './fake-wwebjs-messages.js';

export const SESSION_FILE = 'wa-session.json';
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

// ------------------------------------------------------------------ MessageMedia

export class FakeMessageMedia {
  constructor(
    public mimetype: string,
    public data: string,
    public filename?: string | null,
    public filesize?: number | null,
  ) {}
}

// ------------------------------------------------------------------ auth strategies

/** BaseAuthStrategy: the hooks Client calls. */
class FakeBaseAuth {
  client!: FakeClient;
  userDataDir: string | undefined;
  setup(client: FakeClient): void {
    this.client = client;
  }
  async beforeBrowserInitialized(): Promise<void> {}
  async afterBrowserInitialized(): Promise<void> {}
  async afterAuthReady(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async destroy(): Promise<void> {}
  async logout(): Promise<void> {}
}

export class FakeLocalAuth extends FakeBaseAuth {
  readonly dataPath: string;
  constructor(readonly options: { clientId: string; dataPath: string }) {
    super();
    if (!/^[-_\w]+$/i.test(options.clientId)) throw new Error('Invalid clientId.');
    this.dataPath = path.resolve(options.dataPath);
  }
  override async beforeBrowserInitialized(): Promise<void> {
    const dirPath = path.join(this.dataPath, `session-${this.options.clientId}`);
    const puppeteer = this.client.options.puppeteer;
    if (puppeteer.userDataDir && puppeteer.userDataDir !== dirPath) {
      throw new Error('LocalAuth is not compatible with a user-supplied userDataDir.');
    }
    mkdirSync(dirPath, { recursive: true });
    this.client.options.puppeteer = { ...puppeteer, userDataDir: dirPath };
    this.userDataDir = dirPath;
  }
  override async logout(): Promise<void> {
    if (this.userDataDir) await rm(this.userDataDir, { recursive: true, force: true });
  }
}

/** RemoteAuth: the profile is zipped to `<dataPath>/<sessionName>.zip`, then `store.save`. */
export class FakeRemoteAuth extends FakeBaseAuth {
  readonly dataPath: string;
  sessionName: string;
  backupSync: NodeJS.Timeout | undefined;
  /** Real RemoteAuth waits 60 s before the first backup; tests shorten it. */
  static initialDelayMs = 0;
  /** How the fake calls `save`: 1.34's bare session name, or a path inside dataPath. */
  static saveConvention: 'bare' | 'path' = 'bare';
  pendingSave: Promise<void> = Promise.resolve();

  constructor(
    readonly options: {
      clientId: string;
      dataPath: string;
      store: RemoteAuthStore;
      backupSyncIntervalMs: number;
    },
  ) {
    super();
    if (!options.backupSyncIntervalMs || options.backupSyncIntervalMs < 60_000) {
      throw new Error(
        'Invalid backupSyncIntervalMs. Accepts values starting from 60000ms {1 minute}.',
      );
    }
    this.dataPath = path.resolve(options.dataPath);
    this.sessionName = `RemoteAuth-${options.clientId}`;
  }
  private get sessionArg(): string {
    return FakeRemoteAuth.saveConvention === 'bare'
      ? this.sessionName
      : path.join(this.dataPath, this.sessionName);
  }
  override async beforeBrowserInitialized(): Promise<void> {
    const dirPath = path.join(this.dataPath, this.sessionName);
    this.userDataDir = dirPath;
    await rm(dirPath, { recursive: true, force: true });
    const zip = path.join(this.dataPath, `${this.sessionName}.zip`);
    if (await this.options.store.sessionExists({ session: this.sessionName })) {
      await this.options.store.extract({ session: this.sessionName, path: zip });
      const bytes = await readFile(zip);
      mkdirSync(dirPath, { recursive: true });
      await writeFile(path.join(dirPath, SESSION_FILE), bytes.subarray(ZIP_MAGIC.length));
      await rm(zip);
    } else {
      mkdirSync(dirPath, { recursive: true });
    }
    this.client.options.puppeteer = { ...this.client.options.puppeteer, userDataDir: dirPath };
  }
  override async afterAuthReady(): Promise<void> {
    const exists = await this.options.store.sessionExists({ session: this.sessionName });
    if (!exists) {
      await new Promise((r) => setTimeout(r, FakeRemoteAuth.initialDelayMs));
      this.pendingSave = this.storeRemoteSession();
      await this.pendingSave;
      this.client.emit('remote_session_saved');
    }
    this.backupSync = setInterval(() => {
      this.pendingSave = this.storeRemoteSession();
    }, this.options.backupSyncIntervalMs);
  }
  async storeRemoteSession(): Promise<void> {
    if (!this.userDataDir || !existsSync(this.userDataDir)) return;
    const profile = await readFile(path.join(this.userDataDir, SESSION_FILE)).catch(() => null);
    if (!profile) return;
    const zip = path.join(this.dataPath, `${this.sessionName}.zip`);
    try {
      await writeFile(zip, Buffer.concat([ZIP_MAGIC, profile]));
      await this.options.store.save({ session: this.sessionArg });
    } finally {
      await rm(zip, { force: true });
    }
  }
  override async logout(): Promise<void> {
    await this.disconnect();
  }
  override async destroy(): Promise<void> {
    clearInterval(this.backupSync);
  }
  override async disconnect(): Promise<void> {
    if (await this.options.store.sessionExists({ session: this.sessionName })) {
      await this.options.store.delete({ session: this.sessionName });
    }
    if (this.userDataDir) await rm(this.userDataDir, { recursive: true, force: true });
    clearInterval(this.backupSync);
  }
}

// ------------------------------------------------------------------ puppeteer

let nextPid = 900_000;

export class FakeBrowser extends EventEmitter {
  connected = true;
  readonly pid = nextPid++;
  closeCalls = 0;
  isConnected(): boolean {
    return this.connected;
  }
  process(): { pid: number } {
    return { pid: this.pid };
  }
  close(): Promise<void> {
    this.closeCalls += 1;
    this.gone();
    return Promise.resolve();
  }
  /** Chromium died (OOM, killed): the CDP connection drops. */
  crash(): void {
    this.gone();
  }
  private gone(): void {
    if (!this.connected) return;
    this.connected = false;
    this.emit('disconnected');
  }
}

export class FakePage extends EventEmitter {
  crash(): void {
    this.emit('error', new Error('Page crashed!'));
  }
}

// ------------------------------------------------------------------ Message

/** A raw WhatsApp Web message model (what `window.WWebJS.getMessageModel` serializes). */
export type RawMessage = {
  id: { fromMe: boolean; remote: string; id: string; _serialized: string };
  body?: string;
  caption?: string;
  type: string;
  t: number;
  from: string;
  to: string;
  author?: string;
  ack: number;
  directPath?: string;
  mimetype?: string;
  filename?: string;
  size?: number;
  broadcast?: boolean;
  isForwarded?: boolean;
  notifyName?: string;
  quotedMsg?: Record<string, unknown>;
  quotedStanzaID?: string;
  quotedParticipant?: string;
  mentionedJidList?: string[];
} & KindRaw;

export class FakeMessage {
  _data!: RawMessage;
  id!: RawMessage['id'];
  ack!: number;
  hasMedia!: boolean;
  body!: string;
  type!: string;
  timestamp!: number;
  from!: string;
  to!: string;
  author?: string;
  isForwarded?: boolean;
  broadcast?: boolean;
  fromMe!: boolean;
  hasQuotedMsg!: boolean;
  mentionedIds!: string[];
  isStatus!: boolean;

  constructor(
    readonly client: FakeClient,
    data: RawMessage,
  ) {
    this._patch(data);
  }

  /** As Message#_patch. */
  _patch(data: RawMessage): void {
    this._data = data;
    this.id = data.id;
    this.ack = data.ack;
    this.hasMedia = Boolean(data.directPath);
    this.body = this.hasMedia ? data.caption || '' : data.body || '';
    this.type = data.type;
    this.timestamp = data.t;
    this.from = data.from;
    this.to = data.to;
    this.author = data.author;
    this.isForwarded = data.isForwarded;
    this.broadcast = data.broadcast;
    this.fromMe = data.id.fromMe;
    this.hasQuotedMsg = Boolean(data.quotedMsg);
    this.mentionedIds = data.mentionedJidList || [];
    // structures/Message.js:130
    this.isStatus = data.id.remote === 'status@broadcast';
    patchKinds(this as FakeMessage & Record<string, unknown>, data);
  }

  async getQuotedMessage(): Promise<FakeMessage | undefined> {
    return quotedMessageOf(this);
  }

  async forward(chat: string | { id: { _serialized: string } }): Promise<void> {
    const chatId = typeof chat === 'string' ? chat : chat.id._serialized;
    this.client.calls.push({ method: 'forward', args: [this.id._serialized, chatId] });
    this.client.requirePage();
    this.client.network.forward(this.client, this._data, chatId);
  }

  async downloadMedia(): Promise<FakeMessageMedia | undefined> {
    if (!this.hasMedia) return undefined;
    this.client.requirePage();
    const bytes = this.client.network.media.get(this.id._serialized);
    if (!bytes) return undefined;
    return new FakeMessageMedia(
      this._data.mimetype ?? '',
      bytes.toString('base64'),
      this._data.filename,
      bytes.length,
    );
  }
}

// ------------------------------------------------------------------ Chat

/** `Chat` / `GroupChat` as ChatFactory builds them (`isReadOnly` = `groupMetadata.announce`). */
export interface FakeChat {
  id: { _serialized: string };
  isGroup: boolean;
  isReadOnly: boolean;
  participants?: Array<{ id: { _serialized: string }; isAdmin: boolean; isSuperAdmin: boolean }>;
  lastMessage?: FakeMessage;
}

// ------------------------------------------------------------------ Client

export interface FakeCall {
  method: string;
  args: unknown[];
}

/** `Client`: an EventEmitter with the 1.34 methods the engine uses. */
export class FakeClient extends EventEmitter {
  options: WwebjsClientOptions & { puppeteer: Record<string, unknown> };
  authStrategy: FakeBaseAuth;
  pupBrowser: FakeBrowser | null = null;
  pupPage: FakePage | null = null;
  info:
    | {
        wid: { _serialized: string; user: string; server: string };
        pushname: string;
        platform: string;
      }
    | undefined;
  readonly calls: FakeCall[] = [];
  /** The QR shown now (null when none). */
  currentQr: string | null = null;
  account: string | null = null;
  isReady = false;
  /** `afterAuthReady()` of the auth strategy (whatsapp-web.js does not await it). */
  authReady: Promise<void> = Promise.resolve();
  private qrTimer: NodeJS.Timeout | undefined;
  private qrRetries = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    options: WwebjsClientOptions,
    readonly network: FakeWhatsAppNetwork,
  ) {
    super();
    this.options = {
      ...options,
      puppeteer: { headless: true, defaultViewport: null, ...options.puppeteer },
    };
    this.authStrategy = (options.authStrategy as FakeBaseAuth | undefined) ?? new FakeBaseAuth();
    this.authStrategy.setup(this);
  }

  /** Like `this.pupPage.evaluate(...)` on a null or closed page. */
  requirePage(): FakePage {
    if (!this.pupPage) throw new TypeError("Cannot read properties of null (reading 'evaluate')");
    if (!this.pupBrowser?.connected) throw new Error('Protocol error: Target closed');
    return this.pupPage;
  }

  later(fn: () => void, ms = 0): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.pupBrowser?.connected) fn();
    }, ms);
    this.timers.add(timer);
  }

  async initialize(): Promise<void> {
    this.calls.push({ method: 'initialize', args: [] });
    await this.authStrategy.beforeBrowserInitialized();
    const network = this.network;
    if (network.launchError) throw new Error(network.launchError);
    this.pupBrowser = new FakeBrowser();
    this.pupPage = new FakePage();
    network.clients.add(this);
    await this.authStrategy.afterBrowserInitialized();
    await Promise.resolve();
    if (network.offline) throw new Error('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/');
    if (network.hangOnLoad) return new Promise(() => {}); // page.goto with timeout: 0
    const saved = await this.readProfile();
    if (saved && network.isLinked(saved.account)) {
      this.later(() => this.linked(saved.account));
      return;
    }
    this.showQr();
  }

  private async readProfile(): Promise<{ account: string } | null> {
    const dir = this.options.puppeteer.userDataDir as string | undefined;
    if (!dir) return null;
    try {
      return JSON.parse(await readFile(path.join(dir, SESSION_FILE), 'utf8')) as {
        account: string;
      };
    } catch {
      return null;
    }
  }

  private showQr(): void {
    const qr = this.network.newQr();
    this.currentQr = qr;
    this.emit('qr', qr);
    if (this.options.qrMaxRetries > 0) {
      this.qrRetries += 1;
      if (this.qrRetries > this.options.qrMaxRetries) {
        this.currentQr = null;
        this.emit('disconnected', 'Max qrcode retries reached');
        void this.destroy();
        return;
      }
    }
    this.qrTimer = setTimeout(() => {
      if (this.pupBrowser?.connected && !this.account) this.showQr();
    }, this.network.qrRefreshMs);
  }

  /** The phone scanned our QR (or the profile held a session). */
  async linked(account: string, scanned = false): Promise<void> {
    clearTimeout(this.qrTimer);
    this.currentQr = null;
    this.account = account;
    const dir = this.options.puppeteer.userDataDir as string | undefined;
    if (scanned && dir) await writeFile(path.join(dir, SESSION_FILE), JSON.stringify({ account }));
    this.emit('authenticated', undefined);
    this.later(() => {
      const [user = '', server = 'c.us'] = account.split('@');
      this.info = {
        wid: { _serialized: account, user, server },
        pushname: `Bot ${user}`,
        platform: 'android',
      };
      this.isReady = true;
      this.emit('ready');
      this.authReady = this.authStrategy.afterAuthReady().catch(() => {});
    });
  }

  async destroy(): Promise<void> {
    this.calls.push({ method: 'destroy', args: [] });
    clearTimeout(this.qrTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.isReady = false;
    const browser = this.pupBrowser;
    if (browser?.isConnected()) {
      this.pupPage?.emit('close');
      await browser.close();
    }
    this.network.clients.delete(this);
    await this.authStrategy.destroy();
  }

  async logout(): Promise<void> {
    this.calls.push({ method: 'logout', args: [] });
    this.requirePage();
    if (this.account) this.network.unlink(this.account);
    await this.pupBrowser!.close();
    this.isReady = false;
    await this.authStrategy.logout();
  }

  private requireReady(): void {
    this.requirePage();
    if (!this.isReady)
      throw new Error(
        "Evaluation failed: TypeError: Cannot read properties of undefined (reading 'getChat')",
      );
  }

  async sendMessage(
    chatId: string,
    content: string | FakeMessageMedia | object,
    options: SendOptionsLike = {},
  ): Promise<FakeMessage | undefined> {
    this.calls.push({ method: 'sendMessage', args: [chatId, content, options] });
    this.requireReady();
    return this.network.send(this, chatId, content, options);
  }

  async getMessageById(messageId: string): Promise<FakeMessage | null> {
    this.requireReady();
    const raw = this.network.messages.get(messageId);
    if (raw) return new FakeMessage(this, raw);
    const params = messageId.split('_');
    if (params.length !== 3 && params.length !== 4)
      throw new Error('Invalid serialized message id specified');
    return null;
  }

  async getChatById(chatId: string): Promise<FakeFullChat | undefined> {
    this.requireReady();
    return fakeChatById(this, chatId);
  }

  /** Client.js:1668 (chats: fake-wwebjs-chats.ts). */
  async getChats(): Promise<FakeFullChat[]> {
    this.calls.push({ method: 'getChats', args: [] });
    this.requireReady();
    return fakeChats(this);
  }

  /** Client.js:1725. */
  async getContacts(): Promise<FakeContact[]> {
    this.requireReady();
    return fakeContacts(this);
  }

  /** Client.js:2145: the eurl, undefined when there is none or it is hidden. */
  async getProfilePicUrl(contactId: string): Promise<string | undefined> {
    this.requireReady();
    return chatsState(this.network).pictures.get(contactId);
  }

  async getNumberId(
    number: string,
  ): Promise<{ server: string; user: string; _serialized: string } | null> {
    this.requireReady();
    const id = number.endsWith('@c.us') ? number : `${number}@c.us`;
    if (!this.network.registered.has(id)) return null;
    return { server: 'c.us', user: id.split('@')[0] ?? '', _serialized: id };
  }

  /**
   * As Client.js:3307 over `WWebJS.enforceLidAndPnRetrieval` (Injected/Utils.js:1694-1722): a LID
   * gives its phone when WhatsApp Web may show it, a number its LID; `{}` for unknown users.
   */
  async getContactLidAndPhone(userIds: string[]): Promise<Array<{ lid?: string; pn?: string }>> {
    this.calls.push({ method: 'getContactLidAndPhone', args: [userIds] });
    this.requireReady();
    return userIds.map((id) => this.network.lidAndPhone(id));
  }

  /** Client.js:1738: a Contact (`Contact.find` makes one for any id). */
  async getContactById(contactId: string): Promise<FakeContact> {
    this.requireReady();
    return new FakeContact(this, contactId);
  }

  async isRegisteredUser(id: string): Promise<boolean> {
    return Boolean(await this.getNumberId(id));
  }

  async requestPairingCode(
    phoneNumber: string,
    showNotification = true,
    intervalMs = 180000,
  ): Promise<string> {
    this.calls.push({
      method: 'requestPairingCode',
      args: [phoneNumber, showNotification, intervalMs],
    });
    this.requirePage();
    const code = this.network.pairingCode(this, phoneNumber);
    this.emit('code', code);
    return code;
  }

  /** A WAState change as `onAppStateChangedEvent` reports it (and its disconnect handling). */
  async changeState(state: string): Promise<void> {
    this.emit('change_state', state);
    const accepted = ['CONNECTED', 'OPENING', 'PAIRING', 'TIMEOUT'];
    if (!accepted.includes(state)) {
      await this.authStrategy.disconnect();
      this.emit('disconnected', state);
      void this.destroy();
    }
  }

  /** Logged out from the phone: the page navigates with post_logout=1. */
  async loggedOutFromPhone(): Promise<void> {
    if (this.account) this.network.unlink(this.account);
    this.emit('disconnected', 'LOGOUT');
    await this.authStrategy.logout();
  }
}

// ------------------------------------------------------------------ the network

export interface FakeGroup {
  announce: boolean;
  participants: Array<{ id: string; isAdmin: boolean }>;
}

let idCounter = 0;
const newMessageId = (): string =>
  `3EB0${(++idCounter).toString(16).toUpperCase().padStart(16, '0')}`;

export class FakeWhatsAppNetwork {
  readonly clients = new Set<FakeClient>();
  readonly created: FakeClient[] = [];
  readonly registered = new Set<string>();
  readonly groups = new Map<string, FakeGroup>();
  readonly messages = new Map<string, RawMessage>();
  readonly media = new Map<string, Buffer>();
  /** LID → phone id of registered users that have a LID. */
  readonly lids = new Map<string, string>();
  /** LIDs whose phone WhatsApp Web does not show (not a saved contact). */
  readonly hiddenPhones = new Set<string>();
  /** Phone ids WhatsApp Web has no LID for yet: sends to them fail with "No LID for user". */
  readonly noLid = new Set<string>();
  private readonly linkedAccounts = new Set<string>();
  /** Every client start fails like puppeteer.launch with this message. */
  launchError: string | null = null;
  offline = false;
  hangOnLoad = false;
  qrRefreshMs = 60_000;
  ackDelayMs = 5;
  private qrCounter = 0;

  constructor(options: Partial<Pick<FakeWhatsAppNetwork, 'qrRefreshMs' | 'ackDelayMs'>> = {}) {
    Object.assign(this, options);
  }

  bindings(): WwebjsBindings {
    return {
      createClient: (options) => {
        const client = new FakeClient(options, this);
        this.created.push(client);
        return client;
      },
      createLocalAuth: (options) => new FakeLocalAuth(options),
      createRemoteAuth: (options) => new FakeRemoteAuth(options),
      createMedia: (mimetype, data, filename) => new FakeMessageMedia(mimetype, data, filename),
      createLocation: (latitude, longitude, options) =>
        new FakeLocation(latitude, longitude, options),
      createPoll: (question, options, send) => new FakePoll(question, options, send),
    };
  }

  /** The most recently created client. */
  get last(): FakeClient {
    const client = this.created.at(-1);
    if (!client) throw new Error('no client created yet');
    return client;
  }

  register(...ids: string[]): void {
    for (const id of ids) this.registered.add(id);
  }

  /** Gives a registered phone a LID (`hidden`: its number is not shown for the LID). */
  assignLid(phone: string, lid: string, hidden = false): void {
    this.registered.add(phone);
    this.lids.set(lid, phone);
    if (hidden) this.hiddenPhones.add(lid);
  }

  lidAndPhone(id: string): { lid?: string; pn?: string } {
    if (id.endsWith('@lid')) {
      const pn = this.lids.get(id);
      if (!pn) return {};
      return this.hiddenPhones.has(id) ? { lid: id, pn: undefined } : { lid: id, pn };
    }
    if (!this.registered.has(id)) return {};
    const lid = [...this.lids].find(([, pn]) => pn === id)?.[0];
    return { lid, pn: id };
  }

  newQr(): string {
    this.qrCounter += 1;
    return `2@fake${this.qrCounter.toString().padStart(4, '0')},${'A'.repeat(43)}=,${'B'.repeat(43)}=,${'C'.repeat(43)}=,1`;
  }

  isLinked(account: string): boolean {
    return this.linkedAccounts.has(account);
  }

  unlink(account: string): void {
    this.linkedAccounts.delete(account);
  }

  /** A phone with number `account` scans `qr`. */
  async link(qr: string, account: string): Promise<void> {
    const client = [...this.clients].find((c) => c.currentQr === qr);
    if (!client) throw new Error(`no client shows QR ${qr.slice(0, 12)}...`);
    this.registered.add(account);
    this.linkedAccounts.add(account);
    await client.linked(account, true);
  }

  pairingCode(_client: FakeClient, _phone: string): string {
    return 'ABCD1234';
  }

  private readyClientOf(account: string): FakeClient | undefined {
    return [...this.clients].find((c) => c.account === account && c.isReady);
  }

  chat(client: FakeClient, chatId: string): FakeChat | undefined {
    if (chatId.endsWith('@g.us')) {
      const group = this.groups.get(chatId);
      if (!group) return undefined;
      return {
        id: { _serialized: chatId },
        isGroup: true,
        isReadOnly: group.announce,
        participants: group.participants.map((p) => ({
          id: { _serialized: p.id },
          isAdmin: p.isAdmin,
          isSuperAdmin: false,
        })),
      };
    }
    if (!this.registered.has(chatId)) return undefined;
    const last = [...this.messages.values()]
      .filter((m) => m.id.remote === chatId && m.from === client.account)
      .at(-1);
    return {
      id: { _serialized: chatId },
      isGroup: false,
      isReadOnly: false,
      lastMessage: last ? new FakeMessage(client, last) : undefined,
    };
  }

  /** Delivers `raw` (an own message of `client`) and schedules acks. */
  private createOwn(client: FakeClient, raw: RawMessage): FakeMessage {
    this.messages.set(raw.id._serialized, raw);
    const message = new FakeMessage(client, raw);
    client.emit('message_create', message);
    for (const ack of [1, 2, 3]) {
      client.later(() => {
        raw.ack = ack;
        client.emit('message_ack', new FakeMessage(client, raw), ack);
      }, this.ackDelayMs * ack);
    }
    return message;
  }

  send(
    client: FakeClient,
    chatId: string,
    content: string | FakeMessageMedia | object,
    options: SendOptionsLike,
  ): FakeMessage | undefined {
    const me = client.account!;
    if (chatId.endsWith('@g.us')) {
      const group = this.groups.get(chatId);
      if (!group) return undefined;
      const member = group.participants.find((p) => p.id === me);
      if (!member || (group.announce && !member.isAdmin))
        throw new Error('Evaluation failed: Error: not-authorized');
    } else if (chatId.endsWith('@lid')) {
      if (!this.lids.has(chatId)) throw new Error('Evaluation failed: Error: invalid wid');
    } else if (!this.registered.has(chatId)) {
      throw new Error('Evaluation failed: Error: wid error: invalid wid');
    } else if (this.noLid.has(chatId)) {
      // findOrCreateLatestChat → toUserLidOrThrow (wwebjs/whatsapp-web.js#145434)
      throw new Error('Evaluation failed: Error: No LID for user');
    }
    const id = newMessageId();
    const raw: RawMessage = {
      id: { fromMe: true, remote: chatId, id, _serialized: `true_${chatId}_${id}` },
      type: 'chat',
      t: Math.floor(Date.now() / 1000),
      from: me,
      to: chatId,
      ack: 0,
      mentionedJidList: options.mentions ?? [],
    };
    if (applyKind(raw, content, options)) {
      // a location, poll or contact card (fake-wwebjs-messages.ts)
    } else if (content instanceof FakeMessageMedia) {
      raw.type = mediaType(content.mimetype, options);
      raw.directPath = `/v/t62/${id}`;
      raw.mimetype = options.sendMediaAsSticker ? 'image/webp' : content.mimetype;
      if (content.filename) raw.filename = content.filename;
      raw.caption = options.caption;
      this.media.set(raw.id._serialized, Buffer.from(content.data, 'base64'));
    } else {
      raw.body = content as string;
    }
    if (options.quotedMessageId) {
      const quoted = this.messages.get(options.quotedMessageId);
      if (quoted) {
        raw.quotedMsg = { type: quoted.type, body: quoted.body };
        raw.quotedStanzaID = quoted.id.id;
        raw.quotedParticipant = quoted.author ?? quoted.from;
      }
    }
    return this.createOwn(client, raw);
  }

  forward(client: FakeClient, original: RawMessage, chatId: string): void {
    if (!this.registered.has(chatId) && !this.groups.has(chatId))
      throw new Error('Evaluation failed: Error: invalid wid');
    const id = newMessageId();
    const raw: RawMessage = {
      ...original,
      id: { fromMe: true, remote: chatId, id, _serialized: `true_${chatId}_${id}` },
      t: Math.floor(Date.now() / 1000),
      from: client.account!,
      to: chatId,
      ack: 0,
      isForwarded: true,
      author: undefined,
      notifyName: undefined,
    };
    const bytes = this.media.get(original.id._serialized);
    if (bytes) this.media.set(raw.id._serialized, bytes);
    client.later(() => this.createOwn(client, raw));
  }

  /** `from` writes to the linked account `to` (optionally inside group `group`). */
  receive(
    to: string,
    from: string,
    content:
      { text: string } | { media: Buffer; mimetype: string; filename?: string; caption?: string },
    group?: string,
  ): RawMessage {
    const client = this.readyClientOf(to);
    if (!client) throw new Error(`account ${to} is not online`);
    const id = newMessageId();
    const remote = group ?? from;
    const raw: RawMessage = {
      id: {
        fromMe: false,
        remote,
        id,
        _serialized: `false_${remote}_${id}${group ? `_${from}` : ''}`,
      },
      type: 'chat',
      t: Math.floor(Date.now() / 1000),
      from: remote,
      to,
      ack: 1,
      notifyName: `Contact ${from.split('@')[0]}`,
      broadcast: false,
    };
    if (group) raw.author = from;
    if ('text' in content) raw.body = content.text;
    else {
      raw.type = mediaType(content.mimetype, {});
      raw.directPath = `/v/t62/${id}`;
      raw.mimetype = content.mimetype;
      raw.filename = content.filename;
      raw.size = content.media.length;
      raw.caption = content.caption;
      this.media.set(raw.id._serialized, content.media);
    }
    this.messages.set(raw.id._serialized, raw);
    client.emit('message_create', new FakeMessage(client, raw));
    client.emit('message', new FakeMessage(client, raw));
    return raw;
  }
}

/** As WWebJS.processMediaData: forced kinds first, then by MIME type. */
function mediaType(mimetype: string, options: SendOptionsLike): string {
  if (options.sendMediaAsSticker) return 'sticker';
  if (options.sendMediaAsDocument) return 'document';
  const [kind] = mimetype.split('/');
  if (kind === 'image') return 'image';
  if (kind === 'video') return 'video';
  if (kind === 'audio') return 'audio';
  return 'document';
}

// ------------------------------------------------------------------ engine fixture

export const BOT = '15550000001@c.us';
export const CONTACT = '15550001111@c.us';
export const UNKNOWN = '19990009999@c.us';
export const OPEN_GROUP = '120363000000000002@g.us';
export const RESTRICTED_GROUP = '120363000000000001@g.us';

/** A network with a contact, a group the bot may post to and an admins-only one where it may not. */
export function populatedNetwork(
  options: ConstructorParameters<typeof FakeWhatsAppNetwork>[0] = {},
): FakeWhatsAppNetwork {
  const network = new FakeWhatsAppNetwork(options);
  network.register(CONTACT, '15550002222@c.us');
  network.groups.set(RESTRICTED_GROUP, {
    announce: true,
    participants: [
      { id: BOT, isAdmin: false },
      { id: '15550002222@c.us', isAdmin: true },
    ],
  });
  network.groups.set(OPEN_GROUP, {
    announce: false,
    participants: [
      { id: BOT, isAdmin: true },
      { id: CONTACT, isAdmin: false },
    ],
  });
  return network;
}
