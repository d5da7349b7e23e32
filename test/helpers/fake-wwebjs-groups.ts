/* eslint-disable @typescript-eslint/require-await -- async like the real methods: throws become rejections */
/**
 * Groups for the fake whatsapp-web.js (fake-wwebjs-client.ts), written from
 * node_modules/whatsapp-web.js/src: `Client.createGroup` / `acceptInvite` (Client.js:2310, 1834),
 * `GroupChat` (structures/GroupChat.js: its result shapes, codes and silent skips) and the
 * `group_*` events with a GroupNotification (Client.js:588-644, structures/GroupNotification.js).
 */
import type { WwebjsBindings } from '../../src/engines/wwebjs/types.js';
import type { FakeCall, FakeChat, FakeClient, FakeWhatsAppNetwork } from './fake-wwebjs-client.js';

/** What the plain FakeGroup lacks: subject, description, owner, creation, "info admins only", invite. */
export interface FakeGroupExtra {
  subject: string;
  desc: string;
  owner?: string;
  creation: number;
  restrict: boolean;
  inviteCode: string;
}

const CODES: Record<number, string> = {
  200: 'The participant was added successfully',
  403: 'The participant can be added by sending private invitation only',
  404: 'The phone number is not registered on WhatsApp',
  408: 'You cannot add this participant because they recently left the group',
  409: 'The participant is already a group member',
  419: "The participant can't be added because the group is full",
};

let groupCounter = 0;

export class FakeGroups {
  readonly extra = new Map<string, FakeGroupExtra>();
  /** Numbers that allow invitations only (403). */
  readonly privacy = new Set<string>();
  /** Forced `addParticipants` codes per participant (408, 419, ...). */
  readonly forcedCodes = new Map<string, number>();
  /** Whether the inviteV4 message goes out for 403s (`autoSendInviteV4`). */
  inviteSent = true;
  /** Makes `addParticipants` answer this error string (as when the page thinks we are no admin). */
  addError: string | null = null;
  /** Makes setters answer false (ServerStatusCodeError inside the page). */
  settersFail = false;
  readonly calls: FakeCall[] = [];

  constructor(readonly network: FakeWhatsAppNetwork) {}

  /** The network's bindings, with clients that have group support. */
  bindings(): WwebjsBindings {
    const base = this.network.bindings();
    return {
      ...base,
      createClient: (options) => {
        const client = base.createClient(options) as unknown as FakeClient;
        this.install(client);
        return client;
      },
    };
  }

  extraOf(groupId: string): FakeGroupExtra {
    let extra = this.extra.get(groupId);
    if (!extra) {
      extra = {
        subject: groupId,
        desc: '',
        creation: 1_700_000_000,
        restrict: false,
        inviteCode: `CODE${groupId.slice(0, 6)}`,
      };
      this.extra.set(groupId, extra);
    }
    return extra;
  }

  /** A `gp2` notification as Client.js turns it into a `group_*` event. */
  notify(
    client: FakeClient,
    subtype: string,
    chatId: string,
    author: string | undefined,
    recipients: string[] = [],
    body = '',
  ): void {
    const event = ['add', 'invite', 'linked_group_join'].includes(subtype)
      ? 'group_join'
      : subtype === 'remove' || subtype === 'leave'
        ? 'group_leave'
        : subtype === 'promote' || subtype === 'demote'
          ? 'group_admin_changed'
          : 'group_update';
    client.emit(event, {
      id: { remote: chatId },
      body,
      type: subtype,
      timestamp: 1_700_000_100,
      chatId,
      author,
      recipientIds: recipients,
    });
  }

  private install(client: FakeClient): void {
    const getChat = client.getChatById.bind(client);
    Object.assign(client, {
      getChatById: async (chatId: string) => {
        const chat = await getChat(chatId);
        return chat?.isGroup ? this.groupChat(client, chat) : chat;
      },
      createGroup: async (title: string, participants: string[]) => {
        this.calls.push({ method: 'createGroup', args: [title, participants] });
        client.requirePage();
        const me = client.account!;
        const gid = `1203630000000${(++groupCounter).toString().padStart(5, '0')}@g.us`;
        const members = [{ id: me, isAdmin: true }];
        const result: Record<string, unknown> = {
          [me]: {
            statusCode: 200,
            message: CODES[200],
            isGroupCreator: true,
            isInviteV4Sent: false,
          },
        };
        for (const p of participants) {
          const code = !this.network.registered.has(p) ? 404 : this.privacy.has(p) ? 403 : 200;
          if (code === 200) members.push({ id: p, isAdmin: false });
          result[p] = {
            statusCode: code,
            message: CODES[code],
            isGroupCreator: false,
            isInviteV4Sent: code === 403 && this.inviteSent,
          };
        }
        this.network.groups.set(gid, { announce: false, participants: members });
        Object.assign(this.extraOf(gid), { subject: title, owner: me });
        return {
          title,
          gid: { server: 'g.us', user: gid.split('@')[0], _serialized: gid },
          participants: result,
        };
      },
      acceptInvite: async (code: string) => {
        this.calls.push({ method: 'acceptInvite', args: [code] });
        client.requirePage();
        const found = [...this.extra].find(([, e]) => e.inviteCode === code);
        if (!found) throw new Error('Evaluation failed: ServerStatusCodeError');
        this.network.groups
          .get(found[0])
          ?.participants.push({ id: client.account!, isAdmin: false });
        return found[0];
      },
    });
  }

