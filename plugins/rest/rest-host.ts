import type * as http from '../../src/entries/http.js';
import { type PluginContext } from '../../src/index.js';

/** The privileged services the REST plugin declares (docs/plugins.md). */
export const REST_PRIVILEGES = [
  'clientAdmin',
  'sends',
  'lifecycle',
  'eventLoop',
  'fleet',
  'conversations',
  'schedules',
  'chats',
  'metrics',
  'eventBus',
] as const satisfies readonly http.PrivilegeName[];

/**
 * What the REST server needs of wakit: three members of its plugin context (of `events`, `report`
 * and the bus's read-only view) and the privileged services it declares (`eventBus` starts the
 * bus's records with the buffer size and the fleet's stream) (tests build one from an Sdk:
 * test/helpers/rest-host.ts).
 */
export type RestHost = Pick<PluginContext, 'clients' | 'env'> & {
  readonly events: Pick<http.PluginEvents, 'report' | 'bus'>;
} & Pick<http.PrivilegedServices, (typeof REST_PRIVILEGES)[number]>;

/** The host from the plugin's context and its granted services (read when used, not copied). */
export function restHost(
  ctx: Pick<PluginContext, 'clients' | 'env' | 'events'>,
  services: Pick<http.PrivilegedServices, (typeof REST_PRIVILEGES)[number]>,
): RestHost {
  const own: Pick<RestHost, 'clients' | 'env' | 'events'> = {
    clients: ctx.clients,
    env: ctx.env,
    events: ctx.events,
  };
  // the services' getters are copied as getters: a service is read when the server uses it
  return Object.defineProperties(own, Object.getOwnPropertyDescriptors(services)) as RestHost;
}
