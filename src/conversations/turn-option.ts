/**
 * The `turns` option of a plugin or a conversation, and the settings of a turn window
 * (docs/turns.md). The window itself is turn-window.ts.
 */

/** A turn window: closes `quietMs` after the last message, at the latest `maxMs` after the first. */
export interface TurnSettings {
  quietMs: number;
  maxMs: number;
}

/**
 * Gather the messages one chat member sends within `quietMs` of each other (at most `maxMs` from
 * the first; default 15 s) into one turn; `false` (or `quietMs: 0`) turns them off where it applies.
 */
export type TurnOption = { quietMs: number; maxMs?: number } | false;

export const DEFAULT_TURN_MAX_MS = 15_000;

/** The settings a turn option gives, undefined when it turns them off. */
export function turnSettings(option: TurnOption | undefined): TurnSettings | undefined {
  if (!option || option.quietMs <= 0) return undefined;
  return {
    quietMs: option.quietMs,
    maxMs: Math.max(option.maxMs ?? DEFAULT_TURN_MAX_MS, option.quietMs),
  };
}

/** What is wrong with a `turns` option (as `definePlugin` and `defineConversation` check it). */
export function turnOptionProblem(option: unknown): string | undefined {
  if (option === undefined || option === false) return undefined;
  const { quietMs, maxMs } = (option ?? {}) as { quietMs?: unknown; maxMs?: unknown };
  const whole = (n: unknown, min: number, max: number): boolean =>
    typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
  if (typeof option !== 'object' || !whole(quietMs, 0, 600_000)) {
    return 'turns must be false or { quietMs (0-600000), maxMs? }';
  }
  if (maxMs !== undefined && !whole(maxMs, 1, 3_600_000)) {
    return 'turns.maxMs must be a whole number of ms from 1 to 3600000';
  }
  return undefined;
}
