/** What `client.info().governor` says of an account's budgets (docs/safety.md). */
export interface GovernorInfo {
  preset: 'conservative' | 'standard' | 'off';
  mode: 'enforce' | 'dry-run';
  /** Age of the number in days while it warms up (1 = the day of its first link); null after. */
  warmupDay: number | null;
  /** The limits that apply now (the warm-up's, lower, while it lasts); null when `off`. */
  limits: { perHour: number; perDay: number; newContactsPerDay: number } | null;
  /** Messages counted in each rolling window now. */
  used: { perHour: number; perDay: number; newContactsPerDay: number };
  /** When the oldest message counted in each window leaves it (ISO); null when none is counted. */
  resetsAt: { perHour: string | null; perDay: string | null; newContactsPerDay: string | null };
  /** Sends this process keeps deferred now. */
  deferred: number;
  /** Dry run: sends that would have been deferred (they went). */
  wouldDefer: number;
  /** Sends that went with `bypassBudget`. */
  bypassed: number;
  /** WhatsApp signalled a restriction: bulk sends pause until `until`. */
  restricted: { reason: string; since: string; until: string } | null;
}
