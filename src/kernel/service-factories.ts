/**
 * How the kernel builds its default services from the container (the providers of ./container.ts).
 * Each reads what it needs by token, so a replaced service is what the others get.
 */
import path from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import type { SessionStore } from '../auth/session-store.js';
import { LocalSessionStore } from '../auth/local-store.js';
import { OutboundQueue } from '../queue/index.js';
import { createOutboxStore, journalChange, type OutboxStore } from '../queue/outbox/index.js';
import { PluginHost } from '../plugins/plugin-host.js';
import { FileScheduleStore } from '../plugins/file-schedule-store.js';
import { lifecycleView } from '../plugins/privileges.js';
import { PluginMetricsRegistry } from '../plugins/plugin-metrics.js';
import { conversationsView } from '../conversations/conversations-view.js';
import { chatsView } from '../handoff/chats-view.js';
import { EventBus } from '../events/event-bus.js';
import { eventBusControl } from '../events/event-bus-view.js';
import type { SendLookup } from '../plugins/types.js';
import type { BotClient } from '../client/bot-client.js';
import { WakitError } from '../errors/index.js';
import { ClientAdmin } from './client-admin.js';
import { EventLoopMonitor } from './event-loop-monitor.js';
import { FileClientRegistry } from './file-client-registry.js';
import type { ClientRegistry } from './client-registry.js';
import {
  BASE_DIR,
  CLIENT_REGISTRY,
  CLOCK,
  CONFIG,
  ERROR_SINK,
  EVENT_BUS,
  EVENT_LOOP,
  LIFECYCLE,
  LOGGER,
  OUTBOX,
  SESSION_HOLDER,
  SIMULATOR,
  TESTING,
  type QueueFactory,
  type SessionHolder,
} from './tokens.js';
import { CLIENT_ADMIN, CLIENT_MANAGER, FLEET, SEND_LOOKUP } from './service-tokens.js';

/**
 * The session store the `auth` section asks for. The GCS store (and @google-cloud/storage) is
 * loaded on first use, so local setups never pay for it.
 */
function createSessionStore(
  config: Readonly<WakitConfig>,
  baseDir: string,
  logger: Logger,
  holder: SessionHolder | Promise<SessionHolder> = {},
): SessionStore {
  const auth = config.auth;
  if (auth.type === 'local') {
    return new LocalSessionStore(path.resolve(baseDir, auth.dataPath), {
      warn: (message) => logger.warn(message),
    });
  }
  let loading: Promise<SessionStore> | undefined;
  const load = (): Promise<SessionStore> =>
    (loading ??= import('../auth/gcs-store.js').then(
      async ({ GcsSessionStore }) =>
        new GcsSessionStore(
          { ...auth, dataPath: path.resolve(baseDir, auth.dataPath) },
          logger,
          await holder,
        ),
    ));
  return {
    type: 'remote',
    exists: async (client) => (await load()).exists(client),
    read: async (client) => (await load()).read(client),
    write: async (client, data) => (await load()).write(client, data),
    delete: async (client) => (await load()).delete(client),
    acquire: async (client, options) => (await load()).acquire(client, options),
    workDir: async (client) => (await load()).workDir(client),
  };
}

export function sessionStoreOf(c: DependencyContainer): SessionStore {
  return createSessionStore(
    c.resolve(CONFIG),
    c.resolve(BASE_DIR),
    c.resolve(LOGGER),
    c.resolve(SESSION_HOLDER),
  );
}

/** SQLite or memory as `queue` says (a fleet registers the Redis outbox); failures go to the sink. */
export function outboxOf(c: DependencyContainer): OutboxStore {
  const errors = c.resolve(ERROR_SINK);
  return createOutboxStore(c.resolve(CONFIG), c.resolve(BASE_DIR), (error) =>
    errors.report({ source: 'queue', event: 'journal', error }),
  );
}

/** `<auth.dataPath>/clients.json`. */
export function fileClientRegistryOf(c: DependencyContainer): ClientRegistry {
  const logger = c.resolve(LOGGER);
  return new FileClientRegistry(
    path.resolve(c.resolve(BASE_DIR), c.resolve(CONFIG).auth.dataPath),
    {
      warn: (message) => logger.warn(message),
    },
  );
}

/** Each client's queue: paced as `queue` says, journaled in the outbox, asking the client's gate. */
export function queueFactoryOf(c: DependencyContainer): QueueFactory {
  const config = c.resolve(CONFIG).queue;
  const clock = c.resolve(CLOCK);
  const outbox = c.resolve(OUTBOX);
  return ({ client, logger, gate }) =>
    new OutboundQueue({
      client,
      config,
      clock,
      logger,
      ...(gate ? { gate } : {}),
      onChange: (entry) => journalChange(outbox, entry),
      durable: () => outbox.committed(),
    });
}

/** This node of a fleet, if `registerFleet` registered one. */
function fleetIn(c: DependencyContainer) {
  return c.isRegistered(FLEET, true) ? c.resolve(FLEET) : undefined;
}

