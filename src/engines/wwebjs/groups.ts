/**
 * Group management on whatsapp-web.js 1.34: `Client.createGroup` / `acceptInvite` (Client.js:2310,
 * 1834) and `GroupChat`'s methods (structures/GroupChat.js), mapped to plain data and our codes.
 *
 * The library reports refusals in several ways: `addParticipants` and `createGroup` give a code per
 * participant (200 added, 403 invitation only, 404 not on WhatsApp, 408 recently left, 409 already a
 * member, 417 community, 419 full) or an error string; remove / promote / demote silently skip
 * non-members; setters answer `false`; `getInviteCode` answers `undefined`. So rights and membership
 * are checked first from the group's metadata (clear `PERMISSION_DENIED` details), and what the
 * library answers is mapped after.
 */
import { WakitError, isWakitError } from '../../errors/index.js';
import type {
  CreatedGroup,
  GroupEngine,
  GroupInfo,
  GroupPermissionDetails,
  GroupSettings,
  ParticipantResult,
  RefusalReason,
} from '../ports/groups.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import type { ChatLike, ClientLike, GroupParticipantLike, SerializedId } from './types.js';

/** `groupMetadata` of a GroupChat (WhatsApp Web's GroupMetadata model, serialized). */
export interface GroupMetadataLike {
  owner?: SerializedId | string;
  /** Unix seconds. */
  creation?: number;
  desc?: string;
  /** Only admins can send. */
  announce?: boolean;
  /** Only admins can edit info. */
  restrict?: boolean;
  participants?: GroupParticipantLike[];
}

/** `AddParticipantsResult` (GroupChat.js:56). */
export interface AddResultLike {
  code: number;
  message: string;
  isInviteV4Sent: boolean;
}

/** `GroupChat` (structures/GroupChat.js). */
export interface GroupChatLike extends ChatLike {
  name?: string;
  groupMetadata?: GroupMetadataLike;
  addParticipants(ids: string[]): Promise<Record<string, AddResultLike> | string>;
  removeParticipants(ids: string[]): Promise<{ status: number }>;
  promoteParticipants(ids: string[]): Promise<{ status: number }>;
  demoteParticipants(ids: string[]): Promise<{ status: number }>;
  setSubject(subject: string): Promise<boolean>;
  setDescription(description: string): Promise<boolean>;
  setMessagesAdminsOnly(adminsOnly?: boolean): Promise<boolean>;
  setInfoAdminsOnly(adminsOnly?: boolean): Promise<boolean>;
  getInviteCode(): Promise<string | undefined>;
  revokeInvite(): Promise<string>;
  leave(): Promise<void>;
}

/** `CreateGroupResult` (Client.js:2280). */
export interface CreateGroupResultLike {
  title: string;
  gid: SerializedId;
  participants: Record<
    string,
    { statusCode: number; message: string; isGroupCreator: boolean; isInviteV4Sent: boolean }
  >;
}

/** The Client methods groups need beyond ClientLike. */
export interface GroupClientLike {
  createGroup(title: string, participants: string[]): Promise<CreateGroupResultLike | string>;
  acceptInvite(inviteCode: string): Promise<string>;
}

const REASONS: Readonly<Record<number, RefusalReason>> = {
  403: 'privacy',
  404: 'not_registered',
  408: 'recently_left',
  409: 'already_member',
  417: 'community',
  419: 'group_full',
};

/** A participant code of `addParticipants` / `createGroup` to our result. */
export function addOutcome(
  id: string,
  code: number,
  message: string,
  inviteSent: boolean,
): ParticipantResult {
  if (code === 200) return { id, outcome: 'added' };
  if (code === 403 && inviteSent) return { id, outcome: 'invited', message };
  return { id, outcome: 'refused', reason: REASONS[code] ?? 'unknown', message };
}

const NOT_ADMIN = /no admin rights|not.?authori[sz]ed|forbidden|not an admin|403/i;
const BAD_INVITE =
  /ServerStatusCodeError|not.?authori[sz]ed|item.?not.?found|gone|bad.?request|invalid|\b(400|404|406|410)\b/i;

