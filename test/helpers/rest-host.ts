import type { ClusterView } from '../../src/entries/cluster.js';
import type { Sdk } from '../../src/index.js';
import type { RestHost } from '../../plugins/rest/context.js';

/**
 * The part of a plugin context the REST server needs, built from an Sdk's public surface: lets
 * tests and benchmarks create a REST server directly (the `rest` plugin passes its real context).
 * `overrides.cluster` puts a hand-made fleet view in place of `sdk.cluster` (fleet tests).
 */
export function restHostOf(sdk: Sdk, overrides: { cluster?: ClusterView } = {}): RestHost {
  return {
    config: sdk.config,
    get clients() {
      return sdk.clients;
    },
    client: (name) => sdk.client(name),
    onClient: (listener) => sdk.onClient(listener),
    clientAdmin: sdk.clientAdmin,
    sends: sdk.sends,
    get stopping() {
      return sdk.phase === 'stopping' || sdk.phase === 'stopped';
    },
    simulator: sdk.config.engine.type === 'simulator' ? sdk.simulator : undefined,
    eventLoop: sdk.eventLoop,
    cluster: overrides.cluster ?? sdk.cluster,
    report: (error, where) => sdk.logger.error({ err: error, ...where }, 'rest: reported failure'),
  };
}
