import 'reflect-metadata';
import type { Logger } from 'pino';
import { parseConfig } from './config/validate.js';
import type { WakitConfig, WakitConfigInput } from './config/schema.js';
import { WakitError } from './errors/index.js';
import type { EngineFactory } from './engines/engine.js';
import type { SimulatorNetwork } from './engines/simulator/index.js';
import { networkOf, type SimulatorSlot } from './engines/engine-for-config.js';
import type { BotClient } from './client/bot-client.js';
import { createRootContainer, resolveCore } from './kernel/container.js';
import type { ClientManager } from './kernel/client-manager.js';
import type {
  ClientAdmin,
  AddClientOptions,
  ClientListing,
  RemoveClientOptions,
} from './kernel/client-admin.js';
import type { ClientRegistry } from './kernel/client-registry.js';
import type { Lifecycle, CloseHook, Phase } from './kernel/lifecycle.js';
import { createLogger } from './kernel/logger.js';
import type { EventLoopMonitor } from './kernel/event-loop-monitor.js';
import type { PluginHost } from './plugins/plugin-host.js';
import { pluginsView, type PluginsView } from './plugins/plugins-view.js';
import type { Plugin, SendLookup } from './plugins/types.js';
import { isPlugin } from './plugins/define-plugin.js';
import { conversationsView, type SdkConversations } from './conversations/conversations-view.js';
import { chatsView, type SdkChats } from './handoff/chats-view.js';
import type { ErrorSink, WakitErrorEvent } from './kernel/error-sink.js';
import type { EventBus } from './events/event-bus.js';
import type { OutboxStore } from './queue/outbox/index.js';
import type { ClusterView } from './cluster/cluster-view.js';
import type { FleetLoader } from './kernel/fleet-loader.js';
import type { Governor } from './governor/governor.js';
import type { Ownership } from './cluster/ownership.js';
import {
  CLIENT_REGISTRY,
  ENGINE_FACTORY,
  EVENT_BUS,
  EVENT_LOOP,
  LIFECYCLE,
  SIMULATOR,
} from './kernel/tokens.js';
import {
  CLIENT_ADMIN,
  CLIENT_MANAGER,
  GOVERNOR,
  PLUGIN_HOST,
  SEND_LOOKUP,
} from './kernel/service-tokens.js';
import { registerService, serviceRegistry } from './kernel/service-overrides.js';
import type { ServiceRegistry } from './kernel/service-overrides.js';

export interface SdkOptions {
  /** Relative paths of the config (auth.dataPath, plugin paths) resolve from here; default: cwd. */
  baseDir?: string;
  /** Use this pino logger instead of one built from `config.log`. */
  logger?: Logger;
  /**
   * Advanced / testing seam: creates the engines of every client instead of the built-in factory
   * of `config.engine.type` (e.g. the whatsapp-web.js engine on a fake Client). With it,
   * `sdk.simulator` is not available.
   */
  engineFactory?: EngineFactory;
  /**
   * Where clients added at run time (`addClient`) are kept; default `<auth.dataPath>/clients.json`.
   * A shared store plugs in here (`MemoryClientRegistry` forgets them at exit).
   */
  clientRegistry?: ClientRegistry;
  /**
   * Advanced / testing seam: which clients this process runs. Default: every client (one server);
   * in a fleet (`cluster`) the placement decides.
   */
  ownership?: Ownership;
  /**
   * Replaces kernel services before anything is built, e.g. a session store on S3 or Postgres:
   * `services: (s) => s.register(SESSION_STORE, { useClass: S3SessionStore })`. The tokens are in
   * src/kernel/public-tokens.ts; what each service is and its lifetime: docs/kernel.md.
   */
  services?: (services: ServiceRegistry) => void;
  /** Tests: plugins see `ctx.env.testing`, their outbound side effects off (`createTestSdk`). */
  testing?: boolean;
}

