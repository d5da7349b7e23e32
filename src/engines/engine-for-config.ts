import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import { WakitError } from '../errors/index.js';
import type { EngineFactory } from './engine.js';
import type { SimulatorEngineConfig, SimulatorNetwork } from './simulator/index.js';
import {
  engineProviders,
  loadedSimulator,
  loadedSimulatorPlugin,
  type BundledPlugin,
  type SimulatorEngineModule,
} from './engine-loader.js';

/** The simulator's network of an Sdk: there once the simulator's module is loaded. */
export interface SimulatorSlot {
  readonly network: SimulatorNetwork | undefined;
  /** The plugin of the simulator's REST routes, once loaded (the Sdk bundles it at start). */
  readonly plugin: BundledPlugin | undefined;
  /** Loads the module (once per process) and creates the network (once per Sdk). */
  load(): Promise<SimulatorNetwork>;
}

/**
 * `sdk.simulator`: the network once its module is loaded; INVALID_STATE before (import
 * `wakitjs/simulator` first, or start the Sdk); NOT_SUPPORTED with another engine.
 */
export function networkOf(slot: SimulatorSlot | undefined): SimulatorNetwork {
  if (!slot) {
    throw new WakitError('NOT_SUPPORTED', 'sdk.simulator exists only with engine.type "simulator"');
  }
  if (!slot.network) {
    throw new WakitError(
      'INVALID_STATE',
      "sdk.simulator is not loaded yet: import 'wakitjs/simulator' first, or start the Sdk",
    );
  }
  return slot.network;
}

/**
 * The engine a config names. Neither engine's module is imported here (src/engines/engine-loader.ts):
 * whatsapp-web.js (and with it puppeteer) loads when a client first starts; the simulator's
 * network (`sdk.simulator`) is created at once if its module is loaded already (`wakitjs/simulator`
 * imported), else when `load()` is called (the Sdk's start) or a client first starts.
 */
export function engineForConfig(
  config: Readonly<WakitConfig>,
  logger: Logger,
  baseDir = process.cwd(),
): { factory: EngineFactory; simulator?: SimulatorSlot } {
  if (config.engine.type === 'simulator') return simulatorEngine(config.engine, logger);
  const engineConfig = config.engine;
  const auth = config.auth;
  let loaded: Promise<EngineFactory> | undefined;
  return {
    factory: async (context) => {
      loaded ??= engineProviders['whatsapp-web.js']().then((m) =>
        m.createWwebjsEngineFactory(engineConfig, {
          baseDir,
          ...(auth.type === 'remote' ? { backupSyncIntervalMs: auth.backupIntervalMs } : {}),
        }),
      );
      return (await loaded)(context);
    },
  };
}

function simulatorEngine(
  config: SimulatorEngineConfig,
  logger: Logger,
): { factory: EngineFactory; simulator: SimulatorSlot } {
  let network: SimulatorNetwork | undefined;
  const create = (module: SimulatorEngineModule): SimulatorNetwork =>
    (network ??= new module.SimulatorNetwork({
      config,
      logger: logger.child({ engine: 'simulator' }),
    }));
  const already = loadedSimulator();
  if (already) create(already);
  const simulator: SimulatorSlot = {
    get network() {
      return network;
    },
    get plugin() {
      return loadedSimulatorPlugin();
    },
    load: async () => network ?? create(await engineProviders.simulator()),
  };
  return {
    // synchronous once the network exists, as the engine was before the lazy load
    factory: (context) =>
      network
        ? network.engineFactory()(context)
        : simulator.load().then((n) => n.engineFactory()(context)),
    simulator,
  };
}
