/**
 * Who may do what in a group of the virtual network, as one account: a group that does not exist
 * is CHAT_NOT_FOUND; an operation of a non-member, or of a non-admin where admins are needed, is
 * PERMISSION_DENIED with details naming what is missing.
 */
import { WakitError } from '../../errors/index.js';
import type { GroupPermissionDetails } from '../ports/groups.js';
import type { SimAccount } from './account.js';
import type { SimGroupImpl } from './group.js';
import { groupId as toGroupId } from './group.js';

/** What the group model needs of the network. */
export interface GroupHost {
  readonly random: () => number;
  findGroup(id: string): SimGroupImpl | undefined;
  /** Registers a new group (made by `createGroup`). */
  addGroup(group: SimGroupImpl): void;
  groupByInvite(code: string): SimGroupImpl | undefined;
  /** The account behind a `@c.us` / `@lid` id (registered numbers only). */
  person(id: string): SimAccount | undefined;
  /** A new group's SimGroupImpl (members become network accounts). */
  newGroup(id: string, subject: string): SimGroupImpl;
}

/** The checks of group operations made as the account `me`. */
export class GroupRules {
  constructor(
    private readonly host: GroupHost,
    private readonly me: SimAccount,
  ) {}

  group(groupId: string): SimGroupImpl {
    const id = toGroupId(groupId);
    const group = this.host.findGroup(id);
    if (!group)
      throw new WakitError('CHAT_NOT_FOUND', `group ${id} does not exist`, {
        details: { chatId: id },
      });
    return group;
  }

  denied(group: SimGroupImpl, details: Omit<GroupPermissionDetails, 'groupId'>): WakitError {
    const what =
      details.missing === 'membership'
        ? `${this.me.id} is not a member of ${group.id}`
        : `only admins of ${group.id} may do this (${details.action})`;
    return new WakitError('PERMISSION_DENIED', what, {
      details: { groupId: group.id, ...details },
    });
  }

  member(groupId: string, action: string): SimGroupImpl {
    const group = this.group(groupId);
    if (!group.members.has(this.me.id)) throw this.denied(group, { action, missing: 'membership' });
    return group;
  }

  admin(groupId: string, action: string): SimGroupImpl {
    const group = this.member(groupId, action);
    if (!group.admins.has(this.me.id)) throw this.denied(group, { action, missing: 'admin' });
    return group;
  }

  /** Subject and description: members, or only admins when `infoAdminsOnly`. */
  infoEditor(groupId: string, action: string): SimGroupImpl {
    const group = this.member(groupId, action);
    if (group.infoAdminsOnly && !group.admins.has(this.me.id)) {
      throw this.denied(group, { action, missing: 'admin', setting: 'infoAdminsOnly' });
    }
    return group;
  }
}
