/**
 * A group of the virtual network: its state (members, admins, owner, settings, invite code). What
 * people may do with it, and the events that follow, is `groups.ts`.
 */
import { WakitError } from '../../errors/index.js';
import type { SimGroup } from './types.js';
import { GROUP_SUFFIX, toNumber, userId } from './ids.js';

/** `<digits>` / `<digits>@c.us` → `<digits>@c.us`; anything else is VALIDATION_FAILED. */
export function memberId(value: string): string {
  const number = toNumber(value);
  if (!number) {
    throw new WakitError('VALIDATION_FAILED', `"${value}" is not a phone number or @c.us id`);
  }
  return userId(number);
}

export function groupId(value: string): string {
  const id = value.endsWith(GROUP_SUFFIX) ? value : `${value}${GROUP_SUFFIX}`;
  if (!/^(\d{5,25}|\d{5,20}-\d{5,15})@g\.us$/.test(id)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `"${value}" is not a group id (<digits>[-<digits>]@g.us)`,
    );
  }
  return id;
}

export class SimGroupImpl implements SimGroup {
  readonly members = new Set<string>();
  readonly admins = new Set<string>();
  /** People sent an invitation instead of being added (their privacy settings). */
  readonly invited = new Set<string>();
  addressing: 'pn' | 'lid' = 'pn';
  description = '';
  /** Only admins may change the subject and description. */
  infoAdminsOnly = false;
  /** The creator (a `superadmin` while a member). */
  owner: string | undefined;
  /** Unix seconds. */
  createdAt = Math.floor(Date.now() / 1000);
  /** The current invite link code (made on first request). */
  inviteCode: string | undefined;

  constructor(
    readonly id: string,
    public name: string,
    public adminsOnly: boolean,
    /** Called with each member id added, so the network knows the account. */
    private readonly onMember: (id: string) => void,
  ) {}

  addMember(member: string, opts: { admin?: boolean } = {}): void {
    const id = memberId(member);
    this.members.add(id);
    this.onMember(id);
    if (opts.admin) this.admins.add(id);
  }

  removeMember(member: string): void {
    const id = memberId(member);
    this.members.delete(id);
    this.admins.delete(id);
  }

  setAdmin(member: string, admin: boolean): void {
    const id = memberId(member);
    if (admin) this.addMember(id, { admin: true });
    else this.admins.delete(id);
  }

  /** Sender may post here: a member, and an admin when only admins can send. */
  canSend(sender: string): boolean {
    return this.members.has(sender) && (!this.adminsOnly || this.admins.has(sender));
  }
}
