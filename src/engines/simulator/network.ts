/**
 * The virtual WhatsApp network: accounts (phones and the accounts bot clients link to), groups, a
 * message registry (for forward, quotes and media download) and the QR codes currently shown.
 * All clients of one Sdk share one network; each gets a SimulatorEngine from `engineFactory()`.
 */
import { pino, type Logger } from 'pino';
import type { RestrictionModel } from './restriction-model.js';
import { WakitError } from '../../errors/index.js';
import type { ContactInfo, DisconnectReason } from '../types.js';
import type { EngineContext } from '../engine.js';
import { engineSchema } from '../../config/schema.js';
import { SimAccount, type LinkedDevice, type SimRecord } from './account.js';
import { SimGroupImpl, groupId, memberId } from './group.js';
import { GROUP_SUFFIX, LID_SUFFIX, serializeId, toNumber } from './ids.js';
import { SimMessageRegistry } from './message-registry.js';
import { phonePayload, type SimPayload } from './phone-payload.js';
import { resolveTarget, type Target } from './targets.js';
import { SimChannelImpl, channelId } from './channel.js';
import { SimGroupActions } from './groups.js';
import type { GroupHost } from './group-rules.js';
import { SimulatorEngine } from './engine.js';
import { SimCalls } from './calls.js';
import { castVote, isKindContent, phoneKindPayload } from './message-kinds.js';
import { SimActions } from './actions.js';
import { SimBuild } from './build.js';
import type {
  SimChannel,
  SimChannelSpec,
  SimGroup,
  SimGroupAddPrivacy,
  SimGroupSpec,
  SimKindContent,
  SimMediaContent,
  SimPhone,
  SimSendOptions,
  SimulatorEngineConfig,
} from './types.js';

/** One shared empty list for the many messages that mention nobody. */
const NO_MENTIONS: readonly string[] = Object.freeze([]);

export interface SimulatorNetworkOptions {
  /** The `engine` config section; missing keys take the schema defaults. */
  config?: Partial<SimulatorEngineConfig>;
  logger?: Logger;
  /** Randomness for QR codes, ids and pairing codes (tests pass a seeded one). */
  random?: () => number;
}

export class SimulatorNetwork implements GroupHost {
  readonly config: SimulatorEngineConfig;
  readonly logger: Logger;
  readonly random: () => number;
  private readonly accounts = new Map<string, SimAccount>();
  private readonly groups = new Map<string, SimGroupImpl>();
  private readonly channels = new Map<string, SimChannelImpl>();
  private readonly byLid = new Map<string, SimAccount>();
  private readonly engines = new Map<string, SimulatorEngine>();
  private readonly messages: SimMessageRegistry;
  /** @internal QR string currently shown → the engine showing it. */
  readonly qrs = new Map<string, SimulatorEngine>();
  /** Restricts accounts that send like spammers, as WhatsApp does (off unless set; safety.md). */
  restrictions: RestrictionModel | undefined;
  /** @internal Session tokens this network no longer accepts (logout, expiry). */
  readonly revoked = new Set<string>();
  /** @internal Numbers banned through `disconnect(name, 'banned')`. */
  readonly banned = new Set<string>();
  /** @internal Clients whose next session restore fails. */
  readonly failAuthNext = new Set<string>();
  private readonly failedChats = new Set<string>();
  /** @internal Calls placed by phones (calls.ts). */
  readonly calls = new SimCalls({
    person: (id) => this.person(id),
    groupMembers: (id) => this.groups.get(id)?.members,
    random: () => this.random(),
  });
  /** @internal Reactions, edits, revokes and presence (simulator/actions.ts). */
  readonly actions = new SimActions(this);
  /** The simulated WhatsApp Web build: `build.set({ broken: ['send.media'] })` breaks media sends. */
  readonly build: SimBuild;

  constructor(options: SimulatorNetworkOptions = {}) {
    const parsed = engineSchema.parse({ ...options.config, type: 'simulator' });
    if (parsed.type !== 'simulator') throw new WakitError('INTERNAL', 'simulator config expected');
    this.config = parsed;
    this.build = new SimBuild(parsed.build);
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.random = options.random ?? Math.random;
    this.messages = new SimMessageRegistry(this.random);
  }

