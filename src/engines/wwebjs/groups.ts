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
  GroupInfo,
  GroupOps,
  GroupSettings,
  ParticipantResult,
} from '../ports/groups.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import { isGroupAdmin } from './operations.js';
import type { ChatLike, ClientLike, GroupParticipantLike } from './types.js';
import type {
  AddResultLike,
  CreateGroupResultLike,
  GroupChatLike,
  GroupClientLike,
} from './group-types.js';
import {
  BAD_INVITE,
  DONE,
  NOT_ADMIN,
  addOutcome,
  denied,
  engineError,
  idOf,
  isAdmin,
  refusal,
} from './group-refusals.js';

/** Group operations on the engine's current (READY) attempt. */
export class WwebjsGroups implements GroupOps {
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

  async create(subject: string, participants: string[]): Promise<CreatedGroup> {
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

  async get(groupId: string): Promise<GroupInfo> {
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

  async setSubject(groupId: string, subject: string): Promise<void> {
    const chat = await this.infoEditor(groupId, 'set_subject');
    await this.setter(groupId, 'set_subject', () => chat.setSubject(subject));
  }

  async setDescription(groupId: string, description: string): Promise<void> {
    const chat = await this.infoEditor(groupId, 'set_description');
    await this.setter(groupId, 'set_description', () => chat.setDescription(description));
  }

  async setSettings(groupId: string, settings: Partial<GroupSettings>): Promise<GroupSettings> {
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

  async isAdmin(groupId: string, memberId: string): Promise<boolean> {
    return isGroupAdmin(this.ready().client, groupId, memberId);
  }

  async leave(groupId: string): Promise<void> {
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
    // not reported: no other id known means the participant is not found (the answer)
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
