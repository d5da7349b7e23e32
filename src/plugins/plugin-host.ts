import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import { WakitError, isWakitError, issueError, toWakitError } from '../errors/index.js';
import type { ErrorReport } from '../kernel/error-sink.js';
import { isPlugin } from './define-plugin.js';
import { importConfiguredPlugins } from './loader.js';
import {
  parsePluginOptions,
  resolvePluginSet,
  type PluginEntry,
  type ResolvedPlugin,
} from './plugin-set.js';
import { grantPrivileges } from './privileges.js';
import type { ConversationService } from '../conversations/conversation-service.js';
import type { HandoffService } from '../handoff/handoff-service.js';
import { InboundPath } from './inbound-path.js';
import { pluginContext } from './plugin-context.js';
import { RouteRegistry } from './routes.js';
import type { PluginHostDeps } from './plugin-host-deps.js';

export type { PluginHostDeps } from './plugin-host-deps.js';
import { Scheduler } from './scheduler.js';
import type {
  CommandInfo,
  Plugin,
  PluginRouteRegistry,
  PrivilegeName,
  PrivilegedServices,
} from './types.js';

export const DEFAULT_SETUP_TIMEOUT_MS = 10_000;

export interface PluginHostOptions {
  /** Load the plugins named in `config.plugins` at start (default true). */
  loadConfigured?: boolean;
  /** Setup timeout of plugins that do not set their own. */
  setupTimeoutMs?: number;
}

/** What `sdk.plugins.list()` returns. */
export interface LoadedPluginInfo {
  name: string;
  version?: string;
  source: string;
  /** The privileged services it was granted (those it declared). */
  privileges: PrivilegeName[];
}

interface Running {
  plugin: Plugin;
  source: string;
  privileges: PrivilegeName[];
  closeHooks: (() => void | Promise<void>)[];
}

/**
 * Runs plugins: collects them (`use` and `config.plugins`), sets them up in dependency order with a
 * timeout, feeds client events through the middleware pipeline (commands first), and closes them
 * in reverse order. Handler failures are logged and reported (`onError`), never thrown.
 */
export class PluginHost {
  readonly #sdk: PluginHostDeps;
  readonly #log: Logger;
  readonly #options: Required<PluginHostOptions>;
  readonly #entries: PluginEntry[] = [];
  /** Plugins wakit adds itself (`bundle`): set up when their dependencies are there. */
  readonly #bundled: PluginEntry[] = [];
  readonly #running: Running[] = [];
  readonly #inbound: InboundPath;
  readonly #routes = new RouteRegistry();
  /** Recurring jobs (`ctx.schedule`). */
  readonly scheduler: Scheduler;
  #phase: 'idle' | 'starting' | 'started' | 'closed' = 'idle';
  #unsubscribeClients: (() => void) | undefined;