  /** A GroupChat over the network's group: the methods of structures/GroupChat.js. */
  private groupChat(client: FakeClient, chat: FakeChat) {
    const id = chat.id._serialized;
    const group = this.network.groups.get(id)!;
    const extra = this.extraOf(id);
    const me = () => group.participants.find((p) => p.id === client.account);
    const admin = () => Boolean(me()?.isAdmin);
    const participants = group.participants.map((p) => ({
      id: { _serialized: p.id },
      isAdmin: p.isAdmin || p.id === extra.owner,
      isSuperAdmin: p.id === extra.owner,
    }));
    const record = (method: string, args: unknown[]) => {
      this.calls.push({ method, args: [id, ...args] });
      client.requirePage();
    };
    /** GroupChat.js: participants not in the group are silently filtered out. */
    const members = (ids: string[]) =>
      ids.filter((p) => group.participants.some((m) => m.id === p));
    const setter = (apply: () => void) => {
      if (this.settersFail || !admin()) return false;
      apply();
      return true;
    };
    return {
      ...chat,
      name: extra.subject,
      participants,
      groupMetadata: {
        owner: extra.owner ? { _serialized: extra.owner } : undefined,
        creation: extra.creation,
        desc: extra.desc,
        announce: group.announce,
        restrict: extra.restrict,
        participants,
      },
      addParticipants: async (ids: string[]) => {
        record('addParticipants', [ids]);
        if (this.addError) return this.addError;
        if (!admin())
          return 'AddParticipantsError: You have no admin rights to add a participant to a group';
        const out: Record<string, { code: number; message: string; isInviteV4Sent: boolean }> = {};
        for (const p of ids) {
          const code = group.participants.some((m) => m.id === p)
            ? 409
            : !this.network.registered.has(p)
              ? 404
              : (this.forcedCodes.get(p) ?? (this.privacy.has(p) ? 403 : 200));
          if (code === 200) group.participants.push({ id: p, isAdmin: false });
          out[p] = {
            code,
            message: CODES[code] ?? 'unknown',
            isInviteV4Sent: code === 403 && this.inviteSent,
          };
        }
        return out;
      },
      removeParticipants: async (ids: string[]) => {
        record('removeParticipants', [ids]);
        const gone = members(ids);
        group.participants = group.participants.filter((m) => !gone.includes(m.id));
        return { status: 200 };
      },
      promoteParticipants: async (ids: string[]) => {
        record('promoteParticipants', [ids]);
        for (const m of group.participants) if (members(ids).includes(m.id)) m.isAdmin = true;
        return { status: 200 };
      },
      demoteParticipants: async (ids: string[]) => {
        record('demoteParticipants', [ids]);
        for (const m of group.participants) if (members(ids).includes(m.id)) m.isAdmin = false;
        return { status: 200 };
      },
      setSubject: async (subject: string) => {
        record('setSubject', [subject]);
        if (this.settersFail || (extra.restrict && !admin())) return false;
        extra.subject = subject;
        return true;
      },
      setDescription: async (description: string) => {
        record('setDescription', [description]);
        if (this.settersFail || (extra.restrict && !admin())) return false;
        extra.desc = description;
        return true;
      },
      setMessagesAdminsOnly: async (adminsOnly = true) => {
        record('setMessagesAdminsOnly', [adminsOnly]);
        return setter(() => (group.announce = adminsOnly));
      },
      setInfoAdminsOnly: async (adminsOnly = true) => {
        record('setInfoAdminsOnly', [adminsOnly]);
        return setter(() => (extra.restrict = adminsOnly));
      },
      getInviteCode: async () => {
        record('getInviteCode', []);
        return admin() ? extra.inviteCode : undefined;
      },
      revokeInvite: async () => {
        record('revokeInvite', []);
        extra.inviteCode = `NEW${extra.inviteCode}`;
        return extra.inviteCode;
      },
      leave: async () => {
        record('leave', []);
        group.participants = group.participants.filter((m) => m.id !== client.account);
      },
    };
  }
}