const idOf = (value: SerializedId | string | undefined): string | undefined =>
  typeof value === 'string' ? value : value?._serialized;

const isAdmin = (p: GroupParticipantLike | undefined): boolean =>
  Boolean(p && (p.isAdmin || p.isSuperAdmin));

/** Group operations on the engine's current (READY) attempt. */
export class WwebjsGroups implements GroupEngine {
  constructor(private readonly current: () => Attempt | null) {}

  private ready(): { client: ClientLike & GroupClientLike; me: string | undefined } {
    const attempt = this.current();
    if (!attempt || attempt.retired || !attempt.ready) {
      throw new WakitError('CLIENT_NOT_READY', 'whatsapp-web.js is not connected');
    }
    return {
      client: attempt.client as ClientLike & GroupClientLike,
      me: attempt.identity?.id,
    };
  }

  async createGroup(subject: string, participants: string[]): Promise<CreatedGroup> {
    const { client } = this.ready();
    let result: CreateGroupResultLike | string;
    try {
      result = await client.createGroup(subject, participants);
    } catch (error) {
      throw engineError(error, 'createGroup');
    }
    if (typeof result === 'string') {
      throw new WakitError('ENGINE_ERROR', `WhatsApp did not create the group: ${result}`);
    }
    const entries = Object.entries(result.participants).filter(([, r]) => !r.isGroupCreator);
    const byId = new Map(entries);
    const listed = participants
      .filter((id) => byId.has(id))
      .map((id) => {
        const r = byId.get(id)!;
        byId.delete(id);
        return addOutcome(id, r.statusCode, r.message, r.isInviteV4Sent);
      });
    // Ids WhatsApp reports under another form (a LID asked for, its number answered).
    const others = [...byId].map(([id, r]) =>
      addOutcome(id, r.statusCode, r.message, r.isInviteV4Sent),
    );
    return {
      id: result.gid._serialized,
      subject: result.title,
      participants: [...listed, ...others],
    };
  }

  async getGroup(groupId: string): Promise<GroupInfo> {
    const { chat } = await this.member(groupId, 'get_group');
    const meta = chat.groupMetadata ?? {};
    const owner = idOf(meta.owner);
    return {
      id: chat.id._serialized,
      subject: chat.name ?? '',
      description: meta.desc ?? '',
      ...(owner ? { owner } : {}),
      ...(typeof meta.creation === 'number'
        ? { createdAt: new Date(meta.creation * 1000).toISOString() }
        : {}),
      participants: (chat.participants ?? []).map((p) => ({
        id: p.id._serialized,
        role: p.isSuperAdmin ? 'superadmin' : p.isAdmin ? 'admin' : 'member',
      })),
      settings: {
        messagesAdminsOnly: Boolean(meta.announce),
        infoAdminsOnly: Boolean(meta.restrict),
      },
    };
  }

