import type { Logger } from 'pino';
import type { GovernorConfig } from '../config/governor-schema.js';
import type { Clock } from '../kernel/clock.js';
import type { GateAnswer, SendGate, SendPriority, TrackedSend } from '../queue/types.js';
import type { AccountStore, Restriction, SentRecord } from './account-store.js';
import { DAY_MS, exceeded, usageOf, type Limits } from './budget-check.js';
import { limitsOn, type Budgets, type PresetName } from './presets.js';
import type { GovernorInfo } from './governor-info.js';

export interface AccountGovernorOptions {
  client: string;
  preset: PresetName;
  /** The preset's budgets with the config's overrides; null when `off`. */
  budgets: Budgets | null;
  config: GovernorConfig;
  store: AccountStore;
  clock: Clock;
  log?: Logger;
  /** A restriction began (`restricted`) or its cool-down ended (`resumed`). */
  changed?: (event: 'restricted' | 'resumed', restriction: Restriction) => void;
}

/**
 * The send governor of one account (a client's number): the queue asks it before each message
 * (`check`), it answers from the account's budgets, warm-up day and restriction, and records
 * what it lets go. Contacts are known from what the client receives (`noteInbound`).
 * The account's key is the client name (one client is one number). docs/safety.md.
 */
export class AccountGovernor implements SendGate {
  readonly #o: AccountGovernorOptions;
  readonly #deferredIds = new Set<string>();
  /** The last history read (for `info()`, which is synchronous). */
  #history: SentRecord[] = [];
  #linkedAt: number | undefined;
  #restriction: Restriction | undefined;
  #wouldDefer = 0;
  #bypassed = 0;
  #resumeTimer: NodeJS.Timeout | undefined;
  #loaded: Promise<void> | undefined;

  constructor(options: AccountGovernorOptions) {
    this.#o = options;
  }

  get client(): string {
    return this.#o.client;
  }

