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
  /** A failure with no caller (a restriction the store could not record): to the error sink. */
  report?: (event: string, error: unknown) => void;
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
  /** The last history read (for `info()`, which is synchronous). */
  #history: SentRecord[] = [];
  #linkedAt: number | undefined;
  #restriction: Restriction | undefined;
  #wouldDefer = 0;
  /** Sends to new contacts let go and not delivered yet, with their one-tick timer once sent. */
  readonly #fresh = new Map<string, NodeJS.Timeout | undefined>();
  /** How many sends to new contacts in a row stayed at one tick. */
  #run = 0;
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
      // the governor never holds a send back for its own failure: the send goes, the failure to the sink
      if (this.#o.report) this.#o.report('governor.check', error);
      else
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
    const enforce = config.mode === 'enforce';
    let answer = this.#deferral(send.priority, open, newContact, now);
    if (!answer || !enforce || send.bypassBudget) {
      this.#audit(send, answer);
      const record = { at: now, newContact };
      // the budgets are checked again where the send is recorded, in one step (a fleet's nodes)
      const limits = enforce && !send.bypassBudget && !open ? this.limits(now) : undefined;
      if (await store.spend(client, send.chatId, record, now - DAY_MS, limits)) {
        this.#history.push(record);
        if (newContact && config.undeliveredRun > 0) this.#fresh.set(send.id, undefined);
        return 'go';
      }
      // another node spent the last unit between the check and the spend
      this.#history = await store.history(client, now - DAY_MS);
      answer = this.#deferral(send.priority, open, newContact, now) ?? {
        budget: 'perHour',
        dueAt: now + 1_000,
      };
    }
    return answer;
  }

  /** Logs a dry run's deferral and a bypassed budget (naming the send and the budget). */
  #audit(
    send: { id: string; chatId: string; bypassBudget: boolean },
    wouldDefer?: { budget: string; dueAt: number },
  ): void {
    const { client } = this.#o;
    if (send.bypassBudget) {
      this.#bypassed++;
      this.#o.log?.warn(
        { client, trackingId: send.id, chatId: send.chatId, bypassed: wouldDefer?.budget ?? null },
        'send governor: budget bypassed by the sender (bypassBudget)',
      );
    } else if (wouldDefer) {
      this.#wouldDefer++;
      this.#o.log?.info(
        { client, trackingId: send.id, ...wouldDefer },
        'send governor (dry run): would defer',
      );
    }
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

  /**
   * A tracked send changed: a send WhatsApp refused for a restriction is a signal, and so is a run
   * of `undeliveredRun` sends to new contacts that each stayed at one tick `undeliveredAfterMs`.
   */
  observe(record: TrackedSend): void {
    if (record.status === 'failed' && record.error?.code === 'ACCOUNT_RESTRICTED') {
      this.#restrictInBackground('send-refused');
    }
    if (!this.#fresh.has(record.id) || record.status === 'sending') return;
    const { undeliveredRun, undeliveredAfterMs } = this.#o.config;
    if (record.status === 'sent') {
      // one tick: it counts once it stayed so for `undeliveredAfterMs` (`sent` comes twice)
      if (undeliveredRun === 0 || this.#fresh.get(record.id) !== undefined) return;
      const timer = this.#o.clock.setTimeout(
        () => this.#stayedUndelivered(record.id),
        undeliveredAfterMs,
      );
      timer.unref?.();
      this.#fresh.set(record.id, timer);
      return;
    }
    // delivered (or failed): the run is broken
    const timer = this.#fresh.get(record.id);
    if (timer) this.#o.clock.clearTimeout(timer);
    this.#fresh.delete(record.id);
    if (record.status !== 'failed') this.#run = 0;
  }

  /** A send to a new contact stayed at one tick: one more in the run; the run is a signal. */
  #stayedUndelivered(id: string): void {
    if (!this.#fresh.delete(id)) return;
    if (++this.#run < this.#o.config.undeliveredRun) return;
    this.#o.log?.warn(
      { client: this.client, run: this.#run },
      'sends to new contacts in a row stayed at one tick (never delivered)',
    );
    this.#run = 0;
    this.#restrictInBackground('undelivered');
  }

  /** A signal seen outside a caller: a restriction the store cannot record goes to the sink. */
  #restrictInBackground(reason: string): void {
    void this.restrict(reason, this.#o.clock.now()).catch((error: unknown) => {
      if (this.#o.report) this.#o.report('governor.restrict', error);
      else
        this.#o.log?.error({ err: error, client: this.client }, 'could not record a restriction');
    });
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
    for (const timer of this.#fresh.values()) if (timer) this.#o.clock.clearTimeout(timer);
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
      deferred: 0, // the queue counts them (`OutboundQueue.governorInfo`)
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
