import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type {
  AccountStore,
  ContactFacts,
  Limits,
  Restriction,
  SentRecord,
} from './account-store.js';
import { exceeded } from './budget-check.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sent (account TEXT NOT NULL, at INTEGER NOT NULL, new_contact INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sent_by_account ON sent (account, at);
CREATE TABLE IF NOT EXISTS contacts (
  account TEXT NOT NULL, chat_id TEXT NOT NULL, last_inbound_at INTEGER,
  sent_before INTEGER NOT NULL DEFAULT 0, co_member INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account, chat_id)
);
CREATE TABLE IF NOT EXISTS accounts (
  account TEXT PRIMARY KEY, linked_at INTEGER, restriction TEXT
);
`;

interface ContactRow {
  last_inbound_at: number | null;
  sent_before: number;
  co_member: number;
}

/**
 * The AccountStore in a SQLite file beside the outbox (`governor.db`, 0600 in the 0700 data
 * directory): budgets and known contacts survive a crash (an older file's `deferred` table is no longer read: due times are in the outbox). Writes are synchronous (one
 * small statement each, WAL).
 */
export class SqliteAccountStore implements AccountStore {
  readonly kind = 'sqlite';
  readonly #db: Database.Database;
  readonly #spend: Database.Transaction<
    (
      account: string,
      chatId: string,
      record: SentRecord,
      before: number,
      limits: Limits | undefined,
    ) => boolean
  >;

  constructor(file: string) {
    const dir = path.dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    this.#db = new Database(file, { fileMustExist: true });
    chmodSync(file, 0o600);
    this.#db.pragma('journal_mode = WAL');
    this.#db.exec(SCHEMA);
    const forget = this.#db.prepare('DELETE FROM sent WHERE account = ? AND at < ?');
    const insert = this.#db.prepare('INSERT INTO sent (account, at, new_contact) VALUES (?, ?, ?)');
    const known = this.#db.prepare(
      `INSERT INTO contacts (account, chat_id, sent_before) VALUES (?, ?, 1)
       ON CONFLICT (account, chat_id) DO UPDATE SET sent_before = 1`,
    );
    // one transaction: a check and its record are one step (BEGIN IMMEDIATE for another process)
    this.#spend = this.#db.transaction(
      (account: string, chatId: string, record: SentRecord, before: number, limits?: Limits) => {
        forget.run(account, before);
        if (limits && exceeded(this.#history(account, before), limits, record.at, record)) {
          return false;
        }
        insert.run(account, record.at, record.newContact ? 1 : 0);
        known.run(account, chatId);
        return true;
      },
    );
  }

  history(account: string, since: number): Promise<SentRecord[]> {
    return Promise.resolve(this.#history(account, since));
  }

  #history(account: string, since: number): SentRecord[] {
    const rows = this.#db
      .prepare('SELECT at, new_contact FROM sent WHERE account = ? AND at >= ? ORDER BY at')
      .all(account, since) as { at: number; new_contact: number }[];
    return rows.map((r) => ({ at: r.at, newContact: r.new_contact === 1 }));
  }

  spend(
    account: string,
    chatId: string,
    record: SentRecord,
    forgetBefore: number,
    limits?: Limits,
  ): Promise<boolean> {
    return Promise.resolve(this.#spend.immediate(account, chatId, record, forgetBefore, limits));
  }

  contact(account: string, chatId: string): Promise<ContactFacts> {
    const row = this.#db
      .prepare('SELECT * FROM contacts WHERE account = ? AND chat_id = ?')
      .get(account, chatId) as ContactRow | undefined;
    const facts: ContactFacts = {
      sentBefore: row?.sent_before === 1,
      coMember: row?.co_member === 1,
    };
    if (row?.last_inbound_at != null) facts.lastInboundAt = row.last_inbound_at;
    return Promise.resolve(facts);
  }

  noteInbound(account: string, chatId: string, at: number): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO contacts (account, chat_id, last_inbound_at) VALUES (?, ?, ?)
         ON CONFLICT (account, chat_id) DO UPDATE SET last_inbound_at = excluded.last_inbound_at`,
      )
      .run(account, chatId, at);
    return Promise.resolve();
  }

  noteCoMember(account: string, chatId: string): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO contacts (account, chat_id, co_member) VALUES (?, ?, 1)
         ON CONFLICT (account, chat_id) DO UPDATE SET co_member = 1`,
      )
      .run(account, chatId);
    return Promise.resolve();
  }

  linkedAt(account: string): Promise<number | undefined> {
    const row = this.#db
      .prepare('SELECT linked_at FROM accounts WHERE account = ?')
      .get(account) as { linked_at: number | null } | undefined;
    return Promise.resolve(row?.linked_at ?? undefined);
  }

  noteLinked(account: string, at: number): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO accounts (account, linked_at) VALUES (?, ?)
         ON CONFLICT (account) DO UPDATE SET linked_at = COALESCE(linked_at, excluded.linked_at)`,
      )
      .run(account, at);
    return Promise.resolve();
  }

  restriction(account: string): Promise<Restriction | undefined> {
    const row = this.#db
      .prepare('SELECT restriction FROM accounts WHERE account = ?')
      .get(account) as { restriction: string | null } | undefined;
    return Promise.resolve(
      row?.restriction ? (JSON.parse(row.restriction) as Restriction) : undefined,
    );
  }

  setRestriction(account: string, restriction: Restriction | undefined): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO accounts (account, restriction) VALUES (?, ?)
         ON CONFLICT (account) DO UPDATE SET restriction = excluded.restriction`,
      )
      .run(account, restriction ? JSON.stringify(restriction) : null);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }
}
