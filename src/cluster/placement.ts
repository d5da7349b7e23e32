/**
 * Placement: which node runs each client of the fleet. A node claims a client by writing
 * `<prefix>:owner:<client>` (SET NX PX, value `{ nodeId, url }`) and renews every claim each
 * heartbeat (expiry 3 heartbeats); the session lease in GCS then guards the session itself. Each
 * round a node takes unowned clients up to its fair share (`ceil(clients / live nodes)`, capped by
 * `maxClients`), each node trying them in its own hashed order so nodes do not race for the same
 * one, and hands clients beyond its share over (stopped, their lease released, the claim deleted)
 * when nodes joined. A node that finds its claim taken stops that client at once.
 *
 * The state of each client a node runs is published in `<prefix>:state` (hash client → state) so
 * every node can show it (`fleetState`).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClientState } from '../client/types.js';
import { toWakitError } from '../errors/index.js';
import type { ClientOwner } from './cluster-view.js';
import { fleetReporter, type FleetReport } from './fleet-report.js';
import type { Ownership } from './ownership.js';
import { Listeners } from '../kernel/listeners.js';

/** The value of `<prefix>:owner:<client>`. */
export interface OwnerRecord {
  nodeId: string;
  url: string;
}

/** Renews a claim of this node (rewriting its URL), re-takes one that lapsed; 0 when another node holds it. */
const RENEW = `
local v = redis.call('GET', KEYS[1])
if v then
  local ok, owner = pcall(cjson.decode, v)
  if not ok or owner.nodeId ~= ARGV[1] then return 0 end
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
if redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3], 'NX') then return 1 end
return 0`;

/** Deletes a claim if this node holds it. */
const RELEASE = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, owner = pcall(cjson.decode, v)
if ok and owner.nodeId == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface PlacementOptions {
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
  heartbeatMs: number;
  maxClients?: number;
  logger: Logger;
  /** Failures no caller sees (the SDK's error sink; logged when absent). */
  report?: FleetReport;
  /** This node's REST URL now. */
  url(): string;
}

/** What placement needs of the node's clients. */
export interface PlacedClients {
  list(): BotClient[];
  find(name: string): BotClient | undefined;
}

