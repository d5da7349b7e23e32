import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import { WakitError, isWakitError, issueError, toWakitError } from '../errors/index.js';
import type { ErrorReport, ErrorSink } from '../kernel/error-sink.js';
import { prepareContent } from '../client/send/send-contract.js';
import { CommandRegistry } from './commands.js';
import { isPlugin } from './define-plugin.js';
import { importConfiguredPlugins } from './loader.js';
import { EventPipeline, pluginEventOf } from './pipeline.js';
import { callSafely } from '../kernel/listeners.js';
import type { EventBus } from '../events/event-bus.js';
import {
  parsePluginOptions,
  resolvePluginSet,
  type PluginEntry,
  type ResolvedPlugin,
} from './plugin-set.js';
import { grantPrivileges } from './privileges.js';
import type { Clock } from '../kernel/clock.js';
import { ConversationService } from '../conversations/conversation-service.js';
import { conversationsContext } from '../conversations/plugin-conversations.js';
import { TurnWindow } from '../conversations/turn-window.js';
import { HandoffService } from '../handoff/handoff-service.js';
import { BUNDLED_ROUTE_PREFIX, RouteRegistry } from './routes.js';
import { Scheduler } from './scheduler.js';
import { floodMiddleware } from './flood-gate.js';
import type { ScheduleStore } from './schedule-types.js';
import type {
  CommandInfo,
  Plugin,
  PluginClients,
  PluginContext,
  PluginEnv,
  PluginEvents,
  PluginHttp,
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

/** What the plugin host needs of the SDK (the SDK implements it; plugins never see it whole). */
export interface PluginHostDeps extends Omit<PluginEnv, 'name'> {
  readonly clients: PluginClients;
  /** The core event bus (src/events/). */
  readonly events: EventBus<BotClient>;
  /** Read when a plugin that declared a service reads it (a getter may supply it late). */
  readonly services: PrivilegedServices;
  readonly logger: Logger;
  readonly errors: ErrorSink;
  /** The kernel's clock (conversation timers, recurring jobs). */
  readonly clock: Clock;
  /** Where recurring jobs claim their firings (a fleet's store arrives with its code). */
  readonly schedules: () => ScheduleStore | Promise<ScheduleStore>;
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
  readonly #pipeline: EventPipeline;
  readonly #commands: CommandRegistry;
  readonly #routes = new RouteRegistry();
  readonly #conversations: ConversationService;
  readonly #turns: TurnWindow;
  /** Recurring jobs (`ctx.schedule`). */
  readonly scheduler: Scheduler;
  readonly #handoff: HandoffService;
  #phase: 'idle' | 'starting' | 'started' | 'closed' = 'idle';
  #unsubscribeClients: (() => void) | undefined;

  constructor(sdk: PluginHostDeps, options: PluginHostOptions = {}) {
    this.#sdk = sdk;
    this.#log = sdk.logger.child({ component: 'plugins' });
    this.#options = {
      loadConfigured: options.loadConfigured ?? true,
      setupTimeoutMs: options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS,
    };
    const handlerTimeoutMs = sdk.config.watchdog.handlerTimeoutMs;
    this.#pipeline = new EventPipeline(
      ({ plugin, event, client, messageId, error }) =>
        this.#report({
          source: 'plugin',
          plugin,
          event,
          client,
          ...(messageId ? { messageId } : {}),
          error,
        }),
      {
        handlerTimeoutMs,
        concurrency: sdk.config.conversations.concurrency,
        gate: (client, chatId, message) => this.#handoff.open(client, chatId, message),
      },
    );
    this.#commands = new CommandRegistry(
      {
        prefix: sdk.config.commands.prefix,
        unknownReply: sdk.config.commands.unknownReply,
        handlerTimeoutMs,
      },
      ({ plugin, command, client, messageId, error }) =>
        this.#report({
          source: 'command',
          plugin,
          event: `command:${command}`,
          client,
          messageId,
          error,
        }),
      (message, error) => this.#log.warn({ err: toWakitError(error) }, message),
    );
    this.#conversations = new ConversationService({
      config: sdk.config,
      baseDir: sdk.baseDir,
      clock: sdk.clock,
      logger: sdk.logger,
      clients: sdk.clients,
      sentMessageId: async (trackingId) =>
        (await sdk.services.sends.get(trackingId))?.messageId ?? null,
      report: (report) => this.#report(report),
      isCommand: (body) => this.#commands.isCommand(body),
      held: (client, chatId) => this.#handoff.held(client, chatId),
    });
    this.#handoff = new HandoffService({
      ...sdk,
      conversations: this.#conversations,
      report: (report) => this.#report(report),
    });
    this.scheduler = new Scheduler({
      clock: sdk.clock,
      store: sdk.schedules,
      logger: sdk.logger,
      report: (report) => this.#report(report),
    });
    // flood control before everything: a throttled person's message reaches no handler
    this.#pipeline.add(
      'wakit',
      'message',
      floodMiddleware(sdk.config.flood, sdk.clock, (r) => this.#report(r)),
    );
    this.#turns = new TurnWindow({
      conversations: this.#conversations,
      pipeline: this.#pipeline,
      clock: sdk.clock,
      configured: sdk.config.conversations.turns,
      plugins: () => this.#running.flatMap(({ plugin }) => plugin.turns ?? []),
      report: (report) => this.#report(report),
    });
    // a burst is one turn (off by default): the turn, not each message, goes down the chain
    this.#pipeline.add('wakit', 'message', this.#turns.middleware, undefined, { ownTimeout: true });
    // conversations first: an answer to a question is not a command, a cancel word not a message
    this.#pipeline.add('wakit', 'message', this.#conversations.middleware, undefined, {
      ownTimeout: true,
    });
    this.#pipeline.add('wakit', 'message', this.#commands.middleware, undefined, {
      ownTimeout: true,
    });
    this.#pipeline.add('wakit', 'poll.vote', this.#conversations.voteMiddleware, undefined, {
      ownTimeout: true,
    });
  }

  /** Resolves once every chat's messages in flight were handled. */
  idle(): Promise<void> {
    return this.#pipeline.idle();
  }

  /** Chat modes bot | human | closed of every client (`sdk.chats`). */
  get handoff(): HandoffService {
    return this.#handoff;
  }

  /** Conversations and chat state of every client (`sdk.conversations`). */
  get conversations(): ConversationService {
    return this.#conversations;
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
    return this.#commands.list();
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
    return this.#pipeline.dispatch(client, event, args);
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
    await this.#conversations.load();
    await this.scheduler.start();
    await this.#handoff.load();
    this.#phase = 'started';
    this.#unsubscribeClients = this.#sdk.clients.onClient((client) => {
      this.#pipeline.attachClient(client);
      this.#conversations.watch(client);
      this.#turns.watch(client);
      this.#handoff.watch(client);
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
    this.#pipeline.detachAll();
    this.#turns.close();
    await this.scheduler.close();
    this.#handoff.close();
    await this.#conversations
      .close()
      .catch((error: unknown) => this.#report({ source: 'conversation', event: 'close', error }));
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
    const ctx = this.#context(plugin, options, running);
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

  #context<O>(plugin: Plugin<O>, options: O, running: Running): PluginContext<O> {
    const sdk = this.#sdk;
    const name = plugin.name;
    const log = sdk.logger.child({ plugin: name });
    const duringSetup = (what: string): void => {
      if (this.#phase !== 'starting') {
        throw new WakitError('INVALID_STATE', `Plugin ${name}: ${what} only during setup`);
      }
    };
    const routes = this.#routes;
    const bundled = this.#bundled.some((e) => e.plugin === plugin);
    const mount = bundled ? `${BUNDLED_ROUTE_PREFIX}/${name}` : undefined;
    const http: PluginHttp = {
      routes: () => routes.routes(),
      route(definition) {
        duringSetup('add HTTP routes');
        routes.add(name, definition, mount);
      },
    };
    const clients = sdk.clients;
    return {
      options,
      log,
      env: Object.freeze({ name, config: sdk.config, baseDir: sdk.baseDir, testing: sdk.testing }),
      clients: Object.freeze({
        list: () => clients.list(),
        get: (clientName: string) => clients.get(clientName),
        onClient: (listener: (client: BotClient) => void) => clients.onClient(listener),
      }),
      events: Object.freeze({
        observe: (event, observer, onOptions) => {
          if (typeof observer !== 'function') {
            throw new WakitError(
              'VALIDATION_FAILED',
              `Plugin ${name}: events.observe(${event}) needs a function`,
            );
          }
          return sdk.events.observe(
            event,
            ({ client, args }) => {
              const observed = pluginEventOf(client, event, args);
              const messageId = (observed as { message?: { id?: string } }).message?.id;
              callSafely(observer, [observed], (error) =>
                this.#report({
                  source: 'plugin',
                  plugin: name,
                  event,
                  client: client.name,
                  ...(messageId ? { messageId } : {}),
                  error,
                }),
              );
            },
            onOptions?.clients,
          );
        },
        report: (error, where = {}) =>
          this.#report({ source: where.source ?? 'plugin', plugin: name, ...where, error }),
        bus: sdk.events,
      } satisfies PluginEvents),
      on: (event, handler, onOptions) => {
        if (typeof handler !== 'function') {
          throw new WakitError(
            'VALIDATION_FAILED',
            `Plugin ${name}: on(${event}) needs a handler function`,
          );
        }
        return this.#pipeline.add(name, event, handler, onOptions?.clients, {
          allModes: onOptions?.allModes === true,
        });
      },
      command: (commandName, handler, meta) => {
        duringSetup('register commands');
        this.#commands.register(name, commandName, handler, meta);
      },
      send: async (clientName, chatId, content, sendOptions) => {
        const client = clients.get(clientName);
        const send = prepareContent(chatId, content, sendOptions?.text);
        const queued = await client.enqueue(send, {
          priority: sendOptions?.priority ?? 'normal',
          ...(sendOptions?.idempotencyKey ? { idempotencyKey: sendOptions.idempotencyKey } : {}),
          idempotencyScope: `plugin:${name}`,
        });
        return queued.result;
      },
      conversations: conversationsContext(this.#conversations, {
        duringSetup,
        command: (commandName, handler, meta) =>
          this.#commands.register(name, commandName, handler, meta),
      }),
      onClose: (hook) => {
        if (typeof hook !== 'function')
          throw new WakitError('VALIDATION_FAILED', `Plugin ${name}: onClose needs a function`);
        running.closeHooks.push(hook);
      },
      schedule: (spec, handler, scheduleOptions) =>
        this.scheduler.add(name, spec, handler, scheduleOptions),
      http,
    };
  }

  #report(report: ErrorReport): void {
    this.#sdk.errors.report(report);
  }
}
