import type { Sdk } from '../../src/index.js';
import type { ClusterView } from '../../src/entries/cluster.js';
import { lifecycleView } from '../../src/plugins/privileges.js';
import { eventBusControl, eventBusView } from '../../src/events/event-bus-view.js';
import { PluginMetricsRegistry } from '../../src/plugins/plugin-metrics.js';
import type { RestHost } from '../../plugins/rest/rest-host.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';

/**
 * What the REST server gets of wakit (three context members and its declared privileged services),
 * built from an Sdk's public surface: lets tests and benchmarks create a REST server directly (the
 * `rest` plugin passes its real context). `overrides.fleet` puts a hand-made fleet view in place
 * of `sdk.cluster` (fleet tests).
 */
export function restHostOf(sdk: Sdk, overrides: { fleet?: ClusterView } = {}): RestHost {
  return {
    env: {
      name: 'rest',
      config: sdk.config,
      baseDir: sdk.baseDir,
      testing: false,
      now: () => Date.now(),
    },
    clients: {
      list: () => sdk.clients,
      get: (name) => sdk.client(name),
      onClient: (listener) => sdk.onClient(listener),
    },
    events: {
      report: (error, where) =>
        sdk.logger.error({ err: error, ...where }, 'rest: reported failure'),
      bus: eventBusView(sdk.events),
    },
    clientAdmin: sdk.clientAdmin,
    sends: sdk.sends,
    lifecycle: lifecycleView(() => sdk.phase),
    eventLoop: sdk.eventLoop,
    fleet: overrides.fleet ?? sdk.cluster,
    get conversations() {
      return sdk.conversations;
    },
    schedules: { list: () => sdk.plugins.schedules() },
    get chats() {
      return sdk.chats;
    },
    // plugins' own metrics: a server built here serves none (the rest plugin gets the SDK's)
    metrics: new PluginMetricsRegistry(),
    eventBus: eventBusControl(sdk.events),
  };
}
