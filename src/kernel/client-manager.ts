import { inject, injectable, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { BotClient } from '../client/bot-client.js';
import { internalsOf } from '../client/client-internals.js';
import type { TrackedSend } from '../queue/index.js';
import { CLIENT_NAME_PATTERN, type WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import { OutboundQueue } from '../queue/index.js';
import {
  CLIENT_NAME,
  CLOCK,
  CONFIG,
  CONTAINER,
  GOVERNOR,
  LOGGER,
  OUTBOUND_QUEUE,
  OUTBOX,
} from './tokens.js';
import { journalChange, type OutboxStore } from '../queue/outbox/index.js';
import type { Clock } from './clock.js';

/** VALIDATION_FAILED unless `name` is a valid client name (1-64 of A-Z, a-z, 0-9, _ and -). */
export function assertClientName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !CLIENT_NAME_PATTERN.test(name)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Client name ${JSON.stringify(name)} is invalid: use 1-64 characters of A-Z, a-z, 0-9, _ and -`,
      { issues: [{ path: 'name', message: 'must match ^[A-Za-z0-9_-]{1,64}$' }] },
    );
  }
}

/** Creates clients, one child container each (own name, logger and outbound queue), and finds them. */
@injectable()
export class ClientManager {
  readonly #clients = new Map<string, BotClient>();
  readonly #listeners = new Set<(client: BotClient) => void>();

  constructor(
    @inject(CONTAINER) private readonly root: DependencyContainer,
    @inject(CONFIG) private readonly config: Readonly<WakitConfig>,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(OUTBOX) private readonly outbox: OutboxStore,
  ) {}

  create(name: unknown): BotClient {
    assertClientName(name);
    if (this.#clients.has(name)) {
      throw new WakitError('CLIENT_EXISTS', `A client named ${name} already exists`, {
        details: { client: name },
      });
    }
    const child = this.root.createChildContainer();
    const log = this.logger.child({ client: name });
    child.register(CLIENT_NAME, { useValue: name });
    child.register(LOGGER, { useValue: log });
    const governor = this.root.isRegistered(GOVERNOR, true) ? this.root.resolve(GOVERNOR) : null;
    child.register(OUTBOUND_QUEUE, {
      useValue: new OutboundQueue({
        client: name,
        config: this.config.queue,
        clock: this.clock,
        logger: log,
        onChange: (entry) => journalChange(this.outbox, entry),
        durable: () => this.outbox.committed(),
        ...(governor ? { gate: governor.forClient(name) } : {}),
      }),
    });
    const client = child.resolve(BotClient);
    this.#clients.set(name, client);
    for (const listener of this.#listeners) listener(client);
    return client;
  }

  get(name: string): BotClient {
    const client = this.#clients.get(name);
    if (!client) {
      throw new WakitError('CLIENT_NOT_FOUND', `No client named ${name}`, {
        details: { client: name },
      });
    }
    return client;
  }

  /** Forgets the client (it is no longer found nor listed); the caller stops and closes it. */
  remove(name: string): BotClient {
    const client = this.get(name);
    this.#clients.delete(name);
    return client;
  }

  find(name: string): BotClient | undefined {
    return this.#clients.get(name);
  }

  list(): BotClient[] {
    return [...this.#clients.values()];
  }

  /** Calls `listener` for every client, those that exist now and those created later. */
  onClient(listener: (client: BotClient) => void): () => void {
    for (const client of this.#clients.values()) listener(client);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A tracked send of any client by its tracking id. */
  findSend(trackingId: string): TrackedSend | undefined {
    for (const client of this.#clients.values()) {
      const record = internalsOf(client).getSend(trackingId);
      if (record) return record;
    }
    return undefined;
  }

  async drainAll(deadlineMs: number): Promise<void> {
    await Promise.all(this.list().map((client) => internalsOf(client).drain(deadlineMs)));
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((client) => internalsOf(client).close()));
  }
}
