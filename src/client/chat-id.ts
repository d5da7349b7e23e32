import { WakitError } from '../errors/index.js';

const USER_ID = /^\d{5,20}@c\.us$/;
const GROUP_ID = /^(\d{5,25}|\d{5,20}-\d{5,15})@g\.us$/;
const PHONE = /^\+?[\d\s-]{5,30}$/;

export function isGroupId(chatId: string): boolean {
  return chatId.endsWith('@g.us');
}

/** True for `<digits>@c.us` and `<id>@g.us` (legacy `<digits>-<digits>@g.us` too). */
export function isChatId(value: string): boolean {
  return USER_ID.test(value) || GROUP_ID.test(value);
}

/**
 * Normalises a chat id: a bare phone number (digits, optional leading `+`, spaces or dashes) becomes
 * `<digits>@c.us`; chat ids pass through. Anything else is INVALID_CHAT_ID, before any network work.
 */
export function normalizeChatId(value: unknown, field = 'to'): string {
  if (typeof value !== 'string') {
    throw new WakitError('INVALID_CHAT_ID', `${field} must be a chat id string`, {
      details: { field },
    });
  }
  const trimmed = value.trim();
  if (isChatId(trimmed)) return trimmed;
  if (PHONE.test(trimmed) && !trimmed.slice(1).includes('+')) {
    const digits = trimmed.replace(/\D/g, '');
    if (digits.length >= 5 && digits.length <= 20) return `${digits}@c.us`;
  }
  throw new WakitError(
    'INVALID_CHAT_ID',
    `${field} "${trimmed.slice(0, 80)}" is not a chat id: use <phone digits>@c.us, <group id>@g.us or a phone number`,
    { details: { field } },
  );
}