export function clientAdminOf(c: DependencyContainer): ClientAdmin {
  const lifecycle = c.resolve(LIFECYCLE);
  const fleet = fleetIn(c);
  return new ClientAdmin({
    config: c.resolve(CONFIG),
    manager: c.resolve(CLIENT_MANAGER),
    registry: c.resolve(CLIENT_REGISTRY),
    logger: c.resolve(LOGGER),
    errors: c.resolve(ERROR_SINK),
    phase: () => lifecycle.phase,
    expect: (action, ...allowed) => lifecycle.expect(action, ...allowed),
    ...(fleet ? { start: (client: BotClient) => fleet.startClient(client) } : {}),
  });
}

/** Tracked sends across clients: in memory first, then the outbox. */
export function sendLookupOf(c: DependencyContainer): SendLookup {
  const clients = c.resolve(CLIENT_MANAGER);
  const outbox = c.resolve(OUTBOX);
  return {
    get: async (trackingId) => clients.findSend(trackingId) ?? (await outbox.get(trackingId)),
    list: (query) => outbox.list(query),
    open: async (client) =>
      Object.values(await outbox.countOpen(client)).reduce((sum, n) => sum + n, 0),
    cancel: async (trackingId) => (await clientOf(trackingId)).cancelScheduled(trackingId),
    reschedule: async (trackingId, sendAt) =>
      (await clientOf(trackingId)).reschedule(trackingId, sendAt),
  };
  /** The client a send belongs to (MESSAGE_NOT_FOUND when there is no such send or client). */
  async function clientOf(trackingId: string): Promise<BotClient> {
    const record = await outbox.get(trackingId);
    if (record) return clients.get(record.client);
    throw new WakitError('MESSAGE_NOT_FOUND', `No message with tracking id ${trackingId}`);
  }
}

export function eventLoopOf(c: DependencyContainer): EventLoopMonitor {
  const { watchdog } = c.resolve(CONFIG);
  return new EventLoopMonitor({
    warnMs: watchdog.eventLoopDelayWarnMs,
    checkMs: watchdog.eventLoopCheckMs,
    logger: c.resolve(LOGGER).child({ component: 'watchdog' }),
  });
}

export function pluginHostOf(c: DependencyContainer): PluginHost {
  const lifecycle = c.resolve(LIFECYCLE);
  const fleet = fleetIn(c);
  let schedules: FileScheduleStore | undefined;
  const host: PluginHost = new PluginHost({
    config: c.resolve(CONFIG),
    baseDir: c.resolve(BASE_DIR),
    testing: c.resolve(TESTING),
    logger: c.resolve(LOGGER),
    errors: c.resolve(ERROR_SINK),
    clients: c.resolve(CLIENT_MANAGER),
    clock: c.resolve(CLOCK),
    // recurring jobs: a fleet claims firings in Redis, one server keeps last runs in a file
    schedules: () =>
      fleet
        ? fleet.loading.then((loaded) => loaded.schedules)
        : (schedules ??= new FileScheduleStore(
            path.resolve(c.resolve(BASE_DIR), c.resolve(CONFIG).auth.dataPath),
          )),
    // the token names the bus by what it needs of a client (tokens.ts imports no client code)
    events: c.resolve(EVENT_BUS) as unknown as EventBus<BotClient>,
    // privileged services, granted by name to plugins that declare them (docs/plugins.md); read
    // when used: the fleet and the simulator's network arrive with their lazily loaded code
    services: {
      clientAdmin: c.resolve(CLIENT_ADMIN),
      sends: c.resolve(SEND_LOOKUP),
      lifecycle: lifecycleView(() => lifecycle.phase),
      eventLoop: c.resolve(EVENT_LOOP),
      get fleet() {
        return fleet?.fleet?.view;
      },
      get simulator() {
        return c.resolve(SIMULATOR)?.network;
      },
      // the host's own conversation service: read once the host is built (plugins start after)
      get conversations() {
        return conversationsView(host.conversations);
      },
      schedules: { list: () => host.scheduler.list() },
      get chats() {
        return chatsView(host.handoff, 'api');
      },
      metrics: new PluginMetricsRegistry(),
      eventBus: eventBusControl(c.resolve(EVENT_BUS)),
    },
  });
  return host;
}

/** The core event bus (src/events/): every client's events; in a fleet, through its stream. */
export function eventBusOf(c: DependencyContainer): EventBus<BotClient> {
  const clients = c.resolve(CLIENT_MANAGER);
  const errors = c.resolve(ERROR_SINK);
  const fleet = fleetIn(c);
  return new EventBus({
    onClient: (listener) => clients.onClient(listener),
    report: (error, where) => errors.report({ source: 'plugin', ...where, error }),
    // read when the bus starts (after the fleet's code is loaded: plugins start after it)
    get fleet() {
      return fleet?.fleet?.view.events;
    },
  });
}