  async addParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    const { chat } = await this.admin(groupId, 'add_participants');
    let result: Record<string, AddResultLike> | string;
    try {
      result = await chat.addParticipants(participants);
    } catch (error) {
      throw this.mapError(error, groupId, 'add_participants');
    }
    if (typeof result === 'string') {
      if (NOT_ADMIN.test(result)) throw denied(groupId, 'add_participants', 'admin', result);
      throw new WakitError('ENGINE_ERROR', `WhatsApp did not add participants: ${result}`, {
        details: { groupId },
      });
    }
    return participants.map((id) => {
      const r = result[id];
      return r
        ? addOutcome(id, r.code, r.message, r.isInviteV4Sent)
        : { id, outcome: 'refused', reason: 'unknown', message: 'WhatsApp gave no result' };
    });
  }

  async removeParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.changeMembers(groupId, participants, 'remove_participants', (chat, ids) =>
      chat.removeParticipants(ids),
    );
  }

  async promoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.changeMembers(groupId, participants, 'promote_participants', (chat, ids) =>
      chat.promoteParticipants(ids),
    );
  }

  async demoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.changeMembers(groupId, participants, 'demote_participants', (chat, ids) =>
      chat.demoteParticipants(ids),
    );
  }

  async setGroupSubject(groupId: string, subject: string): Promise<void> {
    const chat = await this.infoEditor(groupId, 'set_subject');
    await this.setter(groupId, 'set_subject', () => chat.setSubject(subject));
  }

  async setGroupDescription(groupId: string, description: string): Promise<void> {
    const chat = await this.infoEditor(groupId, 'set_description');
    await this.setter(groupId, 'set_description', () => chat.setDescription(description));
  }

  async setGroupSettings(
    groupId: string,
    settings: Partial<GroupSettings>,
  ): Promise<GroupSettings> {
    const { chat } = await this.admin(groupId, 'set_settings');
    const { messagesAdminsOnly, infoAdminsOnly } = settings;
    if (messagesAdminsOnly !== undefined) {
      await this.setter(groupId, 'set_settings', () =>
        chat.setMessagesAdminsOnly(messagesAdminsOnly),
      );
    }
    if (infoAdminsOnly !== undefined) {
      await this.setter(groupId, 'set_settings', () => chat.setInfoAdminsOnly(infoAdminsOnly));
    }
    const meta = chat.groupMetadata ?? {};
    return {
      messagesAdminsOnly: messagesAdminsOnly ?? Boolean(meta.announce),
      infoAdminsOnly: infoAdminsOnly ?? Boolean(meta.restrict),
    };
  }

  async getInviteCode(groupId: string): Promise<string> {
    const { chat } = await this.admin(groupId, 'get_invite_code');
    let code: string | undefined;
    try {
      code = await chat.getInviteCode();
    } catch (error) {
      throw this.mapError(error, groupId, 'get_invite_code');
    }
    if (!code)
      throw denied(groupId, 'get_invite_code', 'admin', 'WhatsApp refused the invite code');
    return code;
  }

  async revokeInvite(groupId: string): Promise<string> {
    const { chat } = await this.admin(groupId, 'revoke_invite');
    try {
      return await chat.revokeInvite();
    } catch (error) {
      throw this.mapError(error, groupId, 'revoke_invite');
    }
  }

  async joinByInvite(code: string): Promise<string> {
    const { client } = this.ready();
    try {
      return await client.acceptInvite(code);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (BAD_INVITE.test(message)) {
        throw new WakitError('GROUP_INVITE_INVALID', 'WhatsApp refused this invite code', {
          details: { code },
          cause: error,
        });
      }
      throw engineError(error, 'joinByInvite');
    }
  }

  async leaveGroup(groupId: string): Promise<void> {
    const { chat } = await this.member(groupId, 'leave_group');
    try {
      await chat.leave();
    } catch (error) {
      throw this.mapError(error, groupId, 'leave_group');
    }
  }

  // ── checks ─────────────────────────────────────────────────────────────────────────────────

  private async chat(groupId: string): Promise<GroupChatLike> {
    const { client } = this.ready();
    let chat: ChatLike | undefined;
    try {
      chat = await client.getChatById(groupId);
    } catch (error) {
      throw mapSendError(error, groupId);
    }
    if (!chat?.isGroup) {
      throw new WakitError('CHAT_NOT_FOUND', `Group ${groupId} does not exist`, {
        details: { chatId: groupId },
      });
    }
    return chat as GroupChatLike;
  }

  /** The group and our participant entry; PERMISSION_DENIED when we are not a member. */
  private async member(
    groupId: string,
    action: string,
  ): Promise<{ chat: GroupChatLike; me: GroupParticipantLike }> {
    const { me: meId } = this.ready();
    const chat = await this.chat(groupId);
    const me = chat.participants?.find((p) => p.id._serialized === meId);
    if (!me) throw denied(groupId, action, 'membership');
    return { chat, me };
  }

  private async admin(
    groupId: string,
    action: string,
  ): Promise<{ chat: GroupChatLike; me: GroupParticipantLike }> {
    const found = await this.member(groupId, action);
    if (!isAdmin(found.me)) throw denied(groupId, action, 'admin');
    return found;
  }

  private async infoEditor(groupId: string, action: string): Promise<GroupChatLike> {
    const { chat, me } = await this.member(groupId, action);
    if (chat.groupMetadata?.restrict && !isAdmin(me)) {
      throw denied(groupId, action, 'admin', undefined, 'infoAdminsOnly');
    }
    return chat;
  }

  private async setter(groupId: string, action: string, call: () => Promise<boolean>) {
    let ok: boolean;
    try {
      ok = await call();
    } catch (error) {
      throw this.mapError(error, groupId, action);
    }
    if (!ok) throw denied(groupId, action, 'admin', 'WhatsApp refused the change');
  }

  /** A person id of the request → the participant it names (directly, or by its LID / number). */
  private async findParticipant(
    chat: GroupChatLike,
    id: string,
  ): Promise<GroupParticipantLike | undefined> {
    const participants = chat.participants ?? [];
    const direct = participants.find((p) => p.id._serialized === id);
    if (direct) return direct;
    const { client } = this.ready();
    const [other] = await client.getContactLidAndPhone([id]).catch(() => []);
    const alternatives = [other?.lid, other?.pn].filter((v): v is string => Boolean(v));
    return participants.find((p) => alternatives.includes(p.id._serialized));
  }

  /** remove / promote / demote: refusals decided from the metadata, the rest done in one call. */
  private async changeMembers(
    groupId: string,
    participants: string[],
    action: 'remove_participants' | 'promote_participants' | 'demote_participants',
    call: (chat: GroupChatLike, ids: string[]) => Promise<{ status: number }>,
  ): Promise<ParticipantResult[]> {
    const { chat, me } = await this.admin(groupId, action);
    const results: ParticipantResult[] = [];
    const todo: string[] = [];
    for (const id of participants) {
      const p = await this.findParticipant(chat, id);
      const why = refusal(action, p, me);
      if (why) results.push({ id, outcome: 'refused', ...why });
      else {
        todo.push(id);
        results.push({ id, outcome: DONE[action] });
      }
    }
    if (todo.length > 0) {
      try {
        await call(chat, todo);
      } catch (error) {
        throw this.mapError(error, groupId, action);
      }
    }
    return results;
  }

  private mapError(error: unknown, groupId: string, action: string): WakitError {
    if (isWakitError(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (NOT_ADMIN.test(message))
      return denied(groupId, action, 'admin', undefined, undefined, error);
    return mapSendError(error, groupId);
  }
}

const DONE = {
  remove_participants: 'removed',
  promote_participants: 'promoted',
  demote_participants: 'demoted',
} as const;

function refusal(
  action: keyof typeof DONE,
  p: GroupParticipantLike | undefined,
  me: GroupParticipantLike,
): { reason: RefusalReason; message: string } | undefined {
  if (!p) return { reason: 'not_member', message: 'not a member of the group' };
  if (action === 'remove_participants') {
    if (p.id._serialized === me.id._serialized)
      return { reason: 'is_self', message: 'leave the group instead' };
    if (p.isSuperAdmin)
      return { reason: 'is_owner', message: 'the group creator cannot be removed' };
  } else if (action === 'promote_participants') {
    if (isAdmin(p)) return { reason: 'already_admin', message: 'already an admin' };
  } else {
    if (p.isSuperAdmin)
      return { reason: 'is_owner', message: 'the group creator cannot be demoted' };
    if (!p.isAdmin) return { reason: 'not_admin', message: 'not an admin' };
  }
  return undefined;
}

function denied(
  groupId: string,
  action: string,
  missing: GroupPermissionDetails['missing'],
  why?: string,
  setting?: GroupPermissionDetails['setting'],
  cause?: unknown,
): WakitError {
  const details: GroupPermissionDetails = {
    groupId,
    action,
    missing,
    ...(setting ? { setting } : {}),
  };
  const text =
    missing === 'membership'
      ? `This account is not a member of group ${groupId}`
      : `Only admins of group ${groupId} may do this (${action})${setting ? ` while ${setting} is on` : ''}`;
  return new WakitError('PERMISSION_DENIED', why ? `${text}: ${why}` : text, {
    details: { ...details },
    ...(cause !== undefined ? { cause } : {}),
  });
}

function engineError(error: unknown, operation: string): WakitError {
  if (isWakitError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WakitError('ENGINE_ERROR', `whatsapp-web.js ${operation} failed: ${message}`, {
    cause: error,
  });
}
