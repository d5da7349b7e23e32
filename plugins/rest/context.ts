import type { Logger } from 'pino';
import type { RestFleet } from './fleet-view.js';
import type { BotClient } from '../../src/index.js';
import type { RestHost } from './rest-host.js';
import { WakitError } from '../../src/index.js';
import { requireClientAccess, type Principal } from './middleware/auth.js';
import type { ClientWebhooks } from './events/client-webhooks.js';
import type { EventHub } from './events/event-hub.js';
import type { RestMetrics } from './metrics/rest-metrics.js';
import type { RestOptions } from './options.js';
import { requireLocal } from './middleware/forward.js';

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
  const configured = rc.sdk.env.config.clients[0];
  if (configured) return configured;
  const first = rc.sdk.clients.list()[0];
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
  const client = rc.sdk.clients.get(target);
  if (!options.local) requireLocal(rc, target);
  return client;
}

export function visibleClients(rc: RestContext, principal: Principal): BotClient[] {
  return rc.sdk.clients
    .list()
    .filter((c) => principal.clients === '*' || principal.clients.has(c.name));
}
