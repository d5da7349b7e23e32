/**
 * The simulator's REST routes (`/api/v1/simulator/...`, docs/simulator.md) as a plugin of their own,
 * shipped with the `wakitjs/simulator` entry: schema-typed routes through `ctx.http`, like any
 * plugin's. wakit adds it when `engine.type` is `simulator` and the REST plugin is enabled; its
 * routes are served under `/api/v1/simulator` (not `/api/v1/plugins/simulator`).
 */
import { definePlugin } from '../index.js';
import type { PluginHttp } from '../entries/http.js';
import type { SimulatorNetwork } from '../engines/simulator/index.js';
import { actionRoutes } from './action-routes.js';
import { phoneRoutes, type QrOf } from './phone-routes.js';

/** Adds the simulator's routes to `http` (the plugin does; tests mount them on a bare server). */
export function simulatorRoutes(
  http: Pick<PluginHttp, 'route'>,
  simulator: SimulatorNetwork,
  qrOf: QrOf,
): void {
  phoneRoutes(http, simulator, qrOf);
  actionRoutes(http, simulator);
}

export const simulatorPlugin = definePlugin({
  name: 'simulator',
  version: '1.0.0',
  // its routes are served by the REST plugin: without it, wakit does not add this plugin
  dependencies: ['rest'],
  privileges: ['simulator'],
  setup(ctx, { simulator }) {
    // undefined when an engine factory of the caller's replaced the simulator's
    if (!simulator) return;
    simulatorRoutes(ctx.http, simulator, (client) => ctx.events.bus.qr(client));
  },
});