export type { SdkConversations } from './conversations/conversations-view.js';
export type { SdkChats } from './handoff/chats-view.js';

export type { PluginsView } from './plugins/plugins-view.js';

export interface StopOptions {
  /**
   * How long queued sends may take to go out; what is left stays in the outbox for the next start.
   * Default `queue.drainTimeoutMs` (10 s).
   */
  drainTimeoutMs?: number;
}

/** The SDK: made from a configuration, it creates named clients and runs plugins. */
export class Sdk {
  readonly config: Readonly<WakitConfig>;
  readonly logger: Logger;
  readonly baseDir: string;
  /** `SdkOptions.testing`: outbound side effects of plugins are off. */
  readonly testing: boolean;
  readonly #clients: ClientManager;
  readonly #admin: ClientAdmin;
  readonly #errors: ErrorSink;
  /** Every client's events (SSE, webhooks, metrics and plugins read them here). */
  readonly events: EventBus<BotClient>;
  readonly #plugins: PluginHost;
  readonly #lifecycle: Lifecycle;
  readonly #startHooks: { name: string; hook: () => Promise<void> }[] = [];
  readonly #simulator: SimulatorSlot | undefined;
  /** Event-loop delay while started (`watchdog` config; the REST plugin exports it in `/metrics`). */
  readonly eventLoop: EventLoopMonitor;
  /** Tracked sends across clients: by tracking id, and listed (newest first), from the outbox. */
  readonly sends: SendLookup;
  readonly #outbox: OutboxStore;
  /** This node of a fleet (`cluster` config), loaded on demand; undefined on a single server. */
  readonly #fleet: FleetLoader | undefined;
  readonly #pruner: NodeJS.Timeout;
  /** The send governor (docs/safety.md); undefined when its preset is `off`. */
  readonly #governor: Governor | undefined;

