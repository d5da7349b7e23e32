import type {
  AccountStore,
  ContactFacts,
  Limits,
  Restriction,
  SentRecord,
} from './account-store.js';
import { exceeded } from './budget-check.js';

interface Account {
  sent: SentRecord[];
  contacts: Map<string, ContactFacts>;
  linkedAt?: number;
  restriction?: Restriction;
}

/** The AccountStore in memory: lost with the process (tests, `queue.persistence: memory`). */
export class MemoryAccountStore implements AccountStore {
  readonly kind = 'memory';
  readonly #accounts = new Map<string, Account>();

  #account(account: string): Account {
    let found = this.#accounts.get(account);
    if (!found) this.#accounts.set(account, (found = { sent: [], contacts: new Map() }));
    return found;
  }

  #facts(account: string, chatId: string): ContactFacts {
    const contacts = this.#account(account).contacts;
    let facts = contacts.get(chatId);
    if (!facts) contacts.set(chatId, (facts = { sentBefore: false, coMember: false }));
    return facts;
  }

  history(account: string, since: number): Promise<SentRecord[]> {
    return Promise.resolve(this.#account(account).sent.filter((r) => r.at >= since));
  }

  spend(
    account: string,
    chatId: string,
    record: SentRecord,
    forgetBefore: number,
    limits?: Limits,
  ): Promise<boolean> {
    const found = this.#account(account);
    found.sent = found.sent.filter((r) => r.at >= forgetBefore);
    if (limits && exceeded(found.sent, limits, record.at, record)) return Promise.resolve(false);
    found.sent.push(record);
    this.#facts(account, chatId).sentBefore = true;
    return Promise.resolve(true);
  }

  contact(account: string, chatId: string): Promise<ContactFacts> {
    return Promise.resolve({ ...this.#facts(account, chatId) });
  }

  noteInbound(account: string, chatId: string, at: number): Promise<void> {
    this.#facts(account, chatId).lastInboundAt = at;
    return Promise.resolve();
  }

  noteCoMember(account: string, chatId: string): Promise<void> {
    this.#facts(account, chatId).coMember = true;
    return Promise.resolve();
  }

  linkedAt(account: string): Promise<number | undefined> {
    return Promise.resolve(this.#account(account).linkedAt);
  }

  noteLinked(account: string, at: number): Promise<void> {
    this.#account(account).linkedAt ??= at;
    return Promise.resolve();
  }

  restriction(account: string): Promise<Restriction | undefined> {
    return Promise.resolve(this.#account(account).restriction);
  }

  setRestriction(account: string, restriction: Restriction | undefined): Promise<void> {
    this.#account(account).restriction = restriction;
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