  constructor(sdk: PluginHostDeps, options: PluginHostOptions = {}) {
    this.#sdk = sdk;
    this.#log = sdk.logger.child({ component: 'plugins' });
    this.#options = {
      loadConfigured: options.loadConfigured ?? true,
      setupTimeoutMs: options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS,
    };
    this.#inbound = new InboundPath({
      sdk,
      log: this.#log,
      report: (report) => this.#report(report),
      pluginTurns: () => this.#running.flatMap(({ plugin }) => plugin.turns ?? []),
    });
    this.scheduler = new Scheduler({
      clock: sdk.clock,
      store: sdk.schedules,
      logger: sdk.logger,
      report: (report) => this.#report(report),
    });
  }

  /** Resolves once every chat's messages in flight were handled. */
  idle(): Promise<void> {
    return this.#inbound.pipeline.idle();
  }

  /** Chat modes bot | human | closed of every client (`sdk.chats`). */
  get handoff(): HandoffService {
    return this.#inbound.handoff;
  }

  /** Conversations and chat state of every client (`sdk.conversations`). */
  get conversations(): ConversationService {
    return this.#inbound.conversations;
  }

  /** Adds a plugin (before `start()`). Options are validated now: CONFIG_INVALID otherwise. */
  use(plugin: Plugin, options?: unknown): this {
    if (this.#phase !== 'idle') {
      throw new WakitError(
        'INVALID_STATE',
        `Cannot add plugin ${plugin?.name ?? '?'}: plugins are already started`,
      );
    }
    if (!isPlugin(plugin)) {
      throw new WakitError(
        'VALIDATION_FAILED',
        'sdk.use() takes a plugin made with definePlugin()',
      );
    }
    if (this.#entries.some((e) => e.plugin.name === plugin.name)) {
      throw new WakitError('PLUGIN_DUPLICATE', `A plugin named ${plugin.name} is already added`, {
        details: { plugin: plugin.name },
      });
    }
    const entry: PluginEntry = { plugin, options, source: plugin.name };
    const { issues } = parsePluginOptions(entry);
    if (issues.length > 0) {
      throw issueError('CONFIG_INVALID', `Options of plugin ${plugin.name} are invalid`, issues);
    }
    this.#entries.push(entry);
    return this;
  }

  /**
   * Adds a plugin wakit ships with a configured feature (the simulator's REST routes, with
   * `engine.type: "simulator"`): set up only when every plugin it depends on is there (skipped
   * otherwise), its routes served under `/api/v1/<name>` instead of `/api/v1/plugins/<name>`.
   */
  bundle(plugin: Plugin, source: string): void {
    if (this.#phase !== 'idle' || this.#bundled.some((e) => e.plugin === plugin)) return;
    this.#bundled.push({ plugin, options: undefined, source });
  }

  get started(): boolean {
    return this.#phase === 'started';
  }

  /** Plugins set up so far, in setup order. */
  list(): LoadedPluginInfo[] {
    return this.#running.map(({ plugin, source, privileges }) => ({
      name: plugin.name,
      ...(plugin.version ? { version: plugin.version } : {}),
      source,
      privileges: [...privileges],
    }));
  }

  commands(): CommandInfo[] {
    return this.#inbound.commands.list();
  }

  /** Routes plugins added with `ctx.http.route` (the REST plugin mounts them). */
  get http(): PluginRouteRegistry {
    return this.#routes;
  }

  /**
   * Runs one event through the pipeline as if `client` had emitted it (tests, replays). Resolves
   * when every handler finished; never rejects (failures are reported like any other).
   */
  dispatch<E extends ClientEventName>(
    client: BotClient,
    event: E,
    ...args: ClientEvents[E]
  ): Promise<void> {
    this.#sdk.events.notify(client, event, args);
    return this.#inbound.dispatch(client, event, args);
  }

  /** Loads configured plugins, sets every plugin up in dependency order, then feeds client events. */
  async start(): Promise<void> {
    if (this.#phase !== 'idle')
      throw new WakitError('INVALID_STATE', 'Plugins are already started');
    this.#phase = 'starting';
    const configured = this.#options.loadConfigured
      ? await importConfiguredPlugins(this.#sdk.config.plugins, this.#sdk.baseDir)
      : { entries: [], issues: [] };
    const entries = [...configured.entries, ...this.#entries];
    const present = new Set(entries.map((e) => e.plugin.name));
    const bundled = this.#bundled.filter((e) =>
      (e.plugin.dependencies ?? []).every((name) => present.has(name)),
    );
    const ordered = resolvePluginSet([...entries, ...bundled], configured.issues);
    for (const resolved of ordered) await this.#setup(resolved);
    await this.#inbound.load();
    await this.scheduler.start();
    this.#phase = 'started';
    this.#unsubscribeClients = this.#sdk.clients.onClient((client) => {
      this.#inbound.watch(client);
    });
    if (ordered.length > 0) {
      this.#log.info(
        { plugins: ordered.map((p) => p.plugin.name) },
        'plugins ready: %s',
        ordered.map((p) => p.plugin.name).join(', '),
      );
    }
  }

  /** Stops dispatching and runs close hooks, last plugin first. Never throws. */
  async close(): Promise<void> {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#unsubscribeClients?.();
    await this.scheduler.close();
    await this.#inbound.close();
    while (this.#running.length > 0) {
      const running = this.#running.pop() as Running;
      while (running.closeHooks.length > 0) {
        const hook = running.closeHooks.pop() as () => void | Promise<void>;
        try {
          await hook();
        } catch (error) {
          this.#report({ source: 'hook', plugin: running.plugin.name, event: 'close', error });
        }
      }
    }
  }

  async #setup({ plugin, options, source }: ResolvedPlugin): Promise<void> {
    const { granted, services } = grantPrivileges(plugin, this.#sdk.services, source);
    if (granted.length > 0) {
      this.#log.info(
        { plugin: plugin.name, privileges: granted },
        'plugin %s granted: %s',
        plugin.name,
        granted.join(', '),
      );
    }
    const running: Running = { plugin, source, privileges: granted, closeHooks: [] };
    const ctx = pluginContext(
      {
        sdk: this.#sdk,
        inbound: this.#inbound,
        routes: this.#routes,
        scheduler: this.scheduler,
        settingUp: () => this.#phase === 'starting',
        report: (report) => this.#report(report),
      },
      plugin,
      options,
      running.closeHooks,
      this.#bundled.some((e) => e.plugin === plugin),
    );
    const timeoutMs = plugin.setupTimeoutMs ?? this.#options.setupTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new WakitError(
              'PLUGIN_TIMEOUT',
              `Plugin ${plugin.name} did not finish setup within ${timeoutMs} ms`,
              { details: { plugin: plugin.name, timeoutMs } },
            ),
          ),
        timeoutMs,
      );
    });
    // close hooks registered during a failed setup still run at stop
    this.#running.push(running);
    try {
      await Promise.race([
        Promise.resolve().then(() => plugin.setup(ctx, services as PrivilegedServices)),
        timeout,
      ]);
    } catch (error) {
      if (isWakitError(error, 'PLUGIN_TIMEOUT')) throw error;
      const cause = toWakitError(error, 'PLUGIN_LOAD_FAILED');
      throw new WakitError(cause.code, `Plugin ${plugin.name} failed to set up: ${cause.message}`, {
        details: { plugin: plugin.name, source },
        ...(cause.issues ? { issues: cause.issues } : {}),
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  #report(report: ErrorReport): void {
    this.#sdk.errors.report(report);
  }
}
