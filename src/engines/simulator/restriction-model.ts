import { WakitError } from '../../errors/index.js';

/**
 * Thresholds of the simulated WhatsApp's restriction of an account, modelled on what users report
 * (docs/safety.md): more than `newContactsPerDay` first messages to people who never wrote to the
 * account within 24 h (WAHA #1536, Baileys #2441: restricted after 30-40) or more than `perHour`
 * messages within an hour gets the account a "reachout timelock" (error 463, Baileys #2707) for
 * `lockMs`: its messages to new contacts are refused; replies to people who wrote still go.
 */
export interface RestrictionThresholds {
  newContactsPerDay: number;
  perHour: number;
  lockMs: number;
  /**
   * The lock is silent: messages to new contacts are taken (one tick) but never delivered, as users
   * of a restricted number report (messages stuck at one grey tick), instead of refused with 463.
   */
  silent?: boolean;
}

export const DEFAULT_RESTRICTION: RestrictionThresholds = {
  newContactsPerDay: 40,
  perHour: 200,
  lockMs: 24 * 3_600_000,
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Sender {
  sent: number[];
  newContacts: number[];
  /** Chats that wrote to this account or that it wrote to: no longer new. */
  known: Set<string>;
  lockedUntil: number;
}

/** The simulated network's restriction of accounts that send like spammers (off unless enabled). */
export class RestrictionModel {
  readonly #senders = new Map<string, Sender>();
  /** Restrictions imposed so far (each with its account and time). */
  readonly fired: { account: string; at: number; reason: string }[] = [];

  constructor(
    readonly thresholds: RestrictionThresholds = DEFAULT_RESTRICTION,
    private readonly now: () => number = Date.now,
  ) {}

  #sender(id: string): Sender {
    let found = this.#senders.get(id);
    if (!found)
      this.#senders.set(
        id,
        (found = { sent: [], newContacts: [], known: new Set(), lockedUntil: 0 }),
      );
    return found;
  }

  /** When `account` may reach new contacts again (0 when not locked). */
  lockedUntil(account: string): number {
    const until = this.#sender(account).lockedUntil;
    return until > this.now() ? until : 0;
  }

  /** `from` wrote to `to`: they are no longer new contacts of each other. */
  wrote(from: string, to: string): void {
    this.#sender(from).known.add(to);
    this.#sender(to).known.add(from);
  }

  /**
   * A private message from `from` to `to` is about to be posted: throws ACCOUNT_RESTRICTED (463)
   * when the account is locked and `to` is a new contact, or when this message crosses a threshold
   * (the message is refused and the lock begins). A silent lock does not throw: it answers
   * `undelivered` (the message gets one tick, never delivered); otherwise `delivered`.
   */
  admit(from: string, to: string): 'delivered' | 'undelivered' {
    const now = this.now();
    const sender = this.#sender(from);
    const isNew = !sender.known.has(to);
    if (isNew && sender.lockedUntil > now) {
      if (this.thresholds.silent) return 'undelivered';
      throw this.#refusal(from, sender.lockedUntil, false);
    }
    sender.sent = sender.sent.filter((at) => at > now - HOUR);
    sender.newContacts = sender.newContacts.filter((at) => at > now - DAY);
    const { newContactsPerDay, perHour, lockMs } = this.thresholds;
    const over =
      sender.sent.length >= perHour || (isNew && sender.newContacts.length >= newContactsPerDay);
    if (over) {
      // The lock is the penalty: once it ends the account starts counting afresh.
      sender.lockedUntil = now + lockMs;
      sender.sent = [];
      sender.newContacts = [];
      this.fired.push({ account: from, at: now, reason: 'reachout-timelock' });
      if (this.thresholds.silent && isNew) return 'undelivered';
      throw this.#refusal(from, sender.lockedUntil, true);
    }
    sender.sent.push(now);
    if (isNew) sender.newContacts.push(now);
    this.wrote(from, to);
    return 'delivered';
  }

  #refusal(account: string, until: number, fresh: boolean): WakitError {
    return new WakitError(
      'ACCOUNT_RESTRICTED',
      `WhatsApp refused the message: the account ${account} may not message new contacts until ${new Date(until).toISOString()} (error 463, reachout timelock)`,
      { details: { reason: 'reachout-timelock', status: 463, until, fresh } },
    );
  }
}
