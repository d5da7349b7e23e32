import { z } from 'zod';
import { WakitError, issueError, zodIssues } from '../errors/index.js';
import type { Engine } from '../engines/engine.js';
import type {
  CreatedGroup,
  GroupInfo,
  GroupSettings,
  ParticipantResult,
} from '../engines/ports/groups.js';
import { GROUP_KINDS, PERSON_KINDS, normalizeChatId } from './chat-id.js';
import type { ClientCore } from './client-core.js';
import type { ClientEvents } from './client-events.js';
import type { SafeEmitter } from './safe-emitter.js';

export type {
  CreatedGroup,
  GroupChange,
  GroupInfo,
  GroupJoinEvent,
  GroupJoinHow,
  GroupLeaveEvent,
  GroupParticipant,
  GroupPermissionDetails,
  GroupRole,
  GroupSettings,
  GroupUpdateEvent,
  ParticipantOutcome,
  ParticipantResult,
  RefusalReason,
} from '../engines/ports/groups.js';
export { REFUSAL_REASONS } from '../engines/ports/groups.js';

/** WhatsApp's limits: subject 100 characters, description 2048, 1024 members. */
export const GROUP_LIMITS = { subject: 100, description: 2048, participants: 1023 } as const;

/**
 * Groups: the part of the SDK client that reads and manages groups. Management goes to WhatsApp
 * directly (not through the outbound queue) and needs the client READY (`CLIENT_NOT_READY`).
 * Group ids are `<id>@g.us`; people are phone numbers, `@c.us` or `@lid` ids (`INVALID_CHAT_ID`
 * otherwise). Missing rights are `PERMISSION_DENIED` with `details { groupId, action, missing:
 * 'membership' | 'admin', setting? }`. People-changing operations answer one result per person.
 */
export interface GroupsApi {
  /** True when `memberId` is an admin of the group `groupId`. */
  isGroupAdmin(groupId: string, memberId: string): Promise<boolean>;
  /** Creates a group with this account as its creator (`superadmin`); `participants` may be empty. */
  createGroup(subject: string, participants: string[]): Promise<CreatedGroup>;
  /** Subject, description, owner, creation time, participants with roles, settings (members only). */
  getGroup(groupId: string): Promise<GroupInfo>;
  /** Adds people (admins only): `added`, `invited` (their privacy allows invitations only), or `refused` with a reason. */
  addParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  /** Removes people (admins only): `removed` or `refused` (`not_member`, `is_owner`, `is_self`). */
  removeParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  /** Makes members admins (admins only): `promoted` or `refused` (`not_member`, `already_admin`). */
  promoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  /** Makes admins plain members (admins only): `demoted` or `refused` (`not_admin`, `is_owner`, ...). */
  demoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  /** Members may, unless `infoAdminsOnly` (then admins only). 1–100 characters. */
  setGroupSubject(groupId: string, subject: string): Promise<void>;
  /** Members may, unless `infoAdminsOnly`. Up to 2048 characters; '' clears it. */
  setGroupDescription(groupId: string, description: string): Promise<void>;
  /** Admins only; changes the settings given and resolves to all of them. */
  setGroupSettings(groupId: string, settings: Partial<GroupSettings>): Promise<GroupSettings>;
  /** The invite link code (admins only): people join with `https://chat.whatsapp.com/<code>`. */
  getInviteCode(groupId: string): Promise<string>;
  /** Invalidates the invite code (admins only); resolves to the new one. */
  revokeInvite(groupId: string): Promise<string>;
  /** Joins by invite code (or full `chat.whatsapp.com` link); resolves to the group id. */
  joinByInvite(code: string): Promise<string>;
  leaveGroup(groupId: string): Promise<void>;
}

const subjectSchema = z.string().trim().min(1, 'must not be empty').max(GROUP_LIMITS.subject);
const descriptionSchema = z.string().max(GROUP_LIMITS.description);
const settingsSchema = z
  .object({ messagesAdminsOnly: z.boolean().optional(), infoAdminsOnly: z.boolean().optional() })
  .strict()
  .refine((s) => s.messagesAdminsOnly !== undefined || s.infoAdminsOnly !== undefined, {
    message: 'give messagesAdminsOnly and/or infoAdminsOnly',
  });
