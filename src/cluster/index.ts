/**
 * The fleet seam: everything of a fleet (`cluster` config) is reached through `registerFleet`,
 * which the SDK loads with `import()` only when `cluster` is configured, so one server never loads
 * Redis (ioredis) or any file of src/cluster. It builds this node of the fleet and registers the
 * fleet variant of each service that has one: one line each.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { ClusterConfig, WakitConfig } from '../config/schema.js';
import type { WakitError } from '../errors/index.js';
import { OUTBOX, PLACEMENT } from '../kernel/tokens.js';
import { Fleet } from './fleet.js';
import type { FleetReport } from './fleet-report.js';
import { createRedisOutbox } from './outbox/create-redis-outbox.js';
import type { Ownership } from './ownership.js';
import { fleetPlacement } from './remote-placement.js';

export interface RegisterFleetOptions {
  config: Readonly<WakitConfig> & { cluster: ClusterConfig };
  logger: Logger;
  /** Testing seam (`SdkOptions.ownership`): which clients this node runs, instead of placement. */
  ownership?: Ownership;
  /** Failures no caller sees (the SDK's error sink). */
  report: FleetReport;
  /** Failures of the outbox's background writes (the SDK reports them). */
  onOutboxError: (error: WakitError) => void;
}

/** Builds this node of the fleet and registers the fleet's services in `container`. */
export function registerFleet(
  container: DependencyContainer,
  options: RegisterFleetOptions,
): Fleet {
  const { config, logger } = options;
  const fleet = new Fleet({ config, logger, report: options.report });
  const outbox = createRedisOutbox(config, options.onOutboxError, logger);
  container.register(OUTBOX, { useValue: outbox });
  container.register(PLACEMENT, {
    useValue: fleetPlacement(options.ownership ?? fleet.placement, outbox),
  });
  return fleet;
}

export type { Fleet, FleetBinding } from './fleet.js';
