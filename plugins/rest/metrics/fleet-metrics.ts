/**
 * Gauges of the fleet and the outbox for `/metrics`: `wakit_outbox_depth{client}` (unfinished sends
 * in the outbox, every node's accepts in a fleet), and in cluster mode `wakit_cluster_nodes` (live
 * nodes) and `wakit_cluster_clients{node}` (clients each node runs). Read when scraped; a store
 * that cannot be read leaves the gauge empty rather than failing the scrape.
 */
import { Gauge, type Registry } from 'prom-client';
import type { RestHost } from '../rest-host.js';
import type { RestFleet } from '../fleet-view.js';

export function registerFleetGauges(registry: Registry, sdk: RestHost, fleet: RestFleet): void {
  const registers = [registry];
  new Gauge({
    name: 'wakit_outbox_depth',
    help: 'Unfinished sends in the outbox per client (the shared outbox in a fleet)',
    labelNames: ['client'],
    registers,
    async collect() {
      this.reset();
      await Promise.all(
        sdk.clients.list().map(async (client) => {
          // not reported: a gauge without a value while Redis is away (metrics are read again)
          const open = await sdk.sends.open(client.name).catch(() => undefined);
          if (open !== undefined) this.set({ client: client.name }, open);
        }),
      );
    },
  });
  const cluster = fleet.view;
  if (!cluster) return;
  // not reported: a gauge without a value while Redis is away (metrics are read again)
  const nodes = () => cluster.nodes().catch(() => undefined);
  new Gauge({
    name: 'wakit_cluster_nodes',
    help: 'Live nodes of the fleet',
    registers,
    async collect() {
      const live = await nodes();
      if (live) this.set(live.length);
    },
  });
  new Gauge({
    name: 'wakit_cluster_clients',
    help: 'Clients each node of the fleet runs',
    labelNames: ['node'],
    registers,
    async collect() {
      this.reset();
      const live = await nodes();
      if (!live) return;
      for (const node of live) this.set({ node: node.nodeId }, node.clients.length);
    },
  });
}
