/**
 * Fleet membership: every node announces itself each heartbeat in `<prefix>:nodes` (a sorted set,
 * node id → the time its announcement lapses) and `<prefix>:node:<id>` (its record, expiring
 * likewise). A node silent for 3 heartbeats is gone: its entry lapses and is pruned by the next
 * announcement of any node. A stopping node removes itself at once.
 */
import type { Redis } from 'ioredis';
import type { FleetNode } from './cluster-view.js';

/** The record of a node in `<prefix>:node:<id>`. */
export interface NodeRecord {
  nodeId: string;
  /** Its REST base URL ('' until known). */
  url: string;
  /** Clients it runs now. */
  clients: string[];
  /** ISO 8601 time it joined. */
  startedAt: string;
}

export interface MembershipOptions {
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
  heartbeatMs: number;
  clock?: () => number;
}

export class Membership {
  readonly #o: MembershipOptions;
  readonly #now: () => number;
  readonly startedAt = new Date().toISOString();

  constructor(options: MembershipOptions) {
    this.#o = options;
    this.#now = options.clock ?? Date.now;
  }

  /** A node's announcement lapses this long after it was made (3 heartbeats). */
  get ttlMs(): number {
    return 3 * this.#o.heartbeatMs;
  }

  #nodesKey(): string {
    return `${this.#o.keyPrefix}:nodes`;
  }

  #nodeKey(id: string): string {
    return `${this.#o.keyPrefix}:node:${id}`;
  }

  /** Announces this node (its URL and clients) for another `ttlMs`; prunes lapsed nodes. */
  async announce(url: string, clients: readonly string[]): Promise<void> {
    const now = this.#now();
    const record: NodeRecord = {
      nodeId: this.#o.nodeId,
      url,
      clients: [...clients].sort(),
      startedAt: this.startedAt,
    };
    await this.#o.redis
      .multi()
      .set(this.#nodeKey(this.#o.nodeId), JSON.stringify(record), 'PX', this.ttlMs)
      .zadd(this.#nodesKey(), now + this.ttlMs, this.#o.nodeId)
      .zremrangebyscore(this.#nodesKey(), '-inf', now)
      .exec();
  }

  /** Every live node with its record, ordered by node id. */
  async nodes(): Promise<FleetNode[]> {
    const redis = this.#o.redis;
    const entries = await redis.zrangebyscore(this.#nodesKey(), this.#now(), '+inf', 'WITHSCORES');
    const ids: string[] = [];
    const expiry = new Map<string, number>();
    for (let i = 0; i < entries.length; i += 2) {
      ids.push(entries[i]);
      expiry.set(entries[i], Number(entries[i + 1]));
    }
    if (ids.length === 0) return [];
    const records = await redis.mget(ids.map((id) => this.#nodeKey(id)));
    const nodes: FleetNode[] = [];
    ids.forEach((id, index) => {
      const raw = records[index];
      if (!raw) return;
      const record = JSON.parse(raw) as NodeRecord;
      nodes.push({ ...record, nodeId: id, expiresAt: expiry.get(id) ?? 0 });
    });
    return nodes.sort((a, b) => a.nodeId.localeCompare(b.nodeId));
  }

  /** How many nodes are live now (at least 1: this one counts while it runs). */
  async liveCount(): Promise<number> {
    const count = await this.#o.redis.zcount(this.#nodesKey(), this.#now(), '+inf');
    return Math.max(1, count);
  }

  /** Removes this node from the fleet at once (stop). */
  async leave(): Promise<void> {
    await this.#o.redis
      .multi()
      .zrem(this.#nodesKey(), this.#o.nodeId)
      .del(this.#nodeKey(this.#o.nodeId))
      .exec();
  }
}
