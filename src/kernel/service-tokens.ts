/**
 * Tokens of the services built on clients. Apart from ./tokens.ts because their classes (or the
 * clients they hold) inject tokens from there: naming their types there would make an import cycle.
 */
import type { FleetLoader } from './fleet-loader.js';
import type { Governor } from '../governor/governor.js';
import type { PluginHost } from '../plugins/plugin-host.js';
import type { SendLookup } from '../plugins/types.js';
import type { ClientAdmin } from './client-admin.js';
import type { ClientManager } from './client-manager.js';
import { token } from './tokens.js';

/** Creates clients, each in its own child container, and finds them. */
export const CLIENT_MANAGER = token<ClientManager>('clientManager');
/** Clients at run time: add, remove, restart, list, settings. */
export const CLIENT_ADMIN = token<ClientAdmin>('clientAdmin');
/** Tracked sends across clients (memory, then the outbox). */
export const SEND_LOOKUP = token<SendLookup>('sendLookup');
export const PLUGIN_HOST = token<PluginHost>('pluginHost');
/** This node of a fleet, loaded on demand; registered only when `config.cluster` is set. */
export const FLEET = token<FleetLoader>('fleet');
/** The send governor (docs/safety.md); undefined when its preset is `off`. */
export const GOVERNOR = token<Governor | undefined>('governor');
