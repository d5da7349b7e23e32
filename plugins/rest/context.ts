import type { Logger } from 'pino';
import type { RestFleet } from './fleet-view.js';
import type { BotClient, PluginContext } from '../../src/index.js';
import { WakitError } from '../../src/index.js';
import { requireClientAccess, type Principal } from './auth.js';
import type { ClientWebhooks } from './client-webhooks.js';
import type { EventHub } from './event-hub.js';
import type { RestMetrics } from './metrics.js';
import type { RestOptions } from './options.js';
import { requireLocal } from './middleware/forward.js';

/** What the REST server needs of wakit: a part of the plugin context (tests build one from an Sdk). */
export type RestHost = Pick<
  PluginContext,
  | 'config'
  | 'clients'
  | 'client'
  | 'onClient'
  | 'clientAdmin'
  | 'sends'
  | 'simulator'
  | 'report'
  | 'stopping'
  | 'eventLoop'
  | 'cluster'
  | 'events'
> &
  Partial<Pick<PluginContext, 'testing'>>;

/** What route modules share: the host, the options and the server's services. */
export interface RestContext {
  sdk: RestHost;
  /** The fleet as REST asks about it (one server: a fleet of one). */
  fleet: RestFleet;
  options: RestOptions;
  log: Logger;
  hub: EventHub;
  metrics: RestMetrics | undefined;
  /** Webhooks of clients added at run time. */
  clientWebhooks: ClientWebhooks;
  /** Streams opened by `/api/v1/events`, ended by `close()`. */
  streams: Set<{ end(): void }>;
  /** Server life: listening once `listen()` resolved, closing once `close()` began. */
  status: { listening: boolean; closing: boolean };
}

/** The default client: `defaultClient`, else the only or the first configured client. */
export function defaultClientName(rc: RestContext): string {
  if (rc.options.defaultClient) return rc.options.defaultClient;
  const configured = rc.sdk.config.clients[0];
  if (configured) return configured;
  const first = rc.sdk.clients[0];
  if (first) return first.name;
  throw new WakitError('CLIENT_NOT_FOUND', 'No client is configured');
}

/**
 * The named (or default) client, after checking the token may act on it. In a fleet, a client that
 * another node runs makes the request go to that node (`ForwardToOwner`), unless `local` (sends
 * accepted into the shared outbox, look-ups of tracked sends).
 */
export function resolveClient(
  rc: RestContext,
  principal: Principal,
  name?: string,
  options: { local?: boolean } = {},
): BotClient {
  const target = name ?? defaultClientName(rc);
  requireClientAccess(principal, target);
  const client = rc.sdk.client(target);
  if (!options.local) requireLocal(rc, target);
  return client;
}

export function visibleClients(rc: RestContext, principal: Principal): BotClient[] {
  return rc.sdk.clients.filter((c) => principal.clients === '*' || principal.clients.has(c.name));
}
