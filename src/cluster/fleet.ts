/**
 * One node of a fleet (`cluster` config), put together: the Redis connection, membership, the
 * placement of clients (the `Ownership` the kernel gets), the client registry on Redis and the
 * `ClusterView` plugins see. Each heartbeat the node takes in registry changes of other nodes,
 * places clients, and announces itself. The SDK builds one in cluster mode (src/sdk.ts).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClusterConfig, WakitConfig } from '../config/schema.js';
import { toWakitError } from '../errors/index.js';
import type { ClientAdmin } from '../kernel/client-admin.js';
import type { ClusterView } from './cluster-view.js';
import { fleetReporter, type FleetReport } from './fleet-report.js';
import { Membership } from './membership.js';
import { nodeIdOf } from './node-id.js';
import { Placement, type PlacedClients } from './placement.js';
import { RedisEventStream } from './redis-event-stream.js';
import { RedisClientRegistry } from './redis-client-registry.js';
import { RedisScheduleStore } from './redis-schedule-store.js';
import { closeRedis, createRedis, redisUnavailable } from './redis-connection.js';

export interface FleetOptions {
  config: Readonly<WakitConfig> & { cluster: ClusterConfig };
  logger: Logger;
  /** Failures no caller sees (the SDK's error sink; logged when absent). */
  report?: FleetReport;
}

/** What the fleet needs of the SDK once its clients exist. */
export interface FleetBinding {
  clients: PlacedClients & { onClient(listener: (client: BotClient) => void): () => void };
  admin: ClientAdmin;
}

/** `http://<host>:<port>` of the REST plugin's configured address, if it has a fixed port. */
export function restUrlFromConfig(config: Readonly<WakitConfig>): string {
  const rest = config.plugins.rest as { port?: unknown; host?: unknown } | undefined;
  if (!rest || typeof rest !== 'object') return '';
  const port = rest.port === undefined ? 3000 : rest.port;
  if (typeof port !== 'number' || port === 0) return '';
  return `http://${advertisedHost(typeof rest.host === 'string' ? rest.host : '127.0.0.1')}:${port}`;
}

/** A listen address as others reach it: wildcard addresses become loopback. */
export function advertisedHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0' || bare === '') return '127.0.0.1';
  if (bare === '::') return '[::1]';
  return bare.includes(':') ? `[${bare}]` : bare;
}

/** A stand-in until the fleet's event stream is wired: publishing fails clearly, subscribers get nothing. */
export class Fleet {
  readonly nodeId: string;
  readonly redis: Redis;
  readonly registry: RedisClientRegistry;
  readonly placement: Placement;
  readonly membership: Membership;
  /** Recurring jobs' claims: each firing runs on one node of the fleet. */
  readonly schedules: RedisScheduleStore;
  readonly view: ClusterView;
  readonly #cluster: ClusterConfig;
  readonly #log: Logger;
  #url: string;
  #binding: FleetBinding | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #frozen = false;
  #failing = false;
  readonly #events: RedisEventStream;
  readonly #report: FleetReport;

  constructor(options: FleetOptions) {
    const cluster = options.config.cluster;
    this.#cluster = cluster;
    this.nodeId = nodeIdOf(cluster);
    this.#log = options.logger.child({ component: 'fleet', node: this.nodeId });
    this.#report = fleetReporter(options.report, this.#log);
    this.#url = cluster.advertiseUrl?.replace(/\/+$/, '') ?? restUrlFromConfig(options.config);
    this.redis = createRedis({
      url: cluster.url,
      name: `wakit:${this.nodeId}:placement`,
      logger: this.#log,
    });
    const common = { redis: this.redis, keyPrefix: cluster.keyPrefix, nodeId: this.nodeId };
    this.registry = new RedisClientRegistry(common);
    this.schedules = new RedisScheduleStore(common);
    this.membership = new Membership({ ...common, heartbeatMs: cluster.heartbeatMs });
    this.placement = new Placement({
      ...common,
      heartbeatMs: cluster.heartbeatMs,
      ...(cluster.maxClients === undefined ? {} : { maxClients: cluster.maxClients }),
      logger: options.logger,
      report: this.#report,
      url: () => this.#url,
    });
    const placement = this.placement;
    const membership = this.membership;
    const events = new RedisEventStream({
      url: cluster.url,
      keyPrefix: cluster.keyPrefix,
      nodeId: this.nodeId,
      logger: options.logger,
      report: this.#report,
    });
    this.#events = events;
    this.view = {
      nodeId: this.nodeId,
      isLocal: (client) => placement.isLocal(client),
      advertise: (url) => {
        if (!cluster.advertiseUrl) this.#url = url.replace(/\/+$/, '');
      },
      stateOf: (client) => placement.fleetState(client),
      nodeOf: (client) => placement.nodeOf(client),
      ownerOf: (client) =>
        placement.ownerOf(client).catch((error: unknown) => {
          throw redisUnavailable('tell who runs the client', error);
        }),
      nodes: () =>
        membership.nodes().catch((error: unknown) => {
          throw redisUnavailable('list the nodes', error);
        }),
      events,
    };
  }

