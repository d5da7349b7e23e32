/**
 * How whatsapp-web.js's group answers become ours: participant codes to results, rights and
 * membership to PERMISSION_DENIED with details, anything else to ENGINE_ERROR.
 */
import { WakitError, isWakitError } from '../../errors/index.js';
import type { GroupPermissionDetails, ParticipantResult, RefusalReason } from '../ports/groups.js';
import type { GroupParticipantLike, SerializedId } from './types.js';

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

export const NOT_ADMIN = /no admin rights|not.?authori[sz]ed|forbidden|not an admin|403/i;
export const BAD_INVITE =
  /ServerStatusCodeError|not.?authori[sz]ed|item.?not.?found|gone|bad.?request|invalid|\b(400|404|406|410)\b/i;

export const idOf = (value: SerializedId | string | undefined): string | undefined =>
  typeof value === 'string' ? value : value?._serialized;

export const isAdmin = (p: GroupParticipantLike | undefined): boolean =>
  Boolean(p && (p.isAdmin || p.isSuperAdmin));

export const DONE = {
  remove_participants: 'removed',
  promote_participants: 'promoted',
  demote_participants: 'demoted',
} as const;

export function refusal(
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

export function denied(
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

export function engineError(error: unknown, operation: string): WakitError {
  if (isWakitError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WakitError('ENGINE_ERROR', `whatsapp-web.js ${operation} failed: ${message}`, {
    cause: error,
  });
}