  /** One SimulatorEngine per client, all on this network (a client created again replaces it). */
  engineFactory(): (context: EngineContext) => SimulatorEngine {
    return (context) => {
      const engine = new SimulatorEngine(this, context);
      this.engines.set(context.clientName, engine);
      return engine;
    };
  }

  /** Links the client showing this QR. Unknown or replaced QR codes are QR_NOT_AVAILABLE. */
  scan(qr: string, opts: { phone?: string; pushname?: string } = {}): void {
    const engine = this.qrs.get(qr);
    if (!engine)
      throw new WakitError(
        'QR_NOT_AVAILABLE',
        'no client is showing this QR code (expired or unknown)',
      );
    engine.acceptScan(opts);
  }

  /**
   * Gets or creates a registered phone. `lidAddressed: true` makes it a LID user: its messages
   * arrive as `<lid>@lid` and its number is hidden from accounts that have not saved it
   * (`addContact`). `lid` fixes its LID digits (else derived from the number).
   */
  phone(
    number: string,
    opts: {
      pushname?: string;
      lidAddressed?: boolean;
      lid?: string;
      /** Who may add it to groups (others get `invited`). */
      groupAdd?: SimGroupAddPrivacy;
    } = {},
  ): SimPhone {
    const digits = toNumber(number);
    if (!digits) throw new WakitError('VALIDATION_FAILED', `"${number}" is not a phone number`);
    if (opts.lid !== undefined && !/^\d{5,25}$/.test(opts.lid)) {
      throw new WakitError('VALIDATION_FAILED', `"${opts.lid}" is not LID digits`);
    }
    const account = this.account(digits, opts.pushname, opts.lid);
    if (opts.lidAddressed !== undefined) account.lidAddressed = opts.lidAddressed;
    if (opts.groupAdd !== undefined) account.groupAdd = opts.groupAdd;
    return account;
  }

  /** Creates (or replaces) a channel; admins may post to it, followers receive the posts. */
  channel(spec: SimChannelSpec): SimChannel {
    const channel = new SimChannelImpl(channelId(spec.id), spec.name);
    for (const admin of spec.admins ?? []) channel.admins.add(this.account(this.digits(admin)).id);
    for (const follower of spec.followers ?? []) channel.follow(follower);
    this.channels.set(channel.id, channel);
    return channel;
  }

  private digits(value: string): string {
    const digits = toNumber(value);
    if (!digits) throw new WakitError('VALIDATION_FAILED', `"${value}" is not a phone number`);
    return digits;
  }

  /**
   * What `viewer` learns about a person by `@c.us` or `@lid` id, like WhatsApp Web's look-up: a
   * number gives its LID; a LID gives its number only when the viewer may see it.
   */
  lookUp(viewer: SimAccount, id: string): ContactInfo {
    const account = id.endsWith(LID_SUFFIX)
      ? this.byLid.get(id)
      : this.accounts.get(id.slice(0, -'@c.us'.length));
    if (!account) return { id, isRegistered: false };
    const info: ContactInfo = { id, lid: account.lid, isRegistered: true };
    if (account.phoneVisibleTo(viewer)) info.phone = account.id;
    info.pushname = account.pushname;
    return info;
  }

  /** @internal The account behind a `@c.us` or `@lid` id. */
  person(id: string): SimAccount | undefined {
    if (id.endsWith(LID_SUFFIX)) return this.byLid.get(id);
    const number = toNumber(id);
    return number ? this.accounts.get(number) : undefined;
  }