  /** This node's REST URL as other nodes reach it ('' while unknown). */
  get url(): string {
    return this.#url;
  }

  /** Connects the fleet to the SDK's clients (once they exist). */
  bind(binding: FleetBinding): void {
    this.#binding = binding;
    this.placement.attach(binding.clients);
    binding.clients.onClient((client) => this.placement.watch(client));
  }

  /** Waits until Redis answers (start-up reads the registry from it); STORAGE_UNAVAILABLE after `timeoutMs`. */
  async connect(timeoutMs = 10_000): Promise<void> {
    const redis = this.redis;
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', ready);
        reject(redisUnavailable('be reached', new Error(`not ready within ${timeoutMs} ms`)));
      }, timeoutMs);
      const ready = (): void => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', ready);
    });
  }

  /** Joins the fleet: announces this node, places clients once, then every heartbeat. */
  async start(): Promise<void> {
    try {
      await this.membership.announce(this.#url, []);
    } catch (error) {
      // not reported: the heartbeat right after announces again (and says when it fails)
      this.#log.warn({ err: toWakitError(error).message }, 'could not announce this node yet');
    }
    await this.#heartbeat();
    this.#schedule();
  }

  /**
   * Starts a client added or restarted at run time: initialized here if this node runs it, else
   * placed by the next round (the node that claims it initializes it).
   */
  startClient(client: BotClient): void {
    if (this.placement.isLocal(client.name)) {
      client.initialize().catch((error: unknown) => {
        this.#report({ source: 'client', event: 'start', client: client.name, error });
      });
    } else {
      this.kick();
    }
  }

  /** Runs a round soon (a client was added here). */
  kick(): void {
    if (this.#frozen) return;
    void this.#heartbeat();
  }

  /** Stops placing clients (the node is stopping). */
  freeze(): void {
    this.#frozen = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Hands every client over at once and leaves the fleet (the node stops). */
  async handOver(): Promise<void> {
    this.freeze();
    // not reported: a heartbeat that fails says so itself, and is retried by the next one
    await this.#running?.catch(() => undefined);
    await this.placement.handOverAll();
    try {
      await this.membership.leave();
    } catch (error) {
      // the others count this node until its heartbeat lapses
      this.#report({ source: 'fleet', event: 'leave', error });
    }
    this.#log.info('left the fleet');
  }

  async close(): Promise<void> {
    this.freeze();
    // not reported: the node is stopping; its Redis connections close right after
    await this.#events.close().catch((error: unknown) => {
      this.#log.warn({ err: toWakitError(error).message }, 'fleet event stream not closed');
    });
    await closeRedis(this.redis);
  }

  #schedule(): void {
    if (this.#frozen) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#heartbeat().finally(() => this.#schedule());
    }, this.#cluster.heartbeatMs);
    this.#timer.unref();
  }

  /** One heartbeat at a time; one asked for while another runs follows it. */
  #heartbeat(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const run = this.#round().finally(() => {
      this.#running = undefined;
      if (this.#again && !this.#frozen) {
        this.#again = false;
        void this.#heartbeat();
      }
    });
    this.#running = run;
    return run;
  }

  async #round(): Promise<void> {
    const binding = this.#binding;
    if (!binding || this.#frozen) return;
    try {
      await binding.admin.sync(await this.registry.list());
      await this.placement.round(await this.membership.liveCount());
      await this.membership.announce(this.#url, this.placement.owned());
      if (this.#failing) this.#log.info('fleet heartbeat works again');
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) {
        this.#log.warn(
          { err: toWakitError(error).message },
          'fleet heartbeat failed; clients keep running, retrying',
        );
      }
      this.#failing = true;
    }
  }
}
