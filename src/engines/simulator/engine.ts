/**
 * One client's connection to the virtual network, behind the Engine port. Phases:
 * idle/stopped → starting → qr (showing codes) | restoring → linking → ready. Every asynchronous
 * step checks `generation`, so nothing happens after stop(); every timer is tracked and cleared.
 */
import { EngineEmitter } from '../engine-emitter.js';
import { WakitError } from '../../errors/index.js';
import type {
  ContactInfo,
  DisconnectReason,
  EngineContent,
  MediaFile,
  MessageData,
} from '../types.js';
import type { Engine, EngineContext, EngineIdentity } from '../engine.js';
import type { GroupEngine, GroupSettings } from '../ports/groups.js';
import { fireGroupEvent } from './groups.js';
import type { SimGroupEvent } from './types.js';
import type { SimAccount, SimRecord } from './account.js';
import type { SimPayload, SimulatorNetwork } from './network.js';
import { incomingMessage, ownMessage, payloadOf } from './messages.js';
import type { CallData } from '../ports/calls.js';
import type { ChatData, FetchMessagesOptions } from '../ports/chats.js';
import type { ContactData } from '../ports/contacts.js';
import { fetchMessages, getChat, listChats } from './chats.js';
import { getContact, listContacts, numberId, profilePictureUrl, setBlocked } from './contacts.js';
import { isMessageKindContent, type PollVote } from '../ports/messages.js';
import { kindPayload, quotedMessage } from './message-kinds.js';
import {
  decodeSession,
  derivePhone,
  encodeSession,
  makePairingCode,
  makeQr,
  newToken,
  toNumber,
} from './ids.js';
import type { SimSession } from './ids.js';
import type { SimActionNotice, SimActions } from './actions.js';
import type { ChatState } from '../ports/presence.js';

type Phase = 'idle' | 'starting' | 'qr' | 'linking' | 'ready' | 'stopped';

export class SimulatorEngine extends EngineEmitter implements Engine {
  readonly type = 'simulator';
  private phase: Phase = 'idle';
  private generation = 0;
  private readonly timers = new Map<NodeJS.Timeout, (() => void) | undefined>();
  private qr: string | null = null;
  private qrShown = 0;
  private account: SimAccount | null = null;
  private identity: EngineIdentity | null = null;
  private session: SimSession | null = null;

  constructor(
    private readonly network: SimulatorNetwork,
    private readonly context: EngineContext,
  ) {
    super(context.logger.child({ engine: 'simulator', client: context.clientName }));
  }

  private get name(): string {
    return this.context.clientName;
  }

