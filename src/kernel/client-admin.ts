/**
 * Clients managed at run time: add (kept in the ClientRegistry and re-created at the next start),
 * remove (stopped; the session kept or deleted), restart, list with status, and the settings
 * plugins keep with a client (the REST plugin's per-client webhooks). Configured clients
 * (`config.clients`) stay owned by the configuration: they cannot be removed here.
 */
import type { Logger } from 'pino';
import type { BotClient } from '../client/bot-client.js';
import type { ClientInfo, ClientState } from '../client/types.js';
import type { WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import type { ErrorSink } from './error-sink.js';
import { assertClientName, type ClientManager } from './client-manager.js';
import type { ClientRecord, ClientRegistry } from './client-registry.js';
import type { Phase } from './lifecycle.js';
import { Listeners } from './listeners.js';

/**
 * Who owns a client: `config` (named in `config.clients`), `api` (added at run time with
 * `addClient` / `POST /api/v1/clients`: kept in the registry) or `code` (`sdk.createClient`, not
 * kept: the application creates it again).
 */
export type ClientOrigin = 'config' | 'api' | 'code';

/** A client in `listClients()`. */
export interface ClientListing {
  name: string;
  state: ClientState;
  origin: ClientOrigin;
  /** The linked account, once known. */
  me: ClientInfo['me'];
  /** When the client entered its current state. */
  since: string;
  /** When it was added (clients of origin `api`). */
  createdAt?: string;
}

export interface AddClientOptions {
  name: string;
  /** Settings kept with the client, by plugin name (JSON values; e.g. `{ rest: { webhooks } }`). */
  settings?: Record<string, unknown>;
}

export interface RemoveClientOptions {
  /**
   * Also log the client out and delete its saved session (the next client of that name needs a
   * new QR scan). Default false: the session stays, so adding the name again needs no scan.
   */
  deleteSession?: boolean;
}

/** What `ClientAdmin` needs of the SDK. */
export interface ClientAdminDeps {
  config: Readonly<WakitConfig>;
  manager: ClientManager;
  registry: ClientRegistry;
  logger: Logger;
  /** Failures no caller sees (a client that cannot start, a listener that throws). */
  errors: ErrorSink;
  phase(): Phase;
  /** INVALID_STATE unless the SDK is in one of `allowed`. */
  expect(action: string, ...allowed: Phase[]): void;
  /**
   * Starts a client added (or restarted) while the SDK runs; default: initialize it here. A fleet
   * initializes only a client this node runs, and places the others.
   */
  start?(client: BotClient): void;
}

export class ClientAdmin {
  readonly #deps: ClientAdminDeps;
  readonly #log: Logger;
  readonly #configured: ReadonlySet<string>;
  readonly #records = new Map<string, ClientRecord>();
  /** Names being added or removed right now (a second request for one of them is refused). */
  readonly #busy = new Set<string>();
  readonly #listeners = new Listeners<[]>((error) =>
    this.#deps.errors.report({ source: 'handler', event: 'clients.changed', error }),
  );
  #loaded: Promise<void> | undefined;
  #settingsChain: Promise<unknown> = Promise.resolve();

  constructor(deps: ClientAdminDeps) {
    this.#deps = deps;
    this.#log = deps.logger.child({ component: 'clients' });
    this.#configured = new Set(deps.config.clients);
  }

  /** Reads the registry once (again after a failure). REGISTRY_CORRUPT / REGISTRY_UNAVAILABLE. */
  load(): Promise<void> {
    this.#loaded ??= this.#deps.registry.list().then((records) => {
      for (const record of records) this.#records.set(record.name, record);
      if (records.length > 0) this.#changed();
    });
    this.#loaded.catch(() => (this.#loaded = undefined));
    return this.#loaded;
  }

  /**
   * Creates the clients of the registry that do not exist yet (`sdk.start()` does, after the
   * configured ones). A record named like a configured or code-created client is skipped.
   */
  async createSaved(): Promise<void> {
    await this.load();
    for (const record of this.#records.values()) {
      if (this.#configured.has(record.name) || this.#deps.manager.find(record.name)) {
        this.#log.warn(
          { client: record.name },
          'client %s is in the registry and also configured or created by code: the registry entry is ignored',
          record.name,
        );
        continue;
      }
      this.#deps.manager.create(record.name);
    }
  }

  /** The records loaded so far (clients of origin `api`), oldest first. */
  records(): readonly ClientRecord[] {
    return [...this.#records.values()];
  }

  /** The settings a plugin keeps with an `api` client; undefined for other clients. */
  settings(name: string, plugin: string): unknown {
    return this.#records.get(name)?.settings[plugin];
  }

  /** Calls `listener` after the records changed (loaded, added, removed, settings replaced). */
  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  origin(name: string): ClientOrigin {
    if (this.#configured.has(name)) return 'config';
    return this.#records.has(name) ? 'api' : 'code';
  }

  list(): ClientListing[] {
    return this.#deps.manager.list().map((client) => {
      const info = client.info();
      const record = this.#records.get(client.name);
      return {
        name: client.name,
        state: info.state,
        origin: this.origin(client.name),
        me: info.me,
        since: info.since,
        ...(record && !this.#configured.has(client.name) ? { createdAt: record.createdAt } : {}),
      };
    });
  }

  /**
   * Adds a client and keeps it in the registry. Once the SDK is started it initializes at once (a
   * QR follows unless a kept session is restored; failures are logged, the client is FAILED).
   */
  async add(options: AddClientOptions): Promise<BotClient> {
    this.#deps.expect('add a client', 'idle', 'starting', 'started');
    const name: unknown = options?.name;
    assertClientName(name);
    const settings = jsonObject(options.settings ?? {});
    await this.load();
    if (
      this.#configured.has(name) ||
      this.#records.has(name) ||
      this.#deps.manager.find(name) ||
      this.#busy.has(name)
    ) {
      throw new WakitError('CLIENT_EXISTS', `A client named ${name} already exists`, {
        details: { client: name },
      });
    }
    this.#busy.add(name);
    let client: BotClient;
    try {
      const record: ClientRecord = { name, createdAt: new Date().toISOString(), settings };
      await this.#deps.registry.put(record);
      this.#records.set(name, record);
      client = this.#deps.manager.create(name);
    } finally {
      this.#busy.delete(name);
    }
    this.#log.info({ client: name }, 'client %s added', name);
    this.#changed();
    if (this.#deps.phase() !== 'idle') {
      if (this.#deps.start) this.#deps.start(client);
      else this.#initialize(client);
    }
    return client;
  }

  /**
   * Removes a client: it leaves the registry, stops (its waiting sends fail with SHUTTING_DOWN)
   * and, with `deleteSession`, is logged out and its session deleted. Configured clients:
   * CLIENT_NOT_MANAGED.
   */
  async remove(name: string, options: RemoveClientOptions = {}): Promise<void> {
    this.#deps.expect('remove a client', 'idle', 'starting', 'started');
    const client = this.#deps.manager.get(name);
    if (this.#configured.has(name)) {
      throw new WakitError(
        'CLIENT_NOT_MANAGED',
        `Client ${name} is configured (config.clients): remove it from the configuration instead`,
        { details: { client: name, origin: 'config' } },
      );
    }
    if (this.#busy.has(name)) {
      throw new WakitError('INVALID_STATE', `Client ${name} is being removed`, {
        details: { client: name },
      });
    }
    this.#busy.add(name);
    try {
      if (this.#records.has(name)) {
        await this.#deps.registry.delete(name);
        this.#records.delete(name);
      }
      this.#deps.manager.remove(name);
      try {
        if (options.deleteSession) await client.logout();
      } finally {
        await this.#deps.manager.close(client);
      }
    } finally {
      this.#busy.delete(name);
    }
    this.#log.info(
      { client: name, sessionDeleted: options.deleteSession === true },
      'client %s removed',
      name,
    );
    this.#changed();
  }

  /**
   * Takes in the registry as another node of the fleet changed it: creates the clients added
   * there, forgets (stops and closes, session kept) those removed there, and keeps changed
   * settings. Names being added or removed here right now are left alone.
   */
  async sync(records: readonly ClientRecord[]): Promise<void> {
    await this.load();
    const seen = new Set<string>();
    let changed = false;
    for (const record of records) {
      seen.add(record.name);
      if (this.#busy.has(record.name) || this.#configured.has(record.name)) continue;
      const known = this.#records.get(record.name);
      if (!known) {
        if (this.#deps.manager.find(record.name)) continue;
        this.#records.set(record.name, record);
        this.#deps.manager.create(record.name);
        this.#log.info({ client: record.name }, 'client %s added by another node', record.name);
        changed = true;
      } else if (JSON.stringify(known) !== JSON.stringify(record)) {
        this.#records.set(record.name, record);
        changed = true;
      }
    }
    for (const name of [...this.#records.keys()]) {
      if (seen.has(name) || this.#busy.has(name)) continue;
      this.#records.delete(name);
      const client = this.#deps.manager.find(name);
      if (client) {
        this.#deps.manager.remove(name);
        await this.#deps.manager.close(client);
      }
      this.#log.info({ client: name }, 'client %s removed by another node', name);
      changed = true;
    }
    if (changed) this.#changed();
  }

  /** Stops the client (keeping its session) and initializes it again; does not wait for READY. */
  async restart(name: string): Promise<BotClient> {
    this.#deps.expect('restart a client', 'idle', 'starting', 'started');
    const client = this.#deps.manager.get(name);
    await client.stop();
    if (this.#deps.start) this.#deps.start(client);
    else this.#initialize(client);
    return client;
  }

  /**
   * Replaces what `plugin` keeps with an `api` client (undefined deletes it), durably.
   * CLIENT_NOT_MANAGED for configured and code-created clients.
   */
  updateSettings(name: string, plugin: string, value: unknown): Promise<void> {
    // one change at a time: two plugins changing their settings of one client both land
    const run = this.#settingsChain.then(() => this.#updateSettings(name, plugin, value));
    // not reported: the caller awaits `run` and gets the failure
    this.#settingsChain = run.catch(() => undefined);
    return run;
  }

  async #updateSettings(name: string, plugin: string, value: unknown): Promise<void> {
    this.#deps.manager.get(name);
    const record = this.#records.get(name);
    if (!record || this.#configured.has(name)) {
      throw new WakitError(
        'CLIENT_NOT_MANAGED',
        `Client ${name} was not added at run time (it is ${this.origin(name) === 'config' ? 'configured' : 'created by code'}): it has no settings of its own`,
        { details: { client: name, origin: this.origin(name) } },
      );
    }
    const settings = { ...record.settings };
    if (value === undefined) delete settings[plugin];
    else settings[plugin] = jsonValue(value);
    const next: ClientRecord = { ...record, settings };
    await this.#deps.registry.put(next);
    this.#records.set(name, next);
    this.#changed();
  }

  #initialize(client: BotClient): void {
    client.initialize().catch((error: unknown) => {
      this.#deps.errors.report({ source: 'client', event: 'start', client: client.name, error });
    });
  }

  #changed(): void {
    this.#listeners.emit();
  }
}

/** A deep copy of a JSON value; VALIDATION_FAILED for anything JSON cannot hold. */
function jsonValue(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new WakitError('VALIDATION_FAILED', 'Client settings must be JSON values', {
      issues: [{ path: 'settings', message: 'must be a JSON value' }],
    });
  }
  return JSON.parse(text) as unknown;
}

function jsonObject(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new WakitError('VALIDATION_FAILED', 'Client settings must be an object', {
      issues: [{ path: 'settings', message: 'must be an object keyed by plugin name' }],
    });
  }
  return jsonValue(value) as Record<string, unknown>;
}
