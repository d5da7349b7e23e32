/**
 * The ClientRegistry on Redis (cluster mode): `<prefix>:clients`, a hash client name → record JSON.
 * Every node of the fleet reads the same records, so a client added on one node is known (and
 * placed) on all of them, and survives restarts of any node. Records may hold webhook secrets:
 * they are never logged.
 */
import type { Redis } from 'ioredis';
import { WakitError } from '../errors/index.js';
import {
  clientRecordSchema,
  type ClientRecord,
  type ClientRegistry,
} from '../kernel/client-registry.js';

export interface RedisClientRegistryOptions {
  redis: Redis;
  keyPrefix: string;
}

function unavailable(action: string, cause: unknown): WakitError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new WakitError(
    'REGISTRY_UNAVAILABLE',
    `The client registry in Redis could not ${action}: ${reason}`,
    { cause },
  );
}

export class RedisClientRegistry implements ClientRegistry {
  readonly kind = 'redis';
  readonly #redis: Redis;
  readonly #key: string;

  constructor(options: RedisClientRegistryOptions) {
    this.#redis = options.redis;
    this.#key = `${options.keyPrefix}:clients`;
  }

  async list(): Promise<ClientRecord[]> {
    let raw: Record<string, string>;
    try {
      raw = await this.#redis.hgetall(this.#key);
    } catch (error) {
      throw unavailable('be read', error);
    }
    const records: ClientRecord[] = [];
    for (const [name, value] of Object.entries(raw)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
      const result = clientRecordSchema.safeParse(parsed);
      if (!result.success || result.data.name !== name) {
        // The record's content is not shown: it may hold secrets.
        throw new WakitError(
          'REGISTRY_CORRUPT',
          `The client registry in Redis (${this.#key}) holds an invalid record for ${name}`,
          { details: { client: name } },
        );
      }
      records.push(result.data);
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async put(record: ClientRecord): Promise<void> {
    const parsed = clientRecordSchema.parse(record);
    try {
      await this.#redis.hset(this.#key, parsed.name, JSON.stringify(parsed));
    } catch (error) {
      throw unavailable('be written', error);
    }
  }

  async delete(name: string): Promise<void> {
    try {
      await this.#redis.hdel(this.#key, name);
    } catch (error) {
      throw unavailable('be written', error);
    }
  }
}
