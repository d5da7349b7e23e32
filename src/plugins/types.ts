/**
 * The plugin API: what `definePlugin` takes, what `setup(ctx)` receives, and the HTTP route
 * registry the REST plugin reads. Plugins are plain objects; no decorators.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { BotClient } from '../client/bot-client.js';
import type { ClientEventName, ClientEvents } from '../client/client-events.js';
import type { Message } from '../client/inbound/message.js';
import type { SendResult, TextOptions } from '../client/types.js';
import type { SendContent } from '../client/send/send-contract.js';
import type { WakitConfig } from '../config/schema.js';
import type { SendPriority } from '../queue/types.js';
import type { SimulatorNetwork } from '../engines/simulator/index.js';
import type { ErrorSource } from '../kernel/error-sink.js';
import type { TrackedSend } from '../queue/types.js';
import type { ListPage, ListQuery } from '../queue/outbox/index.js';
import type { EventLoopStats } from '../kernel/event-loop-monitor.js';
import type { ClientAdmin } from '../kernel/client-admin.js';
import type { ClusterView } from '../cluster/cluster-view.js';
import type { EventBusControl, EventBusView } from '../events/event-bus-view.js';
import type { Phase } from '../kernel/lifecycle.js';
import type { PluginHttp } from './route-types.js';
import type { PluginConversations } from '../conversations/plugin-conversations.js';
import type { SdkConversations } from '../conversations/conversations-view.js';
import type { SdkChats } from '../handoff/chats-view.js';
import type { ScheduleHandler, ScheduleInfo, ScheduleOptions } from './schedule-types.js';
import type { PluginMetrics } from './plugin-metrics.js';

// ---------------------------------------------------------------------------------------------
// Plugin definition

/** A plugin: a named, plain object. Create it with `definePlugin`. */
export interface Plugin<Options = unknown, Granted extends PrivilegeName = PrivilegeName> {
  readonly name: string;
  readonly version?: string;
  /** Names of plugins that must be set up before this one (and must be present). */
  readonly dependencies?: readonly string[];
  /** Zod schema of the options (config value / `sdk.use(plugin, options)`); validated before setup. */
  readonly options?: z.ZodType<Options, unknown>;
  /** Longest time `setup` may take before start fails with PLUGIN_TIMEOUT. Default 10 s. */
  readonly setupTimeoutMs?: number;
  /** Privileged services the plugin needs (granted by name at setup; most plugins need none). */
  readonly privileges?: readonly Granted[];
  /**
   * The turns this plugin's handlers expect (docs/turns.md): used when the bot's
   * config says nothing; several plugins: the widest window.
   */
  readonly turns?: TurnOption;
  setup(
    ctx: PluginContext<Options>,
    services: Pick<PrivilegedServices, Granted>,
  ): void | Promise<void>;
}

/** Input of `definePlugin`: `options` is a zod schema and `setup` gets its parsed output. */
export interface PluginDefinition<
  S extends z.ZodType | undefined = undefined,
  Granted extends PrivilegeName = never,
> {
  name: string;
  version?: string;
  dependencies?: readonly string[];
  options?: S;
  setupTimeoutMs?: number;
  /** Privileged services `setup` receives as its second argument, e.g. `['sends']`. */
  privileges?: readonly Granted[];
  /** Bursts as one turn when the bot's config says nothing (docs/turns.md). */
  turns?: TurnOption;
  setup(
    ctx: PluginContext<S extends z.ZodType ? z.output<S> : undefined>,
    services: Pick<PrivilegedServices, Granted>,
  ): void | Promise<void>;
}

/** The options type of a plugin. */
export type PluginOptions<P> = P extends Plugin<infer O> ? O : never;

// ---------------------------------------------------------------------------------------------
// Events (middleware)

/** The first handler argument of a client event, or `undefined` for events without one. */
export type EventData<E extends ClientEventName> = ClientEvents[E] extends [infer A, ...unknown[]]
  ? A
  : undefined;

/** What an `on(event, handler)` handler receives. Message events also carry `message`. */
export type PluginEvent<E extends ClientEventName = ClientEventName> = {
  /** The client event name. */
  readonly name: E;
  /** The client that emitted it. */
  readonly client: BotClient;
  /** All handler arguments of the client event. */
  readonly args: ClientEvents[E];
  /** The first handler argument (the message, the QR string, the reason, ...). */
  readonly data: EventData<E>;
  /** Scratch space shared by the handlers of one event (pass facts down the chain). */
  readonly state: Record<string, unknown>;
} & (E extends 'message' | 'message.create' ? { readonly message: Message } : unknown);

/** Calls the next handler of the chain; resolves when the rest of the chain finished. */
export type Next = () => Promise<void>;

/**
 * A middleware handler. Handlers run in registration order; one that does not call `next()`
 * consumes the event (later handlers and commands do not see it). A throw is caught, logged and
 * reported as a plugin error; the chain then goes on as if `next()` had been called.
 */