  /** Resolves once what the store knows of the account (first link, restriction) was read. */
  loaded(): Promise<void> {
    return (this.#loaded ??= this.#load());
  }

  async #load(): Promise<void> {
    const { config, client, store, clock } = this.#o;
    const configured = config.accounts[client]?.linkedAt;
    this.#linkedAt =
      configured === undefined
        ? await store.linkedAt(client)
        : typeof configured === 'number'
          ? configured
          : Date.parse(configured);
    this.#restriction = await store.restriction(client);
    this.#history = await store.history(client, clock.now() - DAY_MS);
    if (this.#restriction) this.#scheduleResume(this.#restriction);
  }

  /** The number was linked (a new link, not a restored session): day 1 of its warm-up, once. */
  async noteLinked(at: number): Promise<void> {
    await this.loaded();
    if (this.#o.config.accounts[this.#o.client]) return;
    await this.#o.store.noteLinked(this.#o.client, at);
    this.#linkedAt ??= at;
  }

  /** `chatId` wrote to this account (`author`: the member who wrote in a group). */
  async noteInbound(chatId: string, at: number, author?: string): Promise<void> {
    await this.#o.store.noteInbound(this.#o.client, chatId, at);
    if (author && author !== chatId) await this.#o.store.noteCoMember(this.#o.client, author);
  }

  /** The limits that apply now (undefined when the preset is `off`). */
  limits(now: number): (Limits & { warmupDay?: number }) | undefined {
    const { budgets } = this.#o;
    if (!budgets) return undefined;
    const day =
      this.#linkedAt === undefined ? undefined : Math.floor((now - this.#linkedAt) / DAY_MS) + 1;
    return limitsOn(budgets, day);
  }

  async check(
    send: { id: string; chatId: string; priority: SendPriority; bypassBudget: boolean },
    now: number,
  ): Promise<GateAnswer> {
    try {
      await this.loaded();
      return await this.#check(send, now);
    } catch (error) {
      this.#o.log?.error(
        { err: error, client: this.client },
        'send governor failed: the send goes',
      );
      return 'go';
    }
  }

  async #check(
    send: { id: string; chatId: string; priority: SendPriority; bypassBudget: boolean },
    now: number,
  ): Promise<GateAnswer> {
    const { store, client, config } = this.#o;
    const facts = await store.contact(client, send.chatId);
    const open =
      facts.lastInboundAt !== undefined && now - facts.lastInboundAt < config.openConversationMs;
    const group = send.chatId.endsWith('@g.us');
    const newContact =
      !group && !open && !facts.lastInboundAt && !facts.sentBefore && !facts.coMember;
    this.#history = await store.history(client, now - DAY_MS);
    this.#restriction = await store.restriction(client);
    this.#endRestriction(now);
    const answer = send.bypassBudget
      ? undefined
      : this.#deferral(send.priority, open, newContact, now);
    if (answer && config.mode === 'enforce') {
      this.#deferredIds.add(send.id);
      await store.setDeferral({ id: send.id, client, ...answer });
      return answer;
    }
    if (answer) {
      this.#wouldDefer++;
      this.#o.log?.info(
        { client, trackingId: send.id, ...answer },
        'send governor (dry run): would defer',
      );
    }
    if (send.bypassBudget) {
      this.#bypassed++;
      this.#o.log?.warn(
        { client, trackingId: send.id, chatId: send.chatId },
        'send governor: budget bypassed by the sender (bypassBudget)',
      );
    }
    if (this.#deferredIds.delete(send.id)) await store.clearDeferral(send.id, client);
    const record = { at: now, newContact };
    await store.recordSend(client, send.chatId, record, now - DAY_MS);
    this.#history.push(record);
    return 'go';
  }

  /** Why this send must wait, if it must: a restriction's cool-down first, then the budgets. */
  #deferral(
    priority: SendPriority,
    open: boolean,
    newContact: boolean,
    now: number,
  ): { budget: string; dueAt: number } | undefined {
    const restriction = this.#restriction;
    if (restriction && restriction.until > now) {
      const policy = this.#o.config.onRestriction;
      const waits =
        policy === 'stop' || (policy === 'replies-only' ? !open : !open && priority !== 'reply');
      if (waits) return { budget: 'restriction', dueAt: restriction.until };
    }
    const limits = this.limits(now);
    if (!limits || open) return undefined; // replies inside an open conversation go first
    return exceeded(this.#history, limits, now, { newContact });
  }

  /** A tracked send changed: a send WhatsApp refused for a restriction is a signal. */
  observe(record: TrackedSend): void {
    if (record.status !== 'failed' || record.error?.code !== 'ACCOUNT_RESTRICTED') return;
    void this.restrict('send-refused', this.#o.clock.now()).catch((error: unknown) =>
      this.#o.log?.error({ err: error, client: this.client }, 'could not record a restriction'),
    );
  }

  /**
   * WhatsApp signalled a restriction (`reason`): bulk sends pause for the cool-down (by the
   * `onRestriction` policy); a longer one already under way is kept.
   */
  async restrict(reason: string, now: number, untilAt?: number): Promise<void> {
    const cooldown = this.#o.budgets?.cooldownMs ?? this.#o.config.cooldownMs ?? 6 * 3_600_000;
    const until = untilAt ?? now + cooldown;
    if (this.#restriction && this.#restriction.until >= until) return;
    const restriction = { reason, since: now, until };
    this.#restriction = restriction;
    await this.#o.store.setRestriction(this.client, restriction);
    this.#o.log?.warn({ client: this.client, ...restriction }, 'account restricted: sends paused');
    this.#o.changed?.('restricted', restriction);
    this.#scheduleResume(restriction);
  }

  #scheduleResume(restriction: Restriction): void {
    if (this.#resumeTimer) this.#o.clock.clearTimeout(this.#resumeTimer);
    const wait = Math.max(restriction.until - this.#o.clock.now(), 0);
    this.#resumeTimer = this.#o.clock.setTimeout(() => {
      this.#resumeTimer = undefined;
      this.#endRestriction(this.#o.clock.now());
    }, wait);
    this.#resumeTimer.unref?.();
  }

  #endRestriction(now: number): void {
    const restriction = this.#restriction;
    if (!restriction || restriction.until > now) return;
    this.#restriction = undefined;
    // not reported: a stored restriction whose `until` has passed is over when read anyway
    void this.#o.store.setRestriction(this.client, undefined).catch(() => undefined);
    this.#o.log?.info(
      { client: this.client, ...restriction },
      'account resumed after its cool-down',
    );
    this.#o.changed?.('resumed', restriction);
  }

  close(): void {
    if (this.#resumeTimer) this.#o.clock.clearTimeout(this.#resumeTimer);
  }

  info(): GovernorInfo {
    const now = this.#o.clock.now();
    const usage = usageOf(this.#history, now);
    const limits = this.limits(now);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const restriction =
      this.#restriction && this.#restriction.until > now ? this.#restriction : undefined;
    return {
      preset: this.#o.preset,
      mode: this.#o.config.mode,
      warmupDay: limits?.warmupDay ?? null,
      limits: limits
        ? {
            perHour: limits.perHour,
            perDay: limits.perDay,
            newContactsPerDay: limits.newContactsPerDay,
          }
        : null,
      used: { perHour: usage.hour, perDay: usage.day, newContactsPerDay: usage.newContacts },
      resetsAt: {
        perHour: iso(usage.resetsAt.hour),
        perDay: iso(usage.resetsAt.day),
        newContactsPerDay: iso(usage.resetsAt.newContacts),
      },
      deferred: this.#deferredIds.size,
      wouldDefer: this.#wouldDefer,
      bypassed: this.#bypassed,
      restricted: restriction
        ? {
            reason: restriction.reason,
            since: iso(restriction.since)!,
            until: iso(restriction.until)!,
          }
        : null,
    };
  }
}
