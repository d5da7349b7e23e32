import type { Logger } from 'pino';
import type { WakitConfig } from '../config/schema.js';
import type { EngineFactory } from './engine.js';
import { SimulatorNetwork } from './simulator/index.js';

/**
 * The engine a config names: the simulator (its network is returned too, as `sdk.simulator`), or
 * whatsapp-web.js, whose module (and with it puppeteer) is loaded only when a client first starts.
 */
export function engineForConfig(
  config: Readonly<WakitConfig>,
  logger: Logger,
  baseDir = process.cwd(),
): { factory: EngineFactory; simulator?: SimulatorNetwork } {
  if (config.engine.type === 'simulator') {
    const simulator = new SimulatorNetwork({
      config: config.engine,
      logger: logger.child({ engine: 'simulator' }),
    });
    return { factory: simulator.engineFactory(), simulator };
  }
  const engineConfig = config.engine;
  const auth = config.auth;
  let loaded: Promise<EngineFactory> | undefined;
  return {
    factory: async (context) => {
      loaded ??= import('./wwebjs/index.js').then((m) =>
        m.createWwebjsEngineFactory(engineConfig, {
          baseDir,
          ...(auth.type === 'remote' ? { backupSyncIntervalMs: auth.backupIntervalMs } : {}),
        }),
      );
      return (await loaded)(context);
    },
  };
}
