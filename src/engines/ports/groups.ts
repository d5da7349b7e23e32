/**
 * The groups area of the Engine port (`engine.ops.groups`): creating and managing groups, and the
 * group events. Plain
 * serialisable data only. Ids are `<digits>@c.us` / `<digits>@lid` for people and `…@g.us` for
 * groups, as WhatsApp gives them (the simulator always uses `@c.us`).
 */

/** A member's role: the creator (`superadmin`), an admin, or a plain member. */
export type GroupRole = 'superadmin' | 'admin' | 'member';

export interface GroupParticipant {
  id: string;
  role: GroupRole;
}

export interface GroupSettings {
  /** Only admins can send messages ("announcement" group). */
  messagesAdminsOnly: boolean;
  /** Only admins can edit the subject, description and picture. */
  infoAdminsOnly: boolean;
}

/** A group as `getGroup` reads it. */
export interface GroupInfo {
  id: string;
  subject: string;
  /** '' when none. */
  description: string;
  /** Who created it, when WhatsApp tells. */
  owner?: string;
  /** ISO 8601 time of creation, when WhatsApp tells. */
  createdAt?: string;
  participants: GroupParticipant[];
  settings: GroupSettings;
}

/** What happened to one participant of an add / remove / promote / demote (or createGroup). */
export type ParticipantOutcome =
  'added' | 'invited' | 'removed' | 'promoted' | 'demoted' | 'refused';

/**
 * Why a participant was refused:
 * - `not_registered`: the number is not on WhatsApp;
 * - `already_member` / `not_member`: adding a member, or removing / promoting a non-member;
 * - `already_admin` / `not_admin`: promoting an admin, demoting a plain member;
 * - `is_owner`: the creator cannot be removed or demoted;
 * - `is_self`: to remove yourself, leave the group;
 * - `privacy`: the person only lets contacts (or nobody) add them, and no invitation was sent;
 * - `recently_left`: they left the group recently (WhatsApp then only allows an invitation);
 * - `group_full`: the group has reached its size limit;
 * - `community`: they cannot be added to a community group (invite them by link);
 * - `unknown`: WhatsApp refused for another reason (see `message`).
 */
export const REFUSAL_REASONS = [
  'not_registered',
  'already_member',
  'not_member',
  'already_admin',
  'not_admin',
  'is_owner',
  'is_self',
  'privacy',
  'recently_left',
  'group_full',
  'community',
  'unknown',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface ParticipantResult {
  id: string;
  outcome: ParticipantOutcome;
  /** Set when `outcome` is `refused`. */
  reason?: RefusalReason;
  /** Human-readable detail (WhatsApp's own message where there is one). */
  message?: string;
}

export interface CreatedGroup {
  id: string;
  subject: string;
  /** One entry per participant asked for (the creator is not listed). */
  participants: ParticipantResult[];
}

/** How people joined: added by a member, through an invite link, or by a linked community. */
export type GroupJoinHow = 'added' | 'invite_link' | 'community';

/** `group.join`: people joined a group this account is in (the account itself included). */
export interface GroupJoinEvent {
  groupId: string;
  participants: string[];
  how: GroupJoinHow;
  /** Who added them (for `added`), when known. */
  by?: string;
  /** Unix time in seconds. */
  timestamp: number;
}

/** `group.leave`: people left or were removed (the account itself included). */
export interface GroupLeaveEvent {
  groupId: string;
  participants: string[];
  how: 'removed' | 'left';
  /** Who removed them (for `removed`), when known. */
  by?: string;
  timestamp: number;
}

/** `group.update`: what changed, with the new value. */
export type GroupChange =
  | { change: 'subject'; subject: string }
  | { change: 'description'; description: string }
  | { change: 'settings'; settings: Partial<GroupSettings> }
  | { change: 'promote' | 'demote'; participants: string[] }
  | { change: 'picture' };

export type GroupUpdateEvent = GroupChange & {
  groupId: string;
  /** Who made the change, when known (absent for WhatsApp's own, e.g. a promotion after the last admin left). */
  by?: string;
  timestamp: number;
};

/** The group events (part of `EngineEvents`). */
export interface GroupEvents {
  'group.join': [event: GroupJoinEvent];
  'group.leave': [event: GroupLeaveEvent];
  'group.update': [event: GroupUpdateEvent];
}

/**
 * Group management on the linked account. Arguments are normalised ids (`…@g.us`, `…@c.us` /
 * `…@lid`). Errors: `CHAT_NOT_FOUND` (no such group), `PERMISSION_DENIED` with
 * `details { groupId, action, missing: 'membership' | 'admin' }`, `GROUP_INVITE_INVALID`.
 */
export interface GroupOps {
  create(subject: string, participants: string[]): Promise<CreatedGroup>;
  get(groupId: string): Promise<GroupInfo>;
  addParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  removeParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  promoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  demoteParticipants(groupId: string, participants: string[]): Promise<ParticipantResult[]>;
  setSubject(groupId: string, subject: string): Promise<void>;
  setDescription(groupId: string, description: string): Promise<void>;
  /** Changes the settings given; resolves to all settings after the change. */
  setSettings(groupId: string, settings: Partial<GroupSettings>): Promise<GroupSettings>;
  getInviteCode(groupId: string): Promise<string>;
  /** Invalidates the current invite code; resolves to the new one. */
  revokeInvite(groupId: string): Promise<string>;
  /** Joins by invite code; resolves to the group id. */
  joinByInvite(code: string): Promise<string>;
  leave(groupId: string): Promise<void>;
  /**
   * True when `memberId` is an admin of the group (for `adminOnly` commands). CHAT_NOT_FOUND when
   * there is no such group; false (no throw) for a non-member.
   */
  isAdmin(groupId: string, memberId: string): Promise<boolean>;
}

/** `PERMISSION_DENIED` details of a group operation. */
export interface GroupPermissionDetails {
  groupId: string;
  action: string;
  missing: 'membership' | 'admin';
  /** The setting that made admin rights necessary, when one did. */
  setting?: keyof GroupSettings;
}
