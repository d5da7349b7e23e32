import { engineReporter, type EngineContext } from '../engine.js';
import { RemoteAuthStoreAdapter } from './remote-auth-store.js';
import type { WwebjsBindings } from './types.js';

export interface AuthStrategyOptions {
  /** RemoteAuth backup period (whatsapp-web.js requires at least 60 s). */
  backupSyncIntervalMs: number;
  /** See RemoteAuthStoreOptions.mayDelete. */
  mayDeleteRemote: () => boolean;
  /** See RemoteAuthStoreOptions.mayWrite. */
  mayWriteRemote: () => boolean;
}

export interface PreparedAuth {
  strategy: unknown;
  /** The client's private (0700) working directory; the browser profile lives below it. */
  workDir: string;
  /** The RemoteAuth store adapter, for `remote` stores. */
  remote?: RemoteAuthStoreAdapter;
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
    report: engineReporter(context),
    mayDelete: options.mayDeleteRemote,
    mayWrite: options.mayWriteRemote,
  });
  const strategy = bindings.createRemoteAuth({
    clientId: clientName,
    dataPath: workDir,
    store: adapter,
    backupSyncIntervalMs: Math.max(60_000, options.backupSyncIntervalMs),
  });
  guardUnawaited(strategy, ['afterAuthReady', 'storeRemoteSession'], logger);
  return { strategy, workDir, remote: adapter };
}

/**
 * whatsapp-web.js calls RemoteAuth's `afterAuthReady()` without awaiting it, and backs up from a
 * `setInterval` callback: a failed backup (say the profile was deleted by a logout meanwhile)
 * would be an unhandled rejection, which ends a Node process. These methods are wrapped on the
 * instance so that failures are logged instead.
 */
export function guardUnawaited(
  target: unknown,
  methods: string[],
  logger: EngineContext['logger'],
): void {
  if (!target || typeof target !== 'object') return;
  const object = target as Record<string, unknown>;
  for (const name of methods) {
    const original = object[name];
    if (typeof original !== 'function') continue;
    object[name] = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await (original as (...a: unknown[]) => unknown).apply(target, args);
      } catch (error) {
        logger.error({ err: error, step: name }, 'RemoteAuth session backup failed');
        return undefined;
      }
    };
  }
}
