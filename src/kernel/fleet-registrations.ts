import type { DependencyContainer } from 'tsyringe';
import { Fleet } from '../cluster/fleet.js';
import { CLIENT_REGISTRY, CONFIG, LOGGER, OWNERSHIP, SESSION_HOLDER } from './tokens.js';
import { FLEET } from './service-tokens.js';
import { once } from './providers.js';
import { WakitError } from '../errors/index.js';

/**
 * A fleet (`cluster` config): the services with a fleet variant, one line each, over the
 * single-server defaults. The Redis outbox is chosen by the OUTBOX factory itself (for now).
 */
export function registerFleet(root: DependencyContainer): void {
  root.register(
    FLEET,
    once((c) => fleetOf(c)),
  );
  root.register(OWNERSHIP, { useFactory: (c) => c.resolve(FLEET).placement });
  root.register(CLIENT_REGISTRY, { useFactory: (c) => c.resolve(FLEET).registry });
  root.register(SESSION_HOLDER, {
    useFactory: (c) => {
      const fleet = c.resolve(FLEET);
      return { holderId: fleet.nodeId, holderUrl: () => fleet.url };
    },
  });
}

function fleetOf(c: DependencyContainer): Fleet {
  const config = c.resolve(CONFIG);
  const cluster = config.cluster;
  if (!cluster) throw new WakitError('CONFIG_INVALID', 'A fleet needs the cluster section');
  return new Fleet({ config: { ...config, cluster }, logger: c.resolve(LOGGER) });
}
