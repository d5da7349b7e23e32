/**
 * The AccountStore port: what the governor keeps per account (a client's WhatsApp number) to know
 * its budgets: the messages it sent in the last 24 hours (and which went to new contacts), the
 * contacts it knows (wrote to it, co-members of its groups, sent to before), when it was first
 * linked, and an active restriction (the sends it defers keep their due times in the outbox). Adapters: memory
 * (tests, `queue.persistence: memory`), SQLite beside the outbox (the default), Redis in a fleet
 * (so every node spends one budget per account).
 */

/** The budgets that apply at one time (messages per rolling hour and day, new contacts per day). */
export interface Limits {
  perHour: number;
  perDay: number;
  newContactsPerDay: number;
}

/** One message the account sent. */
export interface SentRecord {
  at: number;
  newContact: boolean;
}

/** What the account knows of a chat. */
export interface ContactFacts {
  /** When the contact last wrote to this account (ms), if ever. */
  lastInboundAt?: number;
  /** This account sent to it before. */
  sentBefore: boolean;
  /** Seen as a co-member of one of this account's groups. */
  coMember: boolean;
}

export interface Restriction {
  /** What WhatsApp signalled (`timelock`, `send-refused`, `undelivered-run`, ...). */
  reason: string;
  since: number;
  until: number;
}

export interface AccountStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** Messages sent at or after `since`, oldest first. */
  history(account: string, since: number): Promise<SentRecord[]>;
  /**
   * Spends one message of the account's budgets: records a message sent to `chatId` (it is no
   * longer new) unless one more would exceed `limits` at `record.at` (none: always recorded),
   * checked and recorded in one atomic step, so two nodes of a fleet never both spend the last
   * unit. Forgets history before `forgetBefore`. Resolves to whether it was recorded.
   */
  spend(
    account: string,
    chatId: string,
    record: SentRecord,
    forgetBefore: number,
    limits?: Limits,
  ): Promise<boolean>;
  contact(account: string, chatId: string): Promise<ContactFacts>;
  /** `chatId` wrote to this account at `at`. */
  noteInbound(account: string, chatId: string, at: number): Promise<void>;
  /** `chatId` is a co-member of one of this account's groups. */
  noteCoMember(account: string, chatId: string): Promise<void>;
  linkedAt(account: string): Promise<number | undefined>;
  /** Records the first link; a later call does not move it. */
  noteLinked(account: string, at: number): Promise<void>;
  restriction(account: string): Promise<Restriction | undefined>;
  setRestriction(account: string, restriction: Restriction | undefined): Promise<void>;
  close(): Promise<void>;
}
