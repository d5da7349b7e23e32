/**
 * The engine modules, loaded on demand: `import 'wakitjs'` loads neither engine. whatsapp-web.js
 * (and with it puppeteer) loads when a client first starts; the simulator when an Sdk with
 * `engine.type: "simulator"` starts, or earlier when `wakitjs/simulator` is imported (the entry
 * hands its module over here, so `sdk.simulator` is there from `createSdk` on). The simulator's
 * entry also hands over the plugin of its REST routes (src/simulator-plugin/).
 */
import type * as SimulatorModule from './simulator/index.js';
import type * as WwebjsModule from './wwebjs/index.js';

export type SimulatorEngineModule = typeof SimulatorModule;
export type WwebjsEngineModule = typeof WwebjsModule;

let simulator: SimulatorEngineModule | undefined;
/** A `Plugin` (src/plugins/types.ts), opaque here: src/engines does not reach the plugin types. */
export type BundledPlugin = object;

let simulatorPlugin: BundledPlugin | undefined;

/** Hands the simulator's module and its plugin over (the `wakitjs/simulator` entry, when imported). */
export function provideSimulator(module: SimulatorEngineModule, plugin: BundledPlugin): void {
  simulator ??= module;
  simulatorPlugin ??= plugin;
}

/** The plugin serving the simulator's REST routes, once the simulator is loaded. */
export function loadedSimulatorPlugin(): BundledPlugin | undefined {
  return simulatorPlugin;
}

/** The simulator's module if this process has loaded it already; undefined otherwise. */
export function loadedSimulator(): SimulatorEngineModule | undefined {
  return simulator;
}

/** Each engine type's module, by `engine.type`; every load after the first is the same module. */
export const engineProviders = {
  'whatsapp-web.js': (): Promise<WwebjsEngineModule> => import('./wwebjs/index.js'),
  // the engine's module and the entry's plugin of its REST routes (the same module graph)
  simulator: async (): Promise<SimulatorEngineModule> => {
    if (!simulator) {
      const [module, entry] = await Promise.all([
        import('./simulator/index.js'),
        import('../entries/simulator.js'),
      ]);
      provideSimulator(module, entry.simulatorPlugin);
    }
    return simulator as SimulatorEngineModule;
  },
} as const;