const INVITE = /^(?:https?:\/\/chat\.whatsapp\.com\/(?:invite\/)?)?([A-Za-z0-9_-]{6,64})\/?$/;

function valid<T extends z.ZodType>(schema: T, value: unknown, field: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw issueError('VALIDATION_FAILED', `Invalid ${field}`, zodIssues(result.error, [field]));
}

const groupIdOf = (value: unknown): string =>
  normalizeChatId(valid(z.string(), value, 'groupId'), 'groupId', { allow: GROUP_KINDS });

function peopleOf(value: unknown, min: number): string[] {
  const list = valid(
    z.array(z.string()).min(min).max(GROUP_LIMITS.participants),
    value,
    'participants',
  );
  const ids = list.map((id, i) =>
    normalizeChatId(id, `participants.${i}`, { allow: PERSON_KINDS }),
  );
  return [...new Set(ids)];
}

/** The invite code of a code or a `https://chat.whatsapp.com/<code>` link. */
export function inviteCodeOf(value: unknown): string {
  const match = INVITE.exec(valid(z.string().trim(), value, 'code').trim());
  if (!match?.[1]) {
    throw new WakitError('VALIDATION_FAILED', 'Not an invite code or chat.whatsapp.com link', {
      issues: [
        { path: 'code', message: 'must be an invite code or https://chat.whatsapp.com/<code>' },
      ],
    });
  }
  return match[1];
}

export function groupsApi(core: ClientCore): GroupsApi {
  /** The engine, when the client is READY. */
  const ready = (): Engine => {
    const state = core.state();
    if (state !== 'READY') {
      throw new WakitError('CLIENT_NOT_READY', `Client ${core.name} is ${state}, not READY`, {
        details: { client: core.name, state },
      });
    }
    return core.requireEngine();
  };
  /** Validates synchronously-thrown input errors into rejections, like the engine's own. */
  const act = async <T>(run: () => Promise<T>): Promise<T> => run();
  return {
    isGroupAdmin: (groupId, memberId) => core.requireEngine().ops.groups.isAdmin(groupId, memberId),
    createGroup: (subject, participants) =>
      act(() => {
        const title = valid(subjectSchema, subject, 'subject');
        const people = peopleOf(participants, 0);
        return ready().ops.groups.create(title, people);
      }),
    getGroup: (groupId) => act(() => ready().ops.groups.get(groupIdOf(groupId))),
    addParticipants: (groupId, participants) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.addParticipants(id, peopleOf(participants, 1));
      }),
    removeParticipants: (groupId, participants) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.removeParticipants(id, peopleOf(participants, 1));
      }),
    promoteParticipants: (groupId, participants) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.promoteParticipants(id, peopleOf(participants, 1));
      }),
    demoteParticipants: (groupId, participants) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.demoteParticipants(id, peopleOf(participants, 1));
      }),
    setGroupSubject: (groupId, subject) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.setSubject(id, valid(subjectSchema, subject, 'subject'));
      }),
    setGroupDescription: (groupId, description) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.setDescription(
          id,
          valid(descriptionSchema, description, 'description'),
        );
      }),
    setGroupSettings: (groupId, settings) =>
      act(() => {
        const id = groupIdOf(groupId);
        return ready().ops.groups.setSettings(id, valid(settingsSchema, settings, 'settings'));
      }),
    getInviteCode: (groupId) => act(() => ready().ops.groups.getInviteCode(groupIdOf(groupId))),
    revokeInvite: (groupId) => act(() => ready().ops.groups.revokeInvite(groupIdOf(groupId))),
    joinByInvite: (code) => act(() => ready().ops.groups.joinByInvite(inviteCodeOf(code))),
    leaveGroup: (groupId) => act(() => ready().ops.groups.leave(groupIdOf(groupId))),
  };
}

/** Forwards an engine's group events to the client's events (wired on every (re)start). */
export function wireGroupEvents(engine: Engine, events: SafeEmitter<ClientEvents>): void {
  engine.on('group.join', (event) => events.emit('group.join', event));
  engine.on('group.leave', (event) => events.emit('group.leave', event));
  engine.on('group.update', (event) => events.emit('group.update', event));
}
