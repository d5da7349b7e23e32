import type { Limits, SentRecord } from './account-store.js';

export type { Limits } from './account-store.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The names a deferral carries (`budget` of a deferred send). */
export type BudgetName = 'perHour' | 'perDay' | 'newContactsPerDay' | 'restriction';

export interface Usage {
  hour: number;
  day: number;
  newContacts: number;
  /** When the oldest message counted in each window leaves it (ms), or null when none is counted. */
  resetsAt: { hour: number | null; day: number | null; newContacts: number | null };
}

/** How much of each rolling window `history` (oldest first) uses at `now`. */
export function usageOf(history: readonly SentRecord[], now: number): Usage {
  const day = history.filter((r) => r.at > now - DAY_MS);
  const hour = day.filter((r) => r.at > now - HOUR_MS);
  const fresh = day.filter((r) => r.newContact);
  return {
    hour: hour.length,
    day: day.length,
    newContacts: fresh.length,
    resetsAt: {
      hour: hour[0] ? hour[0].at + HOUR_MS : null,
      day: day[0] ? day[0].at + DAY_MS : null,
      newContacts: fresh[0] ? fresh[0].at + DAY_MS : null,
    },
  };
}

/**
 * Whether one more message fits at `now`: undefined when it does, else the budget it exceeds and
 * when it fits again (the latest of the windows it exceeds: when enough of their oldest messages
 * left them). A reply inside an open conversation is never deferred by a budget (it spends them).
 */
export function exceeded(
  history: readonly SentRecord[],
  limits: Limits,
  now: number,
  send: { newContact: boolean },
): { budget: BudgetName; dueAt: number } | undefined {
  const day = history.filter((r) => r.at > now - DAY_MS);
  const hour = day.filter((r) => r.at > now - HOUR_MS);
  const fresh = day.filter((r) => r.newContact);
  let found: { budget: BudgetName; dueAt: number } | undefined;
  const check = (
    budget: BudgetName,
    window: readonly SentRecord[],
    limit: number,
    span: number,
  ) => {
    if (window.length < limit) return;
    // The message that must leave the window for one more to fit.
    const dueAt = limit === 0 ? now + span : window[window.length - limit].at + span;
    if (!found || dueAt > found.dueAt) found = { budget, dueAt };
  };
  check('perHour', hour, limits.perHour, HOUR_MS);
  check('perDay', day, limits.perDay, DAY_MS);
  if (send.newContact) check('newContactsPerDay', fresh, limits.newContactsPerDay, DAY_MS);
  return found;
}
