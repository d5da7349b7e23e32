import type { DependencyContainer } from 'tsyringe';
import type { Ownership } from '../cluster/ownership.js';
import { WakitError } from '../errors/index.js';
import { FleetLoader } from './fleet-loader.js';
import {
  CLIENT_REGISTRY,
  CONFIG,
  ERROR_SINK,
  LOGGER,
  OUTBOX,
  PLACEMENT,
  SESSION_HOLDER,
} from './tokens.js';
import { FLEET } from './service-tokens.js';
import { once } from './provider-scopes.js';

/**
 * A fleet (`cluster` config): the services with a fleet variant, one line each, over the
 * single-server defaults. The fleet's code (src/cluster, ioredis) is loaded with `import()` by
 * the FleetLoader; until it is there, these services wait for it (docs/scaling.md, the fleet seam).
 */
export function registerFleet(root: DependencyContainer, ownership?: Ownership): void {
  root.register(
    FLEET,
    once((c) => fleetLoaderOf(c, ownership)),
  );
  root.register(
    OUTBOX,
    once((c) => c.resolve(FLEET).outbox),
  );
  root.register(PLACEMENT, { useFactory: (c) => c.resolve(FLEET).placement });
  root.register(CLIENT_REGISTRY, { useFactory: (c) => c.resolve(FLEET).registry });
  root.register(SESSION_HOLDER, { useFactory: (c) => c.resolve(FLEET).holder });
}

function fleetLoaderOf(c: DependencyContainer, ownership: Ownership | undefined): FleetLoader {
  const config = c.resolve(CONFIG);
  const cluster = config.cluster;
  if (!cluster) throw new WakitError('CONFIG_INVALID', 'A fleet needs the cluster section');
  const errors = c.resolve(ERROR_SINK);
  return new FleetLoader({
    config: { ...config, cluster },
    logger: c.resolve(LOGGER),
    report: (report) => errors.report(report),
    onOutboxError: (error) => errors.report({ source: 'queue', event: 'journal', error }),
    ...(ownership ? { ownership } : {}),
  });
}