  private get config() {
    return this.network.config;
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────────

  async start(): Promise<void> {
    if (this.phase !== 'idle' && this.phase !== 'stopped') return;
    const gen = ++this.generation;
    this.phase = 'starting';
    let bytes: Buffer | null;
    try {
      bytes = await this.context.store.read(this.name);
    } catch (cause) {
      if (gen === this.generation) this.phase = 'stopped';
      throw new WakitError('ENGINE_ERROR', `could not read the saved session of "${this.name}"`, {
        cause,
      });
    }
    if (gen !== this.generation) return;
    if (bytes) await this.restore(bytes, gen);
    else this.showQr();
  }

  stop(): Promise<void> {
    this.halt('stopped');
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    if (this.session) this.network.revoked.add(this.session.token);
    this.session = null;
    this.halt('stopped');
    await this.context.store.delete(this.name);
  }

  me(): EngineIdentity | null {
    return this.phase === 'ready' ? this.identity : null;
  }

  private halt(phase: Phase): void {
    this.generation += 1;
    this.phase = phase;
    for (const [timer, cancel] of this.timers) {
      clearTimeout(timer);
      cancel?.();
    }
    this.timers.clear();
    if (this.qr) this.network.qrs.delete(this.qr);
    this.qr = null;
    this.account?.devices.delete(this);
  }

  // ── linking ──────────────────────────────────────────────────────────────────────────────────

  private async restore(bytes: Buffer, gen: number): Promise<void> {
    const session = decodeSession(bytes);
    if (this.network.failAuthNext.delete(this.name) || !session) {
      this.halt('stopped');
      const why = session
        ? 'the phone refused the saved session'
        : 'the saved session is not a simulator session';
      this.fire(
        'auth_failure',
        new WakitError('AUTH_FAILED', `authentication of "${this.name}" failed: ${why}`),
      );
      return;
    }
    if (this.network.revoked.has(session.token)) {
      this.context.logger.info(
        { client: this.name },
        'saved simulator session was revoked; showing a QR code',
      );
      await this.context.store.delete(this.name);
      if (gen === this.generation) this.showQr();
      return;
    }
    await this.link(session, true, gen);
  }

  private showQr(): void {
    this.phase = 'qr';
    this.qrShown = 0;
    this.nextQr();
    const { autoScanMs } = this.config;
    if (autoScanMs !== undefined && this.phase === 'qr') {
      this.after(autoScanMs, () => {
        if (this.phase === 'qr') this.acceptScan({ phone: this.config.autoScanPhone });
      });
    }
  }

  private nextQr(): void {
    if (this.qr) this.network.qrs.delete(this.qr);
    this.qr = null;
    if (this.qrShown >= this.config.qrMaxRetries) {
      this.halt('stopped');
      this.fire('disconnected', 'qr_timeout');
      return;
    }
    this.qrShown += 1;
    const qr = makeQr(this.network.random);
    this.qr = qr;
    this.network.qrs.set(qr, this);
    this.after(this.config.qrRefreshMs, () => this.nextQr());
    this.fire('qr', qr);
  }

  /** @internal The network saw our QR scanned (or auto-scan fired). */
  acceptScan(opts: { phone?: string; pushname?: string }): void {
    if (this.phase !== 'qr')
      throw new WakitError('QR_NOT_AVAILABLE', `"${this.name}" is not waiting for a scan`);
    const number = opts.phone === undefined ? derivePhone(this.name) : toNumber(opts.phone);
    if (!number) throw new WakitError('VALIDATION_FAILED', `"${opts.phone}" is not a phone number`);
    this.beginLink({ number, pushname: opts.pushname ?? this.name, token: newToken() });
  }

  private beginLink(session: SimSession): void {
    this.halt('linking');
    const gen = this.generation;
    this.link(session, false, gen).catch((error: unknown) => {
      this.context.logger.error({ err: error, client: this.name }, 'simulator link failed');
    });
  }

  private async link(session: SimSession, restored: boolean, gen: number): Promise<void> {
    if (this.network.banned.has(session.number)) {
      this.halt('stopped');
      this.fire('disconnected', 'banned');
      return;
    }
    this.phase = 'linking';
    if (!restored) {
      try {
        await this.context.store.write(this.name, encodeSession(session));
      } catch (error) {
        this.context.logger.error(
          { err: error, client: this.name },
          'could not save the simulator session',
        );
      }
      if (gen !== this.generation) return;
    }
    this.session = session;
    this.account = this.network.account(session.number, session.pushname);
    this.identity = { id: this.account.id, pushname: session.pushname };
    this.phase = 'ready';
    this.account.devices.add(this);
    this.fire('authenticated', { restored });
    if (gen === this.generation) this.fire('ready');
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.phase !== 'qr') {
      throw new WakitError(
        'INVALID_STATE',
        `"${this.name}" can only pair while waiting to be linked`,
      );
    }
    const number = toNumber(phoneNumber);
    if (!number)
      throw new WakitError('VALIDATION_FAILED', `"${phoneNumber}" is not a phone number`);
    const code = makePairingCode(this.network.random);
    this.halt('linking');
    const gen = this.generation;
    // The person types the code on the phone: modelled as linking after autoScanMs (default 0).
    this.after(this.config.autoScanMs ?? 0, () => {
      this.link({ number, pushname: this.name, token: newToken() }, false, gen).catch(
        (error: unknown) => {
          this.context.logger.error({ err: error, client: this.name }, 'simulator pairing failed');
        },
      );
    });
    return Promise.resolve(code);
  }

  /** @internal Network-side disconnection (see SimulatorNetwork.disconnect). */
  dropConnection(reason: DisconnectReason): void {
    if (this.phase === 'idle' || this.phase === 'stopped') {
      throw new WakitError('INVALID_STATE', `"${this.name}" is not running`);
    }
    const session = this.session;
    this.halt('stopped');
    if (reason === 'banned' && session) this.network.banned.add(session.number);
    if ((reason === 'session_expired' || reason === 'logout') && session) {
      this.network.revoked.add(session.token);
      this.session = null;
      this.context.store.delete(this.name).then(
        () => this.fire('disconnected', reason),
        (error: unknown) => {
          this.context.logger.error(
            { err: error, client: this.name },
            'could not delete the expired session',
          );
          this.fire('disconnected', reason);
        },
      );
      return;
    }
    this.fire('disconnected', reason);
  }

  // ── messages ─────────────────────────────────────────────────────────────────────────────────

