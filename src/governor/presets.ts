/**
 * The governor's presets: how many messages one account may send per rolling hour and day, to how
 * many new contacts per day, and the lower limits of a young number's first days (warm-up).
 * Evidence behind the numbers: docs/safety.md.
 */

/** The limits of one warm-up stage: from `day` (1 = the day of the first link) on. */
export interface WarmupStage {
  day: number;
  perDay: number;
  newContactsPerDay: number;
}

export interface Budgets {
  /** Messages per rolling hour (every message counts, replies included). */
  perHour: number;
  /** Messages per rolling 24 hours. */
  perDay: number;
  /** First messages to new contacts per rolling 24 hours (docs/safety.md defines "new"). */
  newContactsPerDay: number;
  /** Lower limits for a young number, by age in days; the last stage applies until `warmupDays`. */
  warmup: WarmupStage[];
  /** Days the warm-up lasts (after it, only the limits above apply). */
  warmupDays: number;
  /** How long bulk sends pause after WhatsApp signalled a restriction (ms). */
  cooldownMs: number;
}

export type PresetName = 'conservative' | 'standard' | 'off';

const HOUR = 3_600_000;

export const PRESETS: Record<PresetName, Budgets | null> = {
  conservative: {
    perHour: 30,
    perDay: 200,
    newContactsPerDay: 15,
    warmup: [
      { day: 1, perDay: 20, newContactsPerDay: 5 },
      { day: 2, perDay: 40, newContactsPerDay: 8 },
      { day: 3, perDay: 60, newContactsPerDay: 10 },
      { day: 4, perDay: 100, newContactsPerDay: 12 },
    ],
    warmupDays: 14,
    cooldownMs: 24 * HOUR,
  },
  standard: {
    perHour: 60,
    perDay: 500,
    newContactsPerDay: 30,
    warmup: [
      { day: 1, perDay: 50, newContactsPerDay: 10 },
      { day: 2, perDay: 100, newContactsPerDay: 15 },
      { day: 3, perDay: 150, newContactsPerDay: 20 },
      { day: 4, perDay: 300, newContactsPerDay: 25 },
    ],
    warmupDays: 7,
    cooldownMs: 6 * HOUR,
  },
  /** No budgets: sends are only paced by the queue (`queue.minGapMs`, ...). */
  off: null,
};

/** The limits that apply on `day` (1-based age of the number; undefined when unknown). */
export function limitsOn(
  budgets: Budgets,
  day: number | undefined,
): { perHour: number; perDay: number; newContactsPerDay: number; warmupDay?: number } {
  const base = {
    perHour: budgets.perHour,
    perDay: budgets.perDay,
    newContactsPerDay: budgets.newContactsPerDay,
  };
  if (day === undefined || day > budgets.warmupDays) return base;
  const stage = budgets.warmup.filter((s) => s.day <= day).at(-1);
  if (!stage) return { ...base, warmupDay: day };
  return {
    perHour: base.perHour,
    perDay: Math.min(base.perDay, stage.perDay),
    newContactsPerDay: Math.min(base.newContactsPerDay, stage.newContactsPerDay),
    warmupDay: day,
  };
}
