/**
 * The engine modules, loaded on demand: `import 'wakitjs'` loads neither engine. whatsapp-web.js
 * (and with it puppeteer) loads when a client first starts; the simulator when an Sdk with
 * `engine.type: "simulator"` starts, or earlier when `wakitjs/simulator` is imported (the entry
 * hands its module over here, so `sdk.simulator` is there from `createSdk` on).
 */
import type * as SimulatorModule from './simulator/index.js';
import type * as WwebjsModule from './wwebjs/index.js';

export type SimulatorEngineModule = typeof SimulatorModule;
export type WwebjsEngineModule = typeof WwebjsModule;

let simulator: SimulatorEngineModule | undefined;

/** Hands the simulator's module over (the `wakitjs/simulator` entry does, when imported). */
export function provideSimulator(module: SimulatorEngineModule): void {
  simulator ??= module;
}

/** The simulator's module if this process has loaded it already; undefined otherwise. */
export function loadedSimulator(): SimulatorEngineModule | undefined {
  return simulator;
}

/** Each engine type's module, by `engine.type`; every load after the first is the same module. */
export const engineProviders = {
  'whatsapp-web.js': (): Promise<WwebjsEngineModule> => import('./wwebjs/index.js'),
  simulator: async (): Promise<SimulatorEngineModule> =>
    (simulator ??= await import('./simulator/index.js')),
} as const;
