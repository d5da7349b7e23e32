import 'reflect-metadata';
import {
  Lifecycle as Scope,
  container as globalContainer,
  type DependencyContainer,
} from 'tsyringe';
import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import { DefaultMediaResolver } from '../client/media/default-media-resolver.js';
import { engineForConfig } from '../engines/engine-for-config.js';
import { localPlacement } from '../client/core/client-placement.js';
import type { Ownership } from '../cluster/ownership.js';
import { createGovernor } from '../governor/governor.js';
import type { OutboxStore } from '../queue/outbox/index.js';
import type { FleetLoader } from './fleet-loader.js';
import { SystemClock } from './clock.js';
import { ErrorSink } from './error-sink.js';
import { Lifecycle } from './lifecycle.js';
import { ClientManager } from './client-manager.js';
import {
  clientAdminOf,
  eventBusOf,
  eventLoopOf,
  fileClientRegistryOf,
  outboxOf,
  pluginHostOf,
  queueFactoryOf,
  sendLookupOf,
  sessionStoreOf,
} from './service-factories.js';
import type { EventBus } from '../events/event-bus.js';
import { registerFleet } from './fleet-registrations.js';
import { CONNECTION_SUPERVISOR, SEND_INTAKE, intakeOf, supervisorOf } from './client-services.js';
import { once, perClient } from './provider-scopes.js';
import {
  BASE_DIR,
  CLIENT_NAME,
  CLIENT_REGISTRY,
  CLOCK,
  CONFIG,
  CONTAINER,
  ENGINE,
  ENGINE_FACTORY,
  ERROR_SINK,
  EVENT_BUS,
  EVENT_LOOP,
  LIFECYCLE,
  LOGGER,
  MEDIA_RESOLVER,
  OUTBOUND_QUEUE,
  OUTBOX,
  PLACEMENT,
  QUEUE_FACTORY,
  SEND_GATE,
  SESSION_HOLDER,
  SESSION_STORE,
  SIMULATOR,
  TESTING,
} from './tokens.js';
import {
  CLIENT_ADMIN,
  CLIENT_MANAGER,
  FLEET,
  GOVERNOR,
  PLUGIN_HOST,
  SEND_LOOKUP,
} from './service-tokens.js';

/** What `createSdk` was given: the only values in the container. */
export interface KernelInputs {
  config: Readonly<WakitConfig>;
  baseDir: string;
  logger: Logger;
  testing: boolean;
  /** Testing seam (`SdkOptions.ownership`): which clients this fleet node runs. */
  ownership?: Ownership;
}

/**
 * The root container of one SDK with every default service; nothing is built until resolved.
 * Lifetimes: one per SDK (classes as singletons, factories cached once), or one per client
 * (registered here, built in each client's child container). docs/kernel.md lists them.
 */
export function createRootContainer(inputs: KernelInputs): DependencyContainer {
  const root = globalContainer.createChildContainer();
  root.register(CONFIG, { useValue: inputs.config });
  root.register(BASE_DIR, { useValue: inputs.baseDir });
  root.register(TESTING, { useValue: inputs.testing });
  root.register(LOGGER, { useValue: inputs.logger });
  root.register(CONTAINER, { useFactory: (c) => c });
  root.register(PLACEMENT, { useValue: localPlacement });
  root.register(SESSION_HOLDER, { useValue: {} });

  root.register(CLOCK, { useClass: SystemClock }, { lifecycle: Scope.Singleton });
  root.register(LIFECYCLE, { useClass: Lifecycle }, { lifecycle: Scope.Singleton });
  root.register(CLIENT_MANAGER, { useClass: ClientManager }, { lifecycle: Scope.Singleton });
  root.register(
    ERROR_SINK,
    once((c) => new ErrorSink(c.resolve(LOGGER))),
  );
  root.register(OUTBOX, once(outboxOf));
  root.register(SESSION_STORE, once(sessionStoreOf));
  root.register(
    ENGINE,
    once(() => engineForConfig(inputs.config, inputs.logger, inputs.baseDir)),
  );
  root.register(
    ENGINE_FACTORY,
    once((c) => c.resolve(ENGINE).factory),
  );
  root.register(SIMULATOR, { useFactory: simulatorOf });
  root.register(
    MEDIA_RESOLVER,
    once((c) => new DefaultMediaResolver(c.resolve(CONFIG).media)),
  );
  root.register(CLIENT_REGISTRY, once(fileClientRegistryOf));
  root.register(
    EVENT_BUS,
    once((c) => eventBusOf(c) as unknown as EventBus),
  );
  root.register(QUEUE_FACTORY, once(queueFactoryOf));
  root.register(CLIENT_ADMIN, once(clientAdminOf));
  root.register(SEND_LOOKUP, once(sendLookupOf));
  root.register(EVENT_LOOP, once(eventLoopOf));
  root.register(PLUGIN_HOST, once(pluginHostOf));

  root.register(
    GOVERNOR,
    once((c) =>
      createGovernor(
        c.resolve(CONFIG),
        c.resolve(BASE_DIR),
        c.resolve(LOGGER),
        c.resolve(ERROR_SINK),
      ),
    ),
  );
  // the send governor's gate for the client's account (none when its preset is `off`)
  root.register(
    SEND_GATE,
    perClient((c) => c.resolve(GOVERNOR)?.forClient(c.resolve(CLIENT_NAME))),
  );
  root.register(
    OUTBOUND_QUEUE,
    perClient((c) =>
      c.resolve(QUEUE_FACTORY)({
        client: c.resolve(CLIENT_NAME),
        logger: c.resolve(LOGGER),
        gate: c.resolve(SEND_GATE),
      }),
    ),
  );
  root.register(CONNECTION_SUPERVISOR, perClient(supervisorOf));
  root.register(SEND_INTAKE, perClient(intakeOf));
  if (inputs.config.cluster) registerFleet(root, inputs.ownership);
  return root;
}

/** The simulator's network, unless another engine factory replaced the configured one. */
function simulatorOf(c: DependencyContainer) {
  const engine = c.resolve(ENGINE);
  return c.resolve(ENGINE_FACTORY) === engine.factory ? engine.simulator : undefined;
}

/**
 * Builds the services that hold resources, in this order: the error sink (the outbox reports to
 * it), the outbox, the fleet (its Redis connection) and the session store (in a fleet its lease
 * names the node). The rest are built as the SDK resolves them.
 */
export function resolveCore(root: DependencyContainer): {
  errors: ErrorSink;
  outbox: OutboxStore;
  fleet: FleetLoader | undefined;
} {
  const errors = root.resolve(ERROR_SINK);
  const outbox = root.resolve(OUTBOX);
  const fleet = root.isRegistered(FLEET) ? root.resolve(FLEET) : undefined;
  root.resolve(SESSION_STORE);
  return { errors, outbox, fleet };
}
