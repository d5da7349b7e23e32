import type { Sdk } from '../../src/index.js';
import type { RestHost } from '../../plugins/rest/context.js';

/**
 * The part of a plugin context the REST server needs, built from an Sdk's public surface: lets
 * tests and benchmarks create a REST server directly (the `rest` plugin passes its real context).
 */
export function restHostOf(sdk: Sdk): RestHost {
  return {
    config: sdk.config,
    get clients() {
      return sdk.clients;
    },
    client: (name) => sdk.client(name),
    onClient: (listener) => sdk.onClient(listener),
    sends: sdk.sends,
    simulator: sdk.config.engine.type === 'simulator' ? sdk.simulator : undefined,
    report: (error, where) => sdk.logger.error({ err: error, ...where }, 'rest: reported failure'),
  };
}