  /** Creates (or replaces) a group; members are created as phones when unknown. */
  group(spec: SimGroupSpec): SimGroup {
    const id = groupId(spec.id);
    const group = this.newGroup(id, spec.name ?? id);
    group.adminsOnly = spec.adminsOnly ?? false;
    for (const member of spec.members) group.addMember(member);
    for (const admin of spec.admins ?? []) group.addMember(admin, { admin: true });
    if (spec.owner !== undefined) {
      group.addMember(spec.owner, { admin: true });
      group.owner = memberId(spec.owner);
    }
    group.addressing = spec.addressing ?? 'pn';
    group.description = spec.description ?? '';
    group.infoAdminsOnly = spec.infoAdminsOnly ?? false;
    this.addGroup(group);
    return group;
  }

  /** @internal A new group whose members become accounts of this network (see groups.ts). */
  newGroup(id: string, subject: string): SimGroupImpl {
    return new SimGroupImpl(id, subject, false, (member) => {
      this.account(member.slice(0, -'@c.us'.length));
    });
  }

  /** @internal */
  addGroup(group: SimGroupImpl): void {
    this.groups.set(group.id, group);
  }

  /** @internal The group whose current invite code is `code`. */
  groupByInvite(code: string): SimGroupImpl | undefined {
    for (const group of this.groups.values()) if (group.inviteCode === code) return group;
    return undefined;
  }

  /** The account a client is linked to (a phone handle), or null when it is not linked. */
  linkedPhone(clientName: string): SimPhone | null {
    const me = this.engines.get(clientName)?.me();
    return me ? this.account(me.id.slice(0, -'@c.us'.length)) : null;
  }

  /** The client's session is expired: `disconnected('session_expired')`, its session deleted. */
  expireSession(clientName: string): void {
    this.disconnect(clientName, 'session_expired');
  }

  /**
   * Simulates a disconnection. `connection_lost`, `browser_crashed`, `conflict`, `qr_timeout` and
   * `stopped` keep the session; `session_expired` and `logout` revoke and delete it; `banned` bans
   * the number (later restores and links of it end in `disconnected('banned')`).
   */
  disconnect(clientName: string, reason: DisconnectReason): void {
    this.engineOf(clientName).dropConnection(reason);
  }

  /** The next session restore of this client fails with `auth_failure` (AUTH_FAILED). */
  failAuth(clientName: string): void {
    this.failAuthNext.add(clientName);
  }

  /** Messages bots send to this chat get ack -1 and are not delivered (`restore` undoes it). */
  failDelivery(chatId: string, fail = true): void {
    const id = chatId.endsWith(GROUP_SUFFIX) ? groupId(chatId) : memberId(chatId);
    if (fail) this.failedChats.add(id);
    else this.failedChats.delete(id);
  }

  /** @internal */
  deliveryFails(chatId: string): boolean {
    return this.failedChats.size > 0 && this.failedChats.has(chatId);
  }

  /** @internal get-or-create an account by digits. */
  account(number: string, pushname?: string, lid?: string): SimAccount {
    let account = this.accounts.get(number);
    if (!account) {
      account = new SimAccount(number, pushname ?? `+${number}`, this.phoneSend, lid, (c, to, o) =>
        this.calls.place(c, to, o),
      );
      account.groups = new SimGroupActions(this, account);
      account.voteVia = (voter, pollId, options) => castVote(this, voter, pollId, options);
      account.actionsModel = this.actions;
      this.accounts.set(number, account);
      this.byLid.set(account.lid, account);
    } else if (pushname !== undefined) {
      account.pushname = pushname;
    }
    return account;
  }

  /** @internal */
  findGroup(id: string): SimGroupImpl | undefined {
    return this.groups.get(id);
  }

  /** @internal For chats.ts. */
  groupName(id: string): string | undefined {
    return this.groups.get(id)?.name;
  }

  /** @internal For chats.ts. */
  channelName(id: string): string | undefined {
    return this.channels.get(id)?.name;
  }

  /** @internal Ids of the groups `accountId` is a member of (for chats.ts). */
  *groupsOf(accountId: string): Iterable<string> {
    for (const group of this.groups.values()) if (group.members.has(accountId)) yield group.id;
  }

  /** @internal */
  findChannel(id: string): SimChannelImpl | undefined {
    return this.channels.get(id);
  }