export type EventHandler<E extends ClientEventName = ClientEventName> = (
  event: PluginEvent<E>,
  next: Next,
) => unknown;

/**
 * An observer (`ctx.events.observe`): sees every emission of an event, before the middleware chain, so
 * also commands and events a handler consumed; it cannot consume or change the chain. A throw or
 * rejection is reported like a handler's.
 */
export type EventObserver<E extends ClientEventName = ClientEventName> = (
  event: PluginEvent<E>,
) => unknown;

export interface OnOptions {
  /** Only events of these clients (names); all clients when absent. */
  clients?: readonly string[];
  /**
   * Messages and poll votes of chats in `human` or `closed` mode reach this handler too (logging,
   * metrics); by default only chats in `bot` mode do (docs/handoff.md).
   */
  allModes?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Commands: ./command-types.ts
export type { CommandContext, CommandHandler, CommandInfo, CommandMeta } from './command-types.js';
import type { CommandHandler, CommandMeta } from './command-types.js';
import type { TurnOption } from '../conversations/turn-option.js';

// ---------------------------------------------------------------------------------------------
// Sending

export interface PluginSendOptions {
  /** Queue priority; default `normal` (`reply` goes first, `bulk` last). */
  priority?: SendPriority;
  /** Text options (link preview, mentions, quoting). */
  text?: TextOptions;
  /** Makes a retried send safe: the same key and content return the first send (per plugin and client). */
  idempotencyKey?: string;
}

// Recurring jobs: ./schedule-types.ts
export type {
  CatchUp,
  ScheduleHandler,
  ScheduleInfo,
  ScheduleOptions,
  ScheduleRun,
} from './schedule-types.js';

// HTTP routes: ./route-types.ts
export type {
  HttpMethod,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginRouteResponse,
  PluginRouteDefinition,
  AnyPluginRouteDefinition,
  PluginRoute,
  PluginRouteRegistry,
  PluginHttp,
} from './route-types.js';

// ---------------------------------------------------------------------------------------------
// Context

/** What `setup(ctx)` receives: twelve members. More is granted by name (`privileges`). */
export interface PluginContext<Options = unknown> {
  /** Validated options (defaults filled by the plugin's schema). */
  readonly options: Options;
  /** A child logger with `plugin: <name>`. */
  readonly log: Logger;
  /** Where the plugin runs: its name, the configuration, the base directory, test mode. */
  readonly env: PluginEnv;
  /** Adds a middleware handler for a client event; returns a function that removes it. */
  on<E extends ClientEventName>(
    event: E,
    handler: EventHandler<E>,
    options?: OnOptions,
  ): () => void;
  /** Registers a command (during setup). Names and aliases are case-insensitive. */
  command(name: string, handler: CommandHandler, meta?: CommandMeta): void;
  /** Sends through the client's outbound queue; resolves once sent. */
  send(
    clientName: string,
    chatId: string,
    content: SendContent,
    options?: PluginSendOptions,
  ): Promise<SendResult>;
  /** The SDK's clients: every one now, one by name, and each one as it is created. */
  readonly clients: PluginClients;
  /** HTTP routes served by the REST plugin when it is enabled. */
  readonly http: PluginHttp;
  /** Observing events (never consuming them) and reporting failures to the SDK's error sink. */
  readonly events: PluginEvents;
  /** Conversations (ask, wait, remember; durable) and chat state (docs/conversations.md). */
  readonly conversations: PluginConversations;
  /** Runs at `sdk.stop()`, after queues drained; plugins close in reverse setup order. */
  onClose(hook: () => void | Promise<void>): void;
  /**
   * Runs `handler` at each firing of a cron expression (croner syntax, 5 or 6 fields, in
   * `options.timezone`, default UTC), once per fleet per firing; a firing that comes while the
   * handler still runs is skipped. Returns a function that removes the job (docs/scheduling.md).
   */
  schedule(spec: string, handler: ScheduleHandler, options?: ScheduleOptions): () => void;
}

/** `ctx.env`: where a plugin runs. */
export interface PluginEnv {
  /** The plugin's name. */
  readonly name: string;
  /** The SDK configuration (frozen). */
  readonly config: Readonly<WakitConfig>;
  /** Directory relative paths resolve from (the config file's directory). */
  readonly baseDir: string;
  /**
   * True in tests (`createTestSdk`): turn outbound side effects off (calls to other services,
   * webhooks, e-mails); the built-in REST plugin delivers no webhooks then.
   */
  readonly testing: boolean;
  /**
   * The time (epoch ms) on the kernel's clock: a `VirtualClock` in tests moves it only when told,
   * so a plugin that compares times with scheduled sends or conversation timers uses this.
   */
  now(): number;
}

/** `ctx.clients`: the SDK's clients. */
export interface PluginClients {
  /** Every client, now (clients named in `config.clients` exist once `start()` created them). */
  list(): readonly BotClient[];
  /** A client by name (CLIENT_NOT_FOUND otherwise). */
  get(name: string): BotClient;
  /** Calls `listener` for every client, existing and future; returns a function that stops it. */
  onClient(listener: (client: BotClient) => void): () => void;
}

/** `ctx.events`: observe events, report failures. */
export interface PluginEvents {
  /**
   * Observes an event: `observer` sees every emission (commands and events other handlers consume
   * included), before the handlers, and cannot consume it (counters, audit logs, metrics).
   * Returns a function that removes it.
   */
  observe<E extends ClientEventName>(
    event: E,
    observer: EventObserver<E>,
    options?: OnOptions,
  ): () => void;
  /** Reports a failure of this plugin (e.g. a webhook delivery) to the SDK's error sink. */
  report(error: unknown, where?: ReportWhere): void;
  /**
   * The core event bus, read-only: every client's events as records with ids (`subscribe`,
   * `observe`, replay after an id with `since`, the QR a client shows). SSE and webhooks of the
   * REST plugin read it here. It cannot publish, start or close the bus: starting it with a buffer
   * size and the fleet's stream is the `eventBus` privileged service.
   */
  readonly bus: EventBusView<BotClient>;
}

// ---------------------------------------------------------------------------------------------
// Privileged services: granted by name to a plugin that declares them (`privileges`)

/** The SDK's life, as `/readyz` needs it. */
export interface LifecycleView {
  readonly phase: Phase;
  /** True once `sdk.stop()` began: queues drain, intake is closed (REST answers `/readyz` 503). */
  readonly stopping: boolean;
}

/**
 * What a plugin may ask for beyond its context, by name in `definePlugin({ privileges })`; `setup`
 * gets the granted ones as its second argument. The REST plugin declares most of them.
 */
export interface PrivilegedServices {
  /** Clients at run time: add, remove, restart, list, and settings kept with a client. */
  readonly clientAdmin: ClientAdmin;
  /** Tracked sends by tracking id (every client). */
  readonly sends: SendLookup;
  /** The SDK's phase and whether it is stopping. */
  readonly lifecycle: LifecycleView;
  /** Event-loop delay figures of the watchdog (the REST plugin exports them in `/metrics`). */
  readonly eventLoop: EventLoopView;
  /** The fleet this node belongs to (`cluster` config); undefined on a single server. */
  readonly fleet: ClusterView | undefined;
  /** The simulator's virtual network with `engine.type: "simulator"`; undefined otherwise. */
  readonly simulator: SimulatorNetwork | undefined;
  /**
   * Active conversations and chat state of every client, as `sdk.conversations`: list, get, start,
   * end; read and erase a chat's state (the REST plugin's `/api/v1/conversations`).
   */
  readonly conversations: SdkConversations;
  /** Chat modes bot | human | closed of every client, as `sdk.chats` (switches say `by: 'api'`). */
  readonly chats: SdkChats;
  /** The recurring jobs of every plugin with their next run, as `sdk.plugins.schedules()`. */
  readonly schedules: ScheduleView;
  /**
   * Counters and histograms of plugins (docs/plugins.md#metrics): a plugin registers its own, the
   * REST plugin serves every registered one in `/metrics`.
   */
  readonly metrics: PluginMetrics;
  /**
   * Starts the event bus's records with a buffer size for replay and, in a fleet, the fleet's
   * event stream (the REST plugin's SSE and webhooks); idempotent, the largest buffer wins.
   */
  readonly eventBus: EventBusControl;
}

/** The recurring jobs of plugins (`ctx.schedule`), listed with their next and last run. */
export interface ScheduleView {
  list(): Promise<ScheduleInfo[]>;
}

/** Part of `sdk.plugins`: the recurring jobs of every plugin. */
export interface PluginSchedules {
  /** Every plugin's recurring jobs (`ctx.schedule`) with their next and last run. */
  schedules(): Promise<ScheduleInfo[]>;
}

/** The name of a privileged service. */
export type PrivilegeName = keyof PrivilegedServices;

/** What plugins see of the event-loop monitor. */
export interface EventLoopView {
  stats(): EventLoopStats;
}

/** Where a failure reported with `ctx.events.report` happened. */
export interface ReportWhere {
  source?: Extract<ErrorSource, 'plugin' | 'webhook'>;
  event?: string;
  client?: string;
  messageId?: string;
}

/** Tracked sends: by tracking id (also after a restart), and listed newest first. */
export interface SendLookup {
  get(trackingId: string): Promise<TrackedSend | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** How many sends of `client` are unfinished in the outbox (every node's accepts in a fleet). */
  open(client: string): Promise<number>;
  /**
   * Cancels a scheduled send (`sendAt`; docs/scheduling.md): it never goes. MESSAGE_NOT_FOUND, or
   * MESSAGE_NOT_SCHEDULED when its time came already (or it was never scheduled).
   */
  cancel(trackingId: string): Promise<TrackedSend>;
  /** Moves a scheduled send to `sendAt` (epoch ms, a Date or an RFC 3339 date-time). */
  reschedule(trackingId: string, sendAt: number | Date | string): Promise<TrackedSend>;
}