  async send(chatId: string, content: EngineContent): Promise<{ id: string }> {
    if (!isMessageKindContent(content)) return this.post(chatId, payloadOf(content));
    return this.post(chatId, kindPayload(this.network, this.ensureReady(), content));
  }

  getQuotedMessage(messageId: string): Promise<MessageData | null> {
    try {
      return Promise.resolve(quotedMessage(this.network, this.ensureReady(), messageId));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async forward(messageId: string, chatId: string): Promise<{ id: string }> {
    this.ensureReady();
    const original = this.network.findMessage(messageId);
    if (!original) throw new WakitError('MESSAGE_NOT_FOUND', `message ${messageId} is unknown`);
    return this.post(chatId, {
      type: original.type,
      body: original.body,
      caption: original.caption,
      media: original.media,
      location: original.location,
      poll: original.poll,
      vcards: original.vcards,
      isForwarded: true,
    });
  }

  downloadMedia(messageId: string): Promise<MediaFile> {
    const media = this.network.findMessage(messageId)?.media;
    if (!media) {
      return Promise.reject(
        new WakitError('MEDIA_NOT_FOUND', `message ${messageId} has no downloadable media`),
      );
    }
    return Promise.resolve({
      data: Buffer.from(media.data),
      mimetype: media.mimetype,
      filename: media.filename,
    });
  }

  isGroupAdmin(groupId: string, memberId: string): Promise<boolean> {
    const group = this.network.findGroup(groupId);
    if (!group)
      return Promise.reject(new WakitError('CHAT_NOT_FOUND', `group ${groupId} does not exist`));
    const member = this.network.person(memberId);
    return Promise.resolve(member !== undefined && group.admins.has(member.id));
  }

  resolveContact(id: string): Promise<ContactInfo> {
    try {
      return Promise.resolve(this.network.lookUp(this.ensureReady(), id));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  // ── actions and presence (simulator/actions.ts) ──────────────────────────────────────────────

  react(messageId: string, emoji: string): Promise<void> {
    return this.act((model, me) => model.react(me, messageId, emoji));
  }

  editMessage(messageId: string, text: string): Promise<void> {
    return this.act((model, me) => model.edit(me, messageId, text));
  }

  deleteMessage(messageId: string, forEveryone: boolean): Promise<void> {
    return this.act((model, me) =>
      forEveryone ? model.revoke(me, messageId) : model.deleteForMe(me, messageId),
    );
  }

  markChatSeen(chatId: string): Promise<void> {
    return this.act((model, me) => model.seen(me, chatId));
  }

  sendChatState(chatId: string, state: ChatState): Promise<void> {
    return this.act((model, me) => model.chatState(me, chatId, state));
  }

  setOnline(online: boolean): Promise<void> {
    return this.act((model, me) => model.setOnline(me, online));
  }

  /** @internal Someone reacted, edited or revoked in a chat of our account. */
  receiveAction(notice: SimActionNotice): void {
    if (notice.event === 'message.reaction') this.fire(notice.event, notice.update);
    else if (notice.event === 'message.edit') this.fire(notice.event, notice.update);
    else this.fire(notice.event, notice.update);
  }

  private act(fn: (model: SimActions, me: SimAccount) => void): Promise<void> {
    try {
      fn(this.network.actions, this.ensureReady());
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private ensureReady(): SimAccount {
    if (this.phase !== 'ready' || !this.account) {
      throw new WakitError('CLIENT_NOT_READY', `"${this.name}" is not linked and ready`);
    }
    return this.account;
  }

  private async post(chatId: string, payload: SimPayload): Promise<{ id: string }> {
    const account = this.ensureReady();
    let target = this.network.resolveTarget(account, chatId);
    if (this.config.latencyMs > 0) {
      await this.sleep(this.config.latencyMs);
      target = this.network.resolveTarget(this.ensureReady(), chatId);
    }
    const failed = this.network.deliveryFails(target.id);
    const record = this.network.post(account, target, payload, !failed, this);
    if (failed) record.ack = -1;
    const message = ownMessage(record, account);
    this.fire('message.create', message);
    // Someone who blocked this account never gets its messages: one tick (sent) only.
    this.progressAcks(record, failed, target.account?.book.blocked.has(account.id) ?? false);
    return { id: record.id };
  }

  private progressAcks(record: SimRecord, failed: boolean, blocked = false): void {
    const update = (ack: -1 | 1 | 2 | 3) => {
      record.ack = ack;
      this.fire('message.ack', { messageId: record.id, chatId: record.target, ack });
    };
    if (failed) {
      this.after(this.config.ackDelayMs, () => update(-1));
      return;
    }
    let next: 1 | 2 | 3 = 1;
    const tick = () => {
      update(next);
      if (next < (blocked ? 1 : 3)) {
        next = (next + 1) as 2 | 3;
        this.after(this.config.ackDelayMs, tick);
      }
    };
    this.after(this.config.ackDelayMs, tick);
  }

  /** @internal A message reached our account: the lean inbound path. */
  receiveInbound(record: SimRecord, sender: SimAccount): void {
    const message = incomingMessage(record, this.account?.id ?? '', sender, this.account);
    this.fire('message', message);
    this.fire('message.create', message);
  }

  // ── groups (the model: groups.ts) ────────────────────────────────────────────────────────────

  private groups(): GroupEngine {
    return this.ensureReady().groups;
  }

  async createGroup(subject: string, participants: string[]) {
    return this.groups().createGroup(subject, participants);
  }
  async getGroup(groupId: string) {
    return this.groups().getGroup(groupId);
  }
  async addParticipants(groupId: string, participants: string[]) {
    return this.groups().addParticipants(groupId, participants);
  }
  async removeParticipants(groupId: string, participants: string[]) {
    return this.groups().removeParticipants(groupId, participants);
  }
  async promoteParticipants(groupId: string, participants: string[]) {
    return this.groups().promoteParticipants(groupId, participants);
  }
  async demoteParticipants(groupId: string, participants: string[]) {
    return this.groups().demoteParticipants(groupId, participants);
  }
  async setGroupSubject(groupId: string, subject: string) {
    return this.groups().setGroupSubject(groupId, subject);
  }
  async setGroupDescription(groupId: string, description: string) {
    return this.groups().setGroupDescription(groupId, description);
  }
  async setGroupSettings(groupId: string, settings: Partial<GroupSettings>) {
    return this.groups().setGroupSettings(groupId, settings);
  }
  async getInviteCode(groupId: string) {
    return this.groups().getInviteCode(groupId);
  }
  async revokeInvite(groupId: string) {
    return this.groups().revokeInvite(groupId);
  }
  async joinByInvite(code: string) {
    return this.groups().joinByInvite(code);
  }
  async leaveGroup(groupId: string) {
    return this.groups().leaveGroup(groupId);
  }

  /** @internal A group event for our account (we are a member). */
  receiveGroupEvent(event: SimGroupEvent): void {
    fireGroupEvent(this, event);
  }

  // ── chats, contacts, calls (models in chats.ts, contacts.ts, calls.ts) ─────────────────────────

  getChats(): Promise<ChatData[]> {
    return this.read((account) => listChats(this.network, account));
  }

  getChat(chatId: string): Promise<ChatData> {
    return this.read((account) => getChat(this.network, account, chatId));
  }

  fetchMessages(chatId: string, options: FetchMessagesOptions) {
    return this.read((account) => fetchMessages(this.network, account, chatId, options));
  }

  getContacts(): Promise<ContactData[]> {
    return this.read((account) => listContacts(this.network, account));
  }

  getContact(id: string): Promise<ContactData> {
    return this.read((account) => getContact(this.network, account, id));
  }

  getNumberId(digits: string): Promise<string | null> {
    return this.read(() => numberId(this.network, digits));
  }

  getProfilePictureUrl(id: string): Promise<string | null> {
    return this.read((account) => profilePictureUrl(this.network, account, id));
  }

  setBlocked(id: string, blocked: boolean): Promise<void> {
    return this.read((account) => setBlocked(this.network, account, id, blocked));
  }

  rejectCall(callId: string): Promise<void> {
    return this.read((account) => this.network.calls.reject(account, callId));
  }

  /** @internal Someone calls our account. */
  receiveCall(call: CallData): void {
    this.fire('call', call);
  }

  /** Runs a look-up on the ready account; its throws become rejections. */
  private read<T>(fn: (account: SimAccount) => T): Promise<T> {
    try {
      return Promise.resolve(fn(this.ensureReady()));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** @internal Someone voted on a poll of a chat of our account. */
  receiveVote(vote: PollVote): void {
    this.fire('poll.vote', vote);
  }

  // ── plumbing ─────────────────────────────────────────────────────────────────────────────────

  private after(ms: number, fn: () => void, cancel?: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.set(timer, cancel);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.after(ms, resolve, () =>
        reject(new WakitError('CLIENT_NOT_READY', `"${this.name}" stopped while sending`)),
      );
    });
  }
}
