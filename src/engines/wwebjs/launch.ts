import type { Logger } from 'pino';
import type { EngineContext } from '../engine.js';
import { createAuthStrategy, type AuthStrategyOptions } from './auth-strategy.js';
import { browserSandbox, resolveExecutablePath, type BrowserEnvironment } from './browser.js';
import { buildClientOptions } from './client-options.js';
import type { RemoteAuthStoreAdapter } from './remote-auth-store.js';
import type { ClientLike, WwebjsBindings, WwebjsEngineConfig } from './types.js';

export interface LaunchInput {
  config: WwebjsEngineConfig;
  context: EngineContext;
  bindings: WwebjsBindings;
  environment: BrowserEnvironment;
  auth: AuthStrategyOptions;
  log: Logger;
}

export interface PreparedClient {
  client: ClientLike;
  executablePath: string;
  remote: RemoteAuthStoreAdapter | null;
}

/**
 * Everything before `client.initialize()`: finds Chromium (BROWSER_NOT_FOUND when there is none),
 * prepares the auth strategy in the client's work directory and creates the whatsapp-web.js
 * Client. Nothing is launched yet.
 */
export async function prepareClient(input: LaunchInput): Promise<PreparedClient> {
  const { config, environment, bindings, log } = input;
  const executablePath = resolveExecutablePath(config, environment);
  const auth = await createAuthStrategy(bindings, input.context, input.auth);
  const client = bindings.createClient(
    buildClientOptions(
      config,
      {
        authStrategy: auth.strategy,
        workDir: auth.workDir,
        executablePath,
        sandbox: browserSandbox(environment),
      },
      log,
    ),
  );
  return { client, executablePath, remote: auth.remote ?? null };
}