  constructor(config: Readonly<WakitConfig>, options: SdkOptions = {}) {
    this.config = config;
    this.baseDir = options.baseDir ?? process.cwd();
    this.testing = options.testing ?? false;
    this.logger = options.logger ?? createLogger(config.log);
    const root = createRootContainer({
      config,
      baseDir: this.baseDir,
      logger: this.logger,
      testing: this.testing,
      ...(options.ownership ? { ownership: options.ownership } : {}),
    });
    if (options.engineFactory) {
      registerService(root, ENGINE_FACTORY, { useValue: options.engineFactory });
    }
    if (options.clientRegistry) {
      registerService(root, CLIENT_REGISTRY, { useValue: options.clientRegistry });
    }
    options.services?.(serviceRegistry(root));
    const { errors, outbox, fleet } = resolveCore(root);
    this.#errors = errors;
    this.#outbox = outbox;
    this.#fleet = fleet;
    this.#lifecycle = root.resolve(LIFECYCLE);
    this.#clients = root.resolve(CLIENT_MANAGER);
    this.#admin = root.resolve(CLIENT_ADMIN);
    this.#governor = root.resolve(GOVERNOR);
    const governor = this.#governor;
    if (governor) this.#clients.onClient((client) => governor.attach(client));
    fleet?.bind({ clients: this.#clients, admin: this.#admin });
    this.sends = root.resolve(SEND_LOOKUP);
    this.#simulator = root.resolve(SIMULATOR);
    this.eventLoop = root.resolve(EVENT_LOOP);
    this.events = root.resolve(EVENT_BUS) as unknown as EventBus<BotClient>;
    this.onClose('events', () => this.events.close());
    this.#plugins = root.resolve(PLUGIN_HOST);
    const { retention } = config.queue;
    this.#pruner = setInterval(() => void this.#prune(), retention.pruneIntervalMs).unref();
    const eventLoop = this.eventLoop;
    this.#startHooks.push({ name: 'event-loop', hook: () => Promise.resolve(eventLoop.start()) });
    this.onClose('event-loop', () => eventLoop.stop());
    this.#startHooks.push({ name: 'plugins', hook: () => this.#plugins.start() });
    this.onClose('plugins', () => this.#plugins.close());
  }

  /**
   * The fleet this node belongs to (`cluster` config); undefined on a single server, and until the
   * fleet's code is loaded (on demand, right after `createSdk`): `start()` and `loadCluster()` wait.
   */
  get cluster(): ClusterView | undefined {
    return this.#fleet?.fleet?.view;
  }

  /** Resolves to `sdk.cluster` once the fleet is loaded (a single server: undefined). */
  async loadCluster(): Promise<ClusterView | undefined> {
    return (await this.#fleet?.loading)?.view;
  }

  /**
   * Adds a plugin, with its options (validated now by the plugin's schema). Plugins named in
   * `config.plugins` are added by `start()`. Only before `start()`.
   */
  use<O>(plugin: Plugin<O>, options?: unknown): this {
    this.#lifecycle.expect('add a plugin', 'idle');
    this.#plugins.use(plugin, options);
    return this;
  }

  /**
   * Every failure of a handler, plugin, command, engine, queue or webhook, once, with where it
   * happened (it is also logged once). Returns a function that removes the listener.
   */
  on(event: 'error', listener: (error: WakitErrorEvent) => void): () => void {
    if (event !== 'error') {
      throw new WakitError('VALIDATION_FAILED', `Unknown SDK event "${String(event)}"`);
    }
    return this.#errors.on(listener);
  }

  /** The plugins that are set up, in setup order, and the commands they registered. */
  get plugins(): PluginsView {
    return pluginsView(this.#plugins);
  }

  get phase(): Phase {
    return this.#lifecycle.phase;
  }

  /**
   * Conversations and chat state of every client, for operators and tests: list, inspect, start
   * (a bot that writes first), end; read and erase a chat's state (docs/conversations.md).
   */
  get conversations(): SdkConversations {
    return conversationsView(this.#plugins.conversations);
  }

  /** Chat modes bot | human | closed: read, set and list them (docs/handoff.md). */
  get chats(): SdkChats {
    return chatsView(this.#plugins.handoff);
  }

  /** The simulator's virtual network (tests, demos, `wakit dev`); from when: docs/simulator.md. */
  get simulator(): SimulatorNetwork {
    return networkOf(this.#simulator);
  }

  /** Creates a named client with its own session, QR and outbound queue. */
  createClient(options: { name: string }): BotClient {
    this.#lifecycle.expect('create a client', 'idle', 'starting', 'started');
    return this.#clients.create(options?.name);
  }

  /**
   * Adds a client at run time and keeps it (`<auth.dataPath>/clients.json`, or the
   * `clientRegistry`): the next start creates it again. Once started it initializes at once.
   * VALIDATION_FAILED for a bad name, CLIENT_EXISTS for a name in use.
   */
  addClient(options: AddClientOptions): Promise<BotClient> {
    return this.#admin.add(options);
  }

  /**
   * Removes a client added at run time (or by `createClient`): stopped, forgotten, its waiting
   * sends failed; its session is kept unless `deleteSession`. Configured clients:
   * CLIENT_NOT_MANAGED.
   */
  removeClient(name: string, options?: RemoveClientOptions): Promise<void> {
    return this.#admin.remove(name, options);
  }

  /** Stops a client (keeping its session) and initializes it again; does not wait for READY. */
  restartClient(name: string): Promise<BotClient> {
    return this.#admin.restart(name);
  }

  /** Every client with its state and origin (`config`, `api` or `code`). */
  listClients(): ClientListing[] {
    return this.#admin.list();
  }

  /** Clients at run time, whole: what plugins get as the `clientAdmin` service (settings, changes). */
  get clientAdmin(): ClientAdmin {
    return this.#admin;
  }

  /** The client with this name; CLIENT_NOT_FOUND otherwise. */
  client(name: string): BotClient {
    return this.#clients.get(name);
  }

  get clients(): BotClient[] {
    return this.#clients.list();
  }

  /** Calls `listener` for every client, existing and future (plugins use it to attach handlers). */
  onClient(listener: (client: BotClient) => void): () => void {
    return this.#clients.onClient(listener);
  }

  /** Work to do during `stop()`; hooks run in reverse order of registration. */
  onClose(name: string, hook: CloseHook): void {
    this.#lifecycle.onClose(name, hook);
  }

  /**
   * Runs the start hooks (plugins), creates the clients named in `config.clients` and those added
   * at run time before (the client registry), and initializes every client. A client that fails to initialize is logged and left FAILED; the others go on.
   * In cluster mode it joins the fleet instead: every client is created, but only those this node
   * claims are initialized (docs/scaling.md).
   */
  async start(): Promise<void> {
    this.#lifecycle.expect('start', 'idle');
    this.#lifecycle.enter('starting');
    await this.#prune();
    try {
      await (await this.#fleet?.loading)?.connect();
      await this.#admin.load();
      await this.#simulator?.load();
      // the simulator's REST routes, when the REST plugin is enabled (src/simulator-plugin/)
      const routes = this.#simulator?.plugin;
      if (isPlugin(routes)) this.#plugins.bundle(routes, 'wakitjs/simulator');
      for (const { hook } of this.#startHooks) await hook();
      for (const name of this.config.clients) {
        if (!this.#clients.find(name)) this.#clients.create(name);
      }
      await this.#admin.createSaved();
    } catch (error) {
      this.#lifecycle.enter('failed');
      await this.#shutdown(0);
      throw error;
    }
    const fleet = this.#fleet?.fleet;
    if (fleet) {
      // a fleet initializes only the clients this node claims (docs/scaling.md, Placement)
      await fleet.start();
      this.#lifecycle.enter('started');
      return;
    }
    await Promise.all(
      this.#clients.list().map((client) =>
        client.initialize().catch((error: unknown) => {
          this.#errors.report({ source: 'client', event: 'start', client: client.name, error });
        }),
      ),
    );
    this.#lifecycle.enter('started');
  }

  /**
   * Stops everything: lets queued sends finish within `drainTimeoutMs`, runs close hooks in reverse
   * order, stops every engine keeping its session. Idempotent once stopped.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.phase === 'stopped' || this.phase === 'stopping') return;
    this.#lifecycle.enter('stopping');
    await this.#shutdown(options.drainTimeoutMs ?? this.config.queue.drainTimeoutMs);
  }

  /** Removes finished sends beyond `queue.retention` from the outbox. */
  async #prune(): Promise<void> {
    try {
      const removed = await this.#outbox.prune(this.config.queue.retention, Date.now());
      if (removed > 0) this.logger.debug({ removed }, 'outbox: %d finished sends pruned', removed);
    } catch (error) {
      this.#errors.report({ source: 'queue', event: 'prune', error });
    }
  }

  async #shutdown(drainTimeoutMs: number): Promise<void> {
    // not reported: a fleet that failed to load failed start() with its error
    const fleet = await this.#fleet?.loading.catch(() => undefined);
    fleet?.freeze();
    await this.#clients.drainAll(drainTimeoutMs);
    // a fleet node hands its clients over at once instead of letting their leases lapse
    await fleet?.handOver();
    await this.#lifecycle.runCloseHooks((name, error) =>
      this.#errors.report({ source: 'hook', event: `close:${name}`, error }),
    );
    await this.#clients.closeAll();
    await this.#governor?.close();
    await fleet?.close();
    clearInterval(this.#pruner);
    await this.#outbox.close();
    if (this.phase !== 'failed') this.#lifecycle.enter('stopped');
  }
}

/**
 * Creates an SDK from a configuration object: validated (every problem at once, CONFIG_INVALID),
 * defaults filled, frozen.
 */
export function createSdk(config: WakitConfigInput, options: SdkOptions = {}): Sdk {
  return new Sdk(parseConfig(config), options);
}
