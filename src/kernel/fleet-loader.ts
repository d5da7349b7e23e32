/**
 * The fleet (`cluster` config) as the SDK sees it: src/cluster is loaded with `import()` here, and
 * only when `cluster` is configured, so one server never loads Redis. Until it is there, the
 * services with a fleet variant that the SDK hands out at once (the outbox, each client's
 * placement, the client registry, the session lease's holder) wait for it.
 */
import { container as globalContainer } from 'tsyringe';
import type { Fleet, FleetBinding, RegisterFleetOptions } from '../cluster/index.js';
import type { BotClient } from '../client/bot-client.js';
import { deferredPlacement, type PlacementFactory } from '../client/core/client-placement.js';
import { DeferredOutbox, type OutboxStore } from '../queue/outbox/index.js';
import type { ClientRegistry } from './client-registry.js';
import { OUTBOX, PLACEMENT, type SessionHolder, type Token } from './tokens.js';

export class FleetLoader {
  /** This node of the fleet, once loaded (rejects when src/cluster cannot be loaded). */
  readonly loading: Promise<Fleet>;
  readonly outbox: OutboxStore;
  readonly placement: PlacementFactory;
  readonly registry: ClientRegistry;
  readonly holder: Promise<SessionHolder>;
  #fleet: Fleet | undefined;

  constructor(options: RegisterFleetOptions) {
    const services = globalContainer.createChildContainer();
    this.loading = import('../cluster/index.js').then(
      ({ registerFleet }) => (this.#fleet = registerFleet(services, options)),
    );
    // not reported: a fleet that fails to load fails sdk.start() with its error
    this.loading.catch(() => undefined);
    const later = <T>(token: Token<T>): Promise<T> =>
      this.loading.then(() => services.resolve(token));
    this.outbox = new DeferredOutbox('redis', later(OUTBOX));
    this.placement = deferredPlacement(later(PLACEMENT));
    const registry = async (): Promise<ClientRegistry> => (await this.loading).registry;
    this.registry = {
      kind: 'redis',
      list: async () => (await registry()).list(),
      put: async (record) => (await registry()).put(record),
      delete: async (name) => (await registry()).delete(name),
    };
    this.holder = this.loading.then((fleet) => ({
      holderId: fleet.nodeId,
      holderUrl: () => fleet.url,
    }));
    // not reported: as `loading` (the same failure)
    this.holder.catch(() => undefined);
  }

  /** Connects the fleet to the SDK's clients once it is loaded. */
  bind(binding: FleetBinding): void {
    this.#whenLoaded((fleet) => fleet.bind(binding));
  }

  /** Starts a client added or restarted at run time, as the fleet places it. */
  startClient(client: BotClient): void {
    this.#whenLoaded((fleet) => fleet.startClient(client));
  }

  /** Calls `use` once the fleet is loaded (a load that failed fails `sdk.start()` instead). */
  #whenLoaded(use: (fleet: Fleet) => void): void {
    // not reported: a load that failed fails sdk.start()
    this.loading.then(use, () => undefined);
  }

  /** This node of the fleet; undefined until loaded. */
  get fleet(): Fleet | undefined {
    return this.#fleet;
  }
}