  /** @internal A stored message by any serialized id (or bare stanza id). */
  findMessage(messageId: string): SimRecord | undefined {
    return this.messages.find(messageId);
  }

  /** @internal Where `sender` may post `chatId`: CHAT_NOT_FOUND / PERMISSION_DENIED otherwise. */
  resolveTarget(sender: SimAccount, chatId: string): Target {
    return resolveTarget(this, sender, chatId);
  }

  /** @internal Posts from `sender` to a resolved target: registers it, shows it on the sender's
   * devices when written on the phone (`from` absent) and, unless `deliver` is false, puts it in
   * every receiver's inbox and hands it to their linked devices. */
  post(
    sender: SimAccount,
    target: Target,
    payload: SimPayload,
    deliver = true,
    from?: LinkedDevice,
  ): SimRecord {
    const stanza = this.messages.nextStanza();
    const isGroup = target.group !== undefined;
    const shared = isGroup || target.channel !== undefined || target.status === true;
    const record: SimRecord = {
      id: serializeId(true, target.id, stanza),
      stanza,
      target: target.id,
      chatId: shared ? target.id : sender.id,
      byLid: sender.lidAddressed || target.group?.addressing === 'lid',
      author: sender.id,
      isGroup,
      type: payload.type,
      body: payload.body,
      caption: payload.caption,
      media: payload.media,
      isForwarded: payload.isForwarded,
      quotedMessageId: payload.quotedMessageId,
      mentionedIds: payload.mentionedIds ?? NO_MENTIONS,
      location: payload.location,
      poll: payload.poll,
      votes: payload.poll ? new Map<string, string[]>() : undefined,
      vcards: payload.vcards,
      timestamp: Math.floor(Date.now() / 1000),
      ack: 1,
    };
    this.messages.remember(record);
    sender.chats.sent(target.account?.id ?? target.id, record, sender);
    if (target.account) this.restrictions?.wrote(sender.id, target.account.id);
    if (from === undefined) for (const device of sender.devices) device.receiveOwn(record, sender);
    if (!deliver) return record;
    if (target.account) {
      // A person who blocked the sender does not get their private messages (chats.md).
      if (!target.account.book.blocked.has(sender.id))
        this.deliverTo(target.account, record, sender, from);
    } else if (target.group) {
      for (const member of target.group.members) {
        if (member === sender.id) continue;
        const account = this.accounts.get(member.slice(0, -5));
        if (account) this.deliverTo(account, record, sender, from);
      }
    } else if (target.channel) {
      for (const follower of target.channel.followers) {
        const account = this.accounts.get(follower.slice(0, -5));
        if (account && account !== sender) this.deliverTo(account, record, sender, from);
      }
    } else if (target.status) {
      // Status posts reach every account of the network that has the poster saved or is linked.
      for (const account of this.accounts.values()) {
        if (account !== sender && (account.devices.size > 0 || account.contacts.has(sender.number)))
          this.deliverTo(account, record, sender, from);
      }
    }
    return record;
  }

  private deliverTo(
    account: SimAccount,
    record: SimRecord,
    sender: SimAccount,
    from?: LinkedDevice,
  ): void {
    account.receive(record);
    account.chats.received(record, sender);
    if (account.devices.size === 0) return;
    for (const device of account.devices) {
      if (device !== from) device.receiveInbound(record, sender);
    }
  }

  /** A phone sends: the hot inbound path (no timers, no copies). */
  private readonly phoneSend = (
    sender: SimAccount,
    chatId: string,
    content: string | SimMediaContent | SimKindContent,
    opts: SimSendOptions,
  ): { id: string } => {
    const target = this.resolveTarget(sender, chatId);
    const payload = isKindContent(content)
      ? phoneKindPayload(this, sender, content, opts.quotedMessageId)
      : phonePayload(content, opts);
    return { id: this.post(sender, target, payload).id };
  };

  private engineOf(clientName: string): SimulatorEngine {
    const engine = this.engines.get(clientName);
    if (!engine)
      throw new WakitError('CLIENT_NOT_FOUND', `no simulator client named "${clientName}"`);
    return engine;
  }
}
