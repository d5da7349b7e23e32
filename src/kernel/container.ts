import 'reflect-metadata';
import path from 'node:path';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import type { SessionStore } from '../auth/session-store.js';
import { LocalSessionStore } from '../auth/local-store.js';
import type { EngineFactory } from '../engines/engine.js';
import { DefaultMediaResolver } from '../client/default-media-resolver.js';
import { systemClock } from './clock.js';
import type { ErrorSink } from './error-sink.js';
import type { OutboxStore } from '../queue/outbox/index.js';
import { localPlacement, type PlacementFactory } from '../client/client-placement.js';
import {
  CLOCK,
  CONFIG,
  CONTAINER,
  ENGINE_FACTORY,
  ERROR_SINK,
  OUTBOX,
  PLACEMENT,
  LOGGER,
  MEDIA_RESOLVER,
  SESSION_STORE,
} from './tokens.js';

export interface KernelParts {
  config: Readonly<WakitConfig>;
  baseDir: string;
  logger: Logger;
  engineFactory: EngineFactory;
  store: SessionStore;
  errors: ErrorSink;
  outbox: OutboxStore;
  /** Where each client runs; default: here (one server). */
  placement?: PlacementFactory;
}

/** Who holds a session's lease: a fleet names the node and its address (may come later). */
export interface LeaseHolder {
  holderId?: string;
  holderUrl?: () => string;
}

/**
 * The session store the `auth` section asks for. The GCS store (and @google-cloud/storage) is
 * loaded on first use, so local setups never pay for it.
 */
export function createSessionStore(
  config: Readonly<WakitConfig>,
  baseDir: string,
  logger: Logger,
  holder: LeaseHolder | Promise<LeaseHolder> = {},
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

/** Builds the root container of one SDK: config, logger, clock, session store, engine factory, media. */
export function createRootContainer(parts: KernelParts): DependencyContainer {
  const root = globalContainer.createChildContainer();
  root.register(CONTAINER, { useValue: root });
  root.register(CONFIG, { useValue: parts.config });
  root.register(LOGGER, { useValue: parts.logger });
  root.register(CLOCK, { useValue: systemClock });
  root.register(SESSION_STORE, { useValue: parts.store });
  root.register(ENGINE_FACTORY, { useValue: parts.engineFactory });
  root.register(ERROR_SINK, { useValue: parts.errors });
  root.register(OUTBOX, { useValue: parts.outbox });
  root.register(PLACEMENT, { useValue: parts.placement ?? localPlacement });
  root.register(MEDIA_RESOLVER, { useValue: new DefaultMediaResolver(parts.config.media) });
  return root;
}