export class Placement implements Ownership {
  readonly #o: PlacementOptions;
  readonly #log: Logger;
  readonly #owned = new Set<string>();
  readonly #listeners = new Listeners<[client: string, local: boolean]>((error, client) =>
    this.#report({ source: 'handler', event: 'ownership', client, error }),
  );
  readonly #report: FleetReport;
  #states = new Map<string, ClientState>();
  /** Client → node id of its claim, as of the last round. */
  #nodes = new Map<string, string>();
  #clients: PlacedClients | undefined;

  constructor(options: PlacementOptions) {
    this.#o = options;
    this.#log = options.logger.child({ component: 'placement' });
    this.#report = fleetReporter(options.report, this.#log);
  }

  /** A claim lapses this long after its last renewal (3 heartbeats). */
  get ttlMs(): number {
    return 3 * this.#o.heartbeatMs;
  }

  /** The clients this node runs now, sorted. */
  owned(): string[] {
    return [...this.#owned].sort();
  }

  isLocal(client: string): boolean {
    return this.#owned.has(client);
  }

  fleetState(client: string): ClientState | undefined {
    return this.#owned.has(client) ? undefined : this.#states.get(client);
  }

  /** The node that held `client`'s claim at the last round (this node: at once). */
  nodeOf(client: string): string | undefined {
    return this.#owned.has(client) ? this.#o.nodeId : this.#nodes.get(client);
  }

  onChange(listener: (client: string, local: boolean) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Attaches the node's clients; each one's state changes are published while this node runs it. */
  attach(clients: PlacedClients): void {
    this.#clients = clients;
  }

  /** Publishes `client`'s state changes while this node runs it (call once per client). */
  watch(client: BotClient): void {
    client.on('state', ({ to }) => {
      if (this.#owned.has(client.name)) void this.#publish(client.name, to);
    });
  }

  #key(client: string): string {
    return `${this.#o.keyPrefix}:owner:${client}`;
  }

  #stateKey(): string {
    return `${this.#o.keyPrefix}:state`;
  }

  #value(): string {
    return JSON.stringify({ nodeId: this.#o.nodeId, url: this.#o.url() } satisfies OwnerRecord);
  }

  async #publish(client: string, state: ClientState): Promise<void> {
    try {
      await this.#o.redis.hset(this.#stateKey(), client, state);
    } catch (error) {
      // not reported: a display hint for other nodes; the next state change publishes again
      this.#log.debug({ client, err: toWakitError(error).message }, 'state not published');
    }
  }

  #emit(client: string, local: boolean): void {
    this.#listeners.emit(client, local);
  }

  /** Where `client` runs now, from its claim. */
  async ownerOf(client: string): Promise<ClientOwner | undefined> {
    const [[, raw], [, ttl]] = (await this.#o.redis
      .multi()
      .get(this.#key(client))
      .pttl(this.#key(client))
      .exec()) as [[unknown, string | null], [unknown, number]];
    if (!raw) return undefined;
    const owner = JSON.parse(raw) as OwnerRecord;
    return { nodeId: owner.nodeId, url: owner.url, expiresAt: Date.now() + Math.max(0, ttl) };
  }

  /**
   * One round: renew this node's claims (stopping clients whose claim another node holds now),
   * refresh the fleet's states, then claim or hand over clients towards the fair share among
   * `liveNodes` nodes.
   */
  async round(liveNodes: number): Promise<void> {
    const clients = this.#clients;
    if (!clients) return;
    const redis = this.#o.redis;
    for (const name of [...this.#owned]) {
      if (!clients.find(name)) {
        // removed (here or by another node): give the claim up
        this.#owned.delete(name);
        this.#emit(name, false);
        await redis.eval(RELEASE, 1, this.#key(name), this.#o.nodeId);
        await redis.hdel(this.#stateKey(), name);
        continue;
      }
      const kept = await redis.eval(
        RENEW,
        1,
        this.#key(name),
        this.#o.nodeId,
        this.#value(),
        this.ttlMs,
      );
      if (kept !== 1) this.#lose(name);
    }
    const states = await redis.hgetall(this.#stateKey());
    this.#states = new Map(Object.entries(states) as [string, ClientState][]);

    const names = clients.list().map((client) => client.name);
    const share = Math.ceil(names.length / Math.max(1, liveNodes));
    const cap = Math.min(share, this.#o.maxClients ?? Number.POSITIVE_INFINITY);
    const order = this.#preference(names);
    if (this.#owned.size > cap) {
      const extra = order.filter((name) => this.#owned.has(name)).reverse();
      for (const name of extra.slice(0, this.#owned.size - cap)) await this.#handOver(name);
      return;
    }
    const free = order.filter((name) => !this.#owned.has(name));
    if (free.length === 0) return;
    const claims = await redis.mget(free.map((name) => this.#key(name)));
    this.#nodes = new Map();
    free.forEach((name, index) => {
      const claim = claims[index];
      if (claim) this.#nodes.set(name, (JSON.parse(claim) as OwnerRecord).nodeId);
    });
    for (const [index, name] of free.entries()) {
      if (this.#owned.size >= cap) break;
      if (claims[index] !== null) continue;
      const won = await redis.set(this.#key(name), this.#value(), 'PX', this.ttlMs, 'NX');
      if (won === 'OK') this.#claimed(name);
    }
  }

  /** This node's order of preference among `names`: a hash of node id and name. */
  #preference(names: readonly string[]): string[] {
    const rank = (name: string): string =>
      createHash('sha1').update(`${this.#o.nodeId}\n${name}`).digest('hex');
    return [...names].sort((a, b) => rank(a).localeCompare(rank(b)));
  }

  #claimed(name: string): void {
    const client = this.#clients?.find(name);
    if (!client) return;
    this.#owned.add(name);
    this.#log.info({ client: name, node: this.#o.nodeId }, 'client %s placed on this node', name);
    this.#emit(name, true);
    void this.#publish(name, client.state);
    client.initialize().catch((error: unknown) => {
      this.#report({ source: 'client', event: 'start', client: name, error });
    });
  }

  /** Another node holds the claim now: stop at once. */
  #lose(name: string): void {
    this.#owned.delete(name);
    this.#log.warn({ client: name }, 'client %s is claimed by another node: stopping it', name);
    this.#emit(name, false);
    void this.#clients
      ?.find(name)
      ?.stop()
      .catch((error: unknown) => {
        this.#report({ source: 'fleet', event: 'stop:claimed-elsewhere', client: name, error });
      });
  }

  /** Stops a client (its lease released), then gives up its claim so another node takes it. */
  async #handOver(name: string): Promise<void> {
    this.#owned.delete(name);
    this.#emit(name, false);
    this.#log.info({ client: name }, 'client %s handed over', name);
    await this.#clients
      ?.find(name)
      ?.stop()
      .catch((error: unknown) => {
        this.#report({ source: 'fleet', event: 'stop:hand-over', client: name, error });
      });
    try {
      await this.#o.redis
        .multi()
        .hset(this.#stateKey(), name, 'STOPPED')
        .eval(RELEASE, 1, this.#key(name), this.#o.nodeId)
        .exec();
    } catch (error) {
      // not reported: the claim lapses after its ttl and another node takes the client then
      this.#log.warn({ client: name, err: toWakitError(error).message }, 'claim not released');
    }
  }

  /** Hands every client over at once (the node stops). */
  async handOverAll(): Promise<void> {
    await Promise.all([...this.#owned].map((name) => this.#handOver(name)));
  }
}
