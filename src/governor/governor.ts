import path from 'node:path';
import type { Logger } from 'pino';
import type { ErrorSink } from '../kernel/error-sink.js';
import type { WakitConfig } from '../config/schema.js';
import type { BotClient } from '../client/bot-client.js';
import { internalsOf } from '../client/core/client-internals.js';
import { systemClock, type Clock } from '../kernel/clock.js';
import type { AccountStore, Restriction } from './account-store.js';
import { AccountGovernor } from './account-governor.js';
import { MemoryAccountStore } from './memory-account-store.js';
import { PRESETS, type Budgets, type PresetName } from './presets.js';
import { SqliteAccountStore } from './sqlite-account-store.js';
import { deferredAccountStore } from './deferred-account-store.js';

/** The preset in force: the configured one, else `off` on the simulator and `standard` otherwise. */
export function presetOf(config: Readonly<WakitConfig>): PresetName {
  return config.governor.preset ?? (config.engine.type === 'simulator' ? 'off' : 'standard');
}

/** The preset's budgets with the config's overrides; null when `off`. */
export function budgetsOf(config: Readonly<WakitConfig>): Budgets | null {
  const preset = PRESETS[presetOf(config)];
  if (!preset) return null;
  const { perHour, perDay, newContactsPerDay, warmupDays, cooldownMs } = config.governor;
  return {
    ...preset,
    ...(perHour !== undefined ? { perHour } : {}),
    ...(perDay !== undefined ? { perDay } : {}),
    ...(newContactsPerDay !== undefined ? { newContactsPerDay } : {}),
    ...(warmupDays !== undefined ? { warmupDays } : {}),
    ...(cooldownMs !== undefined ? { cooldownMs } : {}),
  };
}

/** The governor of an SDK's config; undefined when its preset is `off`. */
export function createGovernor(
  config: Readonly<WakitConfig>,
  baseDir: string,
  logger?: Logger,
  errors?: Pick<ErrorSink, 'report'>,
): Governor | undefined {
  if (presetOf(config) === 'off') return undefined;
  const store = createAccountStore(config, baseDir);
  return new Governor({
    config,
    store,
    clock: systemClock,
    ...(logger ? { logger } : {}),
    ...(errors ? { errors } : {}),
  });
}

/**
 * Where the governor keeps its accounts: Redis in a fleet (every node spends one budget per
 * account), memory with a memory outbox, else SQLite beside the outbox.
 */
export function createAccountStore(config: Readonly<WakitConfig>, baseDir: string): AccountStore {
  const { queue, cluster } = config;
  if (cluster) {
    // the fleet's code (src/cluster, ioredis) is loaded only in a fleet
    const loading = import('../cluster/redis-account-store.js');
    return deferredAccountStore(
      'redis',
      loading.then((m) => m.createRedisAccountStore(cluster)),
    );
  }
  if (queue.persistence === 'memory') return new MemoryAccountStore();
  const dir = queue.outboxPath ? path.dirname(queue.outboxPath) : config.auth.dataPath;
  return new SqliteAccountStore(path.resolve(baseDir, dir, 'governor.db'));
}

export interface GovernorOptions {
  config: Readonly<WakitConfig>;
  store: AccountStore;
  clock: Clock;
  logger?: Logger;
  /** Where failures without a caller go (the SDK's error sink). */
  errors?: Pick<ErrorSink, 'report'>;
}

/** A restriction began or ended for a client's account. */
export type RestrictionListener = (
  client: string,
  event: 'restricted' | 'resumed',
  restriction: Restriction,
) => void;

/**
 * The send governor of an SDK (docs/safety.md): one AccountGovernor per client, sharing one
 * account store (SQLite beside the outbox; Redis in a fleet, so nodes share budgets).
 */
export class Governor {
  readonly preset: PresetName;
  readonly #budgets: Budgets | null;
  readonly #accounts = new Map<string, AccountGovernor>();
  readonly #listeners = new Set<RestrictionListener>();

  constructor(private readonly options: GovernorOptions) {
    this.preset = presetOf(options.config);
    this.#budgets = budgetsOf(options.config);
  }

  /** The governor of `client`'s account (made on first use). */
  forClient(client: string): AccountGovernor {
    let found = this.#accounts.get(client);
    if (found) return found;
    const { config, store, clock, logger, errors } = this.options;
    found = new AccountGovernor({
      client,
      preset: this.preset,
      budgets: this.#budgets,
      config: config.governor,
      store,
      clock,
      ...(logger ? { log: logger.child({ component: 'governor' }) } : {}),
      ...(errors
        ? {
            report: (event: string, error: unknown) =>
              errors.report({ source: 'queue', event, client, error }),
          }
        : {}),
      changed: (event, restriction) => {
        for (const listener of this.#listeners) listener(client, event, restriction);
      },
    });
    this.#accounts.set(client, found);
    return found;
  }

  onRestriction(listener: RestrictionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Follows what `client` receives (contacts that wrote), its links and its refused sends. */
  attach(client: BotClient): void {
    const account = this.forClient(client.name);
    const { clock, errors, logger } = this.options;
    /** A failure with no caller: to the error sink (source queue, event `governor.<what>`). */
    const report = (what: string) => (error: unknown) =>
      errors
        ? errors.report({ source: 'queue', event: `governor.${what}`, client: client.name, error })
        : logger?.error({ err: error, client: client.name }, `send governor failed (${what})`);
    // what the store knows (the budget spent before a restart) shows in info() before any send
    account.loaded().catch(report('load'));
    client.on('message', (message) => {
      if (message.fromMe || message.broadcast) return;
      account.noteInbound(message.chatId, clock.now(), message.author).catch(report('inbound'));
    });
    client.on('authenticated', (session) => {
      if (!session.restored) account.noteLinked(clock.now()).catch(report('linked'));
    });
    client.on('message.status', (record) => account.observe(record));
    // WhatsApp logged the number out with a ban reason (TOS_BLOCK): a restriction for the cool-down,
    // kept in the account's store (it holds when the number is linked again)
    client.on('disconnected', (reason) => {
      if (reason === 'banned') account.restrict('banned', clock.now()).catch(report('restrict'));
    });
    this.onRestriction((name, event, r) => {
      if (name !== client.name) return;
      const iso = (ms: number) => new Date(ms).toISOString();
      const restriction = {
        client: name,
        reason: r.reason,
        since: iso(r.since),
        until: iso(r.until),
      };
      internalsOf(client).events.emit(`account.${event}`, restriction);
    });
  }

  async close(): Promise<void> {
    for (const account of this.#accounts.values()) account.close();
    await this.options.store.close();
  }
}
