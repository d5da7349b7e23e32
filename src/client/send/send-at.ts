import { WakitError } from '../../errors/index.js';

/** A send's `sendAt`: epoch milliseconds, a `Date`, or an RFC 3339 date-time string. */
export type SendAt = number | Date | string;

export interface ScheduleLimits {
  /** How far ahead a `sendAt` may lie. */
  maxAheadMs: number;
  /** How far in the past a `sendAt` may lie and still be taken (as "now"). */
  pastToleranceMs: number;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The time a send is scheduled for (ms since epoch), or undefined when it goes now: a `sendAt` at
 * or before `now` (within `pastToleranceMs`) is an ordinary send. INVALID_SEND_AT when it is no
 * time, further back than the tolerance, or further ahead than `maxAheadMs`.
 */
export function scheduleTime(
  sendAt: SendAt | undefined,
  now: number,
  limits: ScheduleLimits,
): number | undefined {
  if (sendAt === undefined) return undefined;
  const at = timeOf(sendAt);
  const refuse = (reason: string, message: string, limitMs?: number): never => {
    throw new WakitError('INVALID_SEND_AT', message, {
      issues: [{ path: 'sendAt', message }],
      details: {
        reason,
        sendAt: typeof sendAt === 'string' ? sendAt : String(at),
        now: new Date(now).toISOString(),
        ...(limitMs !== undefined ? { limitMs } : {}),
      },
    });
  };
  if (at === undefined) {
    return refuse(
      'invalid',
      'sendAt must be epoch milliseconds, a Date or an RFC 3339 date-time such as 2026-01-31T12:00:00Z',
    );
  }
  if (at < now - limits.pastToleranceMs) {
    return refuse(
      'past',
      `sendAt lies in the past (more than ${limits.pastToleranceMs} ms)`,
      limits.pastToleranceMs,
    );
  }
  if (at > now + limits.maxAheadMs) {
    return refuse(
      'too_far',
      `sendAt lies too far ahead (more than ${limits.maxAheadMs} ms)`,
      limits.maxAheadMs,
    );
  }
  return at <= now ? undefined : at;
}

function timeOf(sendAt: SendAt): number | undefined {
  let at: number;
  if (typeof sendAt === 'number') at = sendAt;
  else if (sendAt instanceof Date) at = sendAt.getTime();
  else if (typeof sendAt === 'string' && RFC3339.test(sendAt)) at = Date.parse(sendAt);
  else return undefined;
  return Number.isSafeInteger(at) && at > 0 ? at : undefined;
}
