/**
 * Group management on the virtual network, as one account (a bot's linked account or a phone):
 * WhatsApp's rules (admins add, remove, promote, demote and change settings; info may be limited to
 * admins; the creator cannot be removed; people whose privacy forbids being added get an
 * invitation; unregistered numbers are refused) and the `group.*` events every member receives.
 */
import { WakitError } from '../../errors/index.js';
import type { EngineEmitter } from '../engine-emitter.js';
import type {
  CreatedGroup,
  GroupChange,
  GroupInfo,
  GroupOps,
  GroupParticipant,
  GroupSettings,
  GroupUpdateEvent,
  ParticipantResult,
  RefusalReason,
} from '../ports/groups.js';
import type { SimAccount } from './account.js';
import type { SimGroupImpl } from './group.js';
import { LID_SUFFIX, toNumber } from './ids.js';
import type { SimGroupEvent } from './types.js';
import { GroupRules, type GroupHost } from './group-rules.js';

/** Emits a group event on an engine. */
export function fireGroupEvent(engine: EngineEmitter, event: SimGroupEvent): void {
  if (event.event === 'group.join') engine.fire('group.join', event.data);
  else if (event.event === 'group.leave') engine.fire('group.leave', event.data);
  else engine.fire('group.update', event.data);
}

/** WhatsApp's group size limit. */
export const SIM_GROUP_SIZE_LIMIT = 1024;

const INVITE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const now = (): number => Math.floor(Date.now() / 1000);

/** A 22-character invite code, like WhatsApp's (`chat.whatsapp.com/<code>`). */
export function makeInviteCode(random: () => number): string {
  let code = '';
  for (let i = 0; i < 22; i++)
    code += INVITE_ALPHABET[Math.floor(random() * INVITE_ALPHABET.length)];
  return code;
}

function newGroupId(random: () => number): string {
  let digits = '120363';
  for (let i = 0; i < 12; i++) digits += Math.floor(random() * 10).toString();
  return `${digits}@g.us`;
}

/** A person id as given to the phone API or the engine: digits, `@c.us` or `@lid`. */
function personId(value: string): string {
  if (value.endsWith(LID_SUFFIX)) return value;
  const number = toNumber(value);
  if (!number)
    throw new WakitError('VALIDATION_FAILED', `"${value}" is not a phone number, @c.us or @lid id`);
  return `${number}@c.us`;
}

const refused = (id: string, reason: RefusalReason, message: string): ParticipantResult => ({
  id,
  outcome: 'refused',
  reason,
  message,
});

/** Delivers a group event to every member in `members`: their phone log and linked devices. */
function announce(host: GroupHost, members: Iterable<string>, event: SimGroupEvent): void {
  for (const member of [...members]) host.person(member)?.receiveGroupEvent(event);
}

/** The role of `member` in `group`. */
function roleOf(group: SimGroupImpl, member: string): GroupParticipant['role'] {
  if (member === group.owner && group.admins.has(member)) return 'superadmin';
  return group.admins.has(member) ? 'admin' : 'member';
}

/** Group operations as the account `me`. */
export class SimGroupActions implements GroupOps {
  private readonly rules: GroupRules;

  constructor(
    private readonly host: GroupHost,
    private readonly me: SimAccount,
  ) {
    this.rules = new GroupRules(host, me);
  }

  create(subject: string, participants: string[]): Promise<CreatedGroup> {
    return this.run(() => {
      const title = subject.trim();
      if (!title) throw new WakitError('VALIDATION_FAILED', 'A group needs a subject');
      let id = newGroupId(this.host.random);
      while (this.host.findGroup(id)) id = newGroupId(this.host.random);
      const group = this.host.newGroup(id, title);
      group.owner = this.me.id;
      group.createdAt = now();
      group.addMember(this.me.id, { admin: true });
      const results = participants.map((p) => this.addOne(group, personId(p)));
      this.host.addGroup(group);
      const added = results.filter((r) => r.outcome === 'added').map((r) => this.idOf(r.id));
      this.emitJoin(group, [this.me.id, ...added], this.me.id);
      return { id, subject: title, participants: results };
    });
  }

  get(groupId: string): Promise<GroupInfo> {
    return this.run(() => {
      const group = this.rules.member(groupId, 'get_group');
      return {
        id: group.id,
        subject: group.name,
        description: group.description,
        ...(group.owner ? { owner: group.owner } : {}),
        createdAt: new Date(group.createdAt * 1000).toISOString(),
        participants: [...group.members].map((id) => ({ id, role: roleOf(group, id) })),
        settings: settingsOf(group),
      };
    });
  }

  addParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.run(() => {
      const group = this.rules.admin(groupId, 'add_participants');
      const results = participants.map((p) => this.addOne(group, personId(p)));
      const added = results.filter((r) => r.outcome === 'added').map((r) => this.idOf(r.id));
      if (added.length > 0) this.emitJoin(group, added, this.me.id);
      return results;
    });
  }

  removeParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.run(() => {
      const group = this.rules.admin(groupId, 'remove_participants');
      const before = [...group.members];
      const removed: string[] = [];
      const results = participants.map((p): ParticipantResult => {
        const id = personId(p);
        const member = this.memberIdOf(group, id);
        if (!member) return refused(id, 'not_member', 'not a member of the group');
        if (member === this.me.id) return refused(id, 'is_self', 'leave the group instead');
        if (member === group.owner)
          return refused(id, 'is_owner', 'the group creator cannot be removed');
        group.removeMember(member);
        removed.push(member);
        return { id, outcome: 'removed' };
      });
      if (removed.length > 0) {
        announce(this.host, before, {
          event: 'group.leave',
          data: {
            groupId: group.id,
            participants: removed,
            how: 'removed',
            by: this.me.id,
            timestamp: now(),
          },
        });
      }
      return results;
    });
  }

  promoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.changeAdmins(groupId, participants, true);
  }

  demoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]> {
    return this.changeAdmins(groupId, participants, false);
  }

  setSubject(groupId: string, subject: string): Promise<void> {
    return this.run(() => {
      const title = subject.trim();
      if (!title) throw new WakitError('VALIDATION_FAILED', 'A group needs a subject');
      const group = this.rules.infoEditor(groupId, 'set_subject');
      group.name = title;
      this.emitUpdate(group, { change: 'subject', subject: title });
    });
  }

  setDescription(groupId: string, description: string): Promise<void> {
    return this.run(() => {
      const group = this.rules.infoEditor(groupId, 'set_description');
      group.description = description;
      this.emitUpdate(group, { change: 'description', description });
    });
  }

  setSettings(groupId: string, settings: Partial<GroupSettings>): Promise<GroupSettings> {
    return this.run(() => {
      const group = this.rules.admin(groupId, 'set_settings');
      const changed: Partial<GroupSettings> = {};
      if (
        settings.messagesAdminsOnly !== undefined &&
        settings.messagesAdminsOnly !== group.adminsOnly
      ) {
        group.adminsOnly = settings.messagesAdminsOnly;
        changed.messagesAdminsOnly = group.adminsOnly;
      }
      if (
        settings.infoAdminsOnly !== undefined &&
        settings.infoAdminsOnly !== group.infoAdminsOnly
      ) {
        group.infoAdminsOnly = settings.infoAdminsOnly;
        changed.infoAdminsOnly = group.infoAdminsOnly;
      }
      if (Object.keys(changed).length > 0)
        this.emitUpdate(group, { change: 'settings', settings: changed });
      return settingsOf(group);
    });
  }

  getInviteCode(groupId: string): Promise<string> {
    return this.run(() => {
      const group = this.rules.admin(groupId, 'get_invite_code');
      group.inviteCode ??= makeInviteCode(this.host.random);
      return group.inviteCode;
    });
  }

  revokeInvite(groupId: string): Promise<string> {
    return this.run(() => {
      const group = this.rules.admin(groupId, 'revoke_invite');
      group.inviteCode = makeInviteCode(this.host.random);
      return group.inviteCode;
    });
  }

  joinByInvite(code: string): Promise<string> {
    return this.run(() => {
      const group = this.host.groupByInvite(code);
      if (!group) {
        throw new WakitError('GROUP_INVITE_INVALID', 'No group has this invite code (revoked?)', {
          details: { code },
        });
      }
      if (group.members.has(this.me.id)) return group.id;
      if (group.members.size >= SIM_GROUP_SIZE_LIMIT) {
        throw new WakitError('PERMISSION_DENIED', `group ${group.id} is full`, {
          details: { groupId: group.id, action: 'join_by_invite', reason: 'group_full' },
        });
      }
      group.addMember(this.me.id);
      group.invited.delete(this.me.id);
      announce(this.host, group.members, {
        event: 'group.join',
        data: {
          groupId: group.id,
          participants: [this.me.id],
          how: 'invite_link',
          timestamp: now(),
        },
      });
      return group.id;
    });
  }

  isAdmin(groupId: string, memberId: string): Promise<boolean> {
    return this.run(() => {
      const group = this.host.findGroup(groupId);
      if (!group) throw new WakitError('CHAT_NOT_FOUND', `group ${groupId} does not exist`);
      const member = this.host.person(memberId);
      return member !== undefined && group.admins.has(member.id);
    });
  }

  leave(groupId: string): Promise<void> {
    return this.run(() => {
      const group = this.rules.member(groupId, 'leave_group');
      announce(this.host, group.members, {
        event: 'group.leave',
        data: {
          groupId: group.id,
          participants: [this.me.id],
          how: 'left',
          by: this.me.id,
          timestamp: now(),
        },
      });
      group.removeMember(this.me.id);
      // WhatsApp makes someone admin when the last admin leaves.
      const [heir] = group.members;
      if (group.admins.size === 0 && heir !== undefined) {
        group.setAdmin(heir, true);
        announce(this.host, group.members, {
          event: 'group.update',
          data: { groupId: group.id, change: 'promote', participants: [heir], timestamp: now() },
        });
      }
    });
  }

  // ── rules ──────────────────────────────────────────────────────────────────────────────────

  /** Runs an operation: thrown errors become rejections. */
  private run<T>(operation: () => T): Promise<T> {
    try {
      return Promise.resolve(operation());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The member id (`@c.us`) of a person id, when that person is in `group`. */
  private memberIdOf(group: SimGroupImpl, id: string): string | undefined {
    const account = this.host.person(id);
    return account && group.members.has(account.id) ? account.id : undefined;
  }

  private idOf(id: string): string {
    return this.host.person(id)?.id ?? id;
  }

  private addOne(group: SimGroupImpl, id: string): ParticipantResult {
    const account = this.host.person(id);
    if (!account) return refused(id, 'not_registered', 'not on WhatsApp');
    if (group.members.has(account.id)) return refused(id, 'already_member', 'already a member');
    if (group.members.size >= SIM_GROUP_SIZE_LIMIT)
      return refused(id, 'group_full', 'the group is full');
    const mayAdd =
      account.groupAdd === 'everyone' ||
      (account.groupAdd === 'contacts' && account.contacts.has(this.me.number));
    if (!mayAdd) {
      group.invited.add(account.id);
      return {
        id,
        outcome: 'invited',
        message: 'their privacy settings allow invitations only: an invitation was sent',
      };
    }
    group.addMember(account.id);
    return { id, outcome: 'added' };
  }

  private changeAdmins(
    groupId: string,
    participants: string[],
    promote: boolean,
  ): Promise<ParticipantResult[]> {
    return this.run(() => {
      const group = this.rules.admin(
        groupId,
        promote ? 'promote_participants' : 'demote_participants',
      );
      const changed: string[] = [];
      const results = participants.map((p): ParticipantResult => {
        const id = personId(p);
        const member = this.memberIdOf(group, id);
        if (!member) return refused(id, 'not_member', 'not a member of the group');
        if (promote && group.admins.has(member))
          return refused(id, 'already_admin', 'already an admin');
        if (!promote && member === group.owner)
          return refused(id, 'is_owner', 'the group creator cannot be demoted');
        if (!promote && !group.admins.has(member)) return refused(id, 'not_admin', 'not an admin');
        group.setAdmin(member, promote);
        changed.push(member);
        return { id, outcome: promote ? 'promoted' : 'demoted' };
      });
      if (changed.length > 0) {
        this.emitUpdate(group, { change: promote ? 'promote' : 'demote', participants: changed });
      }
      return results;
    });
  }

  private emitJoin(group: SimGroupImpl, participants: string[], by: string): void {
    announce(this.host, group.members, {
      event: 'group.join',
      data: { groupId: group.id, participants, how: 'added', by, timestamp: now() },
    });
  }

  private emitUpdate(group: SimGroupImpl, change: GroupChange): void {
    const data: GroupUpdateEvent = {
      ...change,
      groupId: group.id,
      by: this.me.id,
      timestamp: now(),
    };
    announce(this.host, group.members, { event: 'group.update', data });
  }
}

function settingsOf(group: SimGroupImpl): GroupSettings {
  return { messagesAdminsOnly: group.adminsOnly, infoAdminsOnly: group.infoAdminsOnly };
}
