import type { ClusterView } from '../../cluster/cluster-view.js';
import type { BotClient } from '../bot-client.js';

/** What the check needs of the SDK (or of a plugin's context). */
export interface ClientsView {
  readonly clients: readonly BotClient[];
  readonly cluster: ClusterView | undefined;
}

export interface AllFailed {
  /** The clients this server runs, every one FAILED. */
  clients: BotClient[];
  /** When the last of them became FAILED. */
  since: Date;
}

/**
 * Whether every client this server runs (in a fleet: those placed on this node; at least one) is
 * FAILED, which nothing but a restart recovers: `wakit start` exits on it
 * (`watchdog.exitOnAllFailed`) and `/healthz` reports it after `watchdog.failedGraceMs`.
 * Undefined while any of them is not FAILED.
 */
export function allClientsFailed(view: ClientsView): AllFailed | undefined {
  const cluster = view.cluster;
  const clients = view.clients.filter((client) => !cluster || cluster.isLocal(client.name));
  if (clients.length === 0 || clients.some((client) => client.state !== 'FAILED')) return undefined;
  const since = new Date(Math.max(...clients.map((client) => Date.parse(client.info().since))));
  return { clients, since };
}
