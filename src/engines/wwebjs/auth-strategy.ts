import type { EngineContext } from '../engine.js';
import { RemoteAuthStoreAdapter } from './remote-auth-store.js';
import type { WwebjsBindings } from './types.js';

export interface AuthStrategyOptions {
  /** RemoteAuth backup period (whatsapp-web.js requires at least 60 s). */
  backupSyncIntervalMs: number;
  /** See RemoteAuthStoreOptions.mayDelete. */
  mayDeleteRemote: () => boolean;
}

export interface PreparedAuth {
  strategy: unknown;
  /** The client's private (0700) working directory; the browser profile lives below it. */
  workDir: string;
}

/**
 * `local` store → `LocalAuth` with its profile in the client's work directory (deleting the client's
 * session through the store removes it). `remote` store → `RemoteAuth` backed by the store through
 * RemoteAuthStoreAdapter.
 */
export async function createAuthStrategy(
  bindings: WwebjsBindings,
  context: EngineContext,
  options: AuthStrategyOptions,
): Promise<PreparedAuth> {
  const { clientName, store, logger } = context;
  const workDir = await store.workDir(clientName);
  if (store.type === 'local') {
    return {
      strategy: bindings.createLocalAuth({ clientId: clientName, dataPath: workDir }),
      workDir,
    };
  }
  const adapter = new RemoteAuthStoreAdapter({
    store,
    clientName,
    dataPath: workDir,
    logger,
    mayDelete: options.mayDeleteRemote,
  });
  return {
    strategy: bindings.createRemoteAuth({
      clientId: clientName,
      dataPath: workDir,
      store: adapter,
      backupSyncIntervalMs: Math.max(60_000, options.backupSyncIntervalMs),
    }),
    workDir,
  };
}
