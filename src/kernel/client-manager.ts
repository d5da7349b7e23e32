import { inject, injectable, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { BotClient } from '../client/bot-client.js';
import { internalsOf } from '../client/core/client-internals.js';
import type { TrackedSend } from '../queue/index.js';
import { CLIENT_NAME_PATTERN } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import { CLIENT_NAME, CONTAINER, ERROR_SINK, LOGGER } from './tokens.js';
import type { ErrorSink } from './error-sink.js';
import { callSafely, Listeners } from './listeners.js';

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

/**
 * Creates clients and finds them. Each client lives in its own child container: its name and
 * logger are registered there, and the per-client services (its outbound queue, its send gate)
 * are built there, one each; the container is disposed when the client is closed.
 */
@injectable()
export class ClientManager {
  readonly #clients = new Map<string, BotClient>();
  readonly #scopes = new Map<BotClient, DependencyContainer>();
  readonly #listeners = new Listeners<[client: BotClient]>((error, client) =>
    this.#listenerFailed(error, client),
  );

  constructor(
    @inject(CONTAINER) private readonly root: DependencyContainer,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(ERROR_SINK) private readonly errors: ErrorSink,
  ) {}

  create(name: unknown): BotClient {
    assertClientName(name);
    if (this.#clients.has(name)) {
      throw new WakitError('CLIENT_EXISTS', `A client named ${name} already exists`, {
        details: { client: name },
      });
    }
    const child = this.root.createChildContainer();
    child.register(CLIENT_NAME, { useValue: name });
    child.register(LOGGER, {
      useFactory: instanceCachingFactory(() => this.logger.child({ client: name })),
    });
    const client = child.resolve(BotClient);
    this.#clients.set(name, client);
    this.#scopes.set(client, child);
    this.#listeners.emit(client);
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
    for (const client of this.#clients.values()) {
      callSafely(listener, [client], (error) => this.#listenerFailed(error, client));
    }
    return this.#listeners.add(listener);
  }

  /** An `onClient` listener threw (or rejected): the sink hears it, the other listeners still run. */
  #listenerFailed(error: unknown, client: BotClient): void {
    this.errors.report({ source: 'handler', event: 'client', client: client.name, error });
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

  /** Closes a client (stopped, its queue closed) and disposes its child container. */
  async close(client: BotClient): Promise<void> {
    await internalsOf(client).close();
    const scope = this.#scopes.get(client);
    this.#scopes.delete(client);
    await scope?.dispose();
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.list().map((client) => this.close(client)));
  }
}
