import { allClientsFailed } from '../client/core/all-failed.js';
import type { BotClient } from '../client/bot-client.js';
import type { Sdk } from '../sdk.js';
import { describeError, type CliIo } from './io.js';

/** Why a FAILED client failed, from the error it failed with. */
async function whyFailed(client: BotClient): Promise<string> {
  // resolves at once for READY, rejects at once with the client's last error for FAILED
  return client.waitUntilReady({ timeoutMs: 0 }).then(
    () => `now ${client.state}`,
    (error: unknown) => describeError(error),
  );
}

export interface AllFailedWatch {
  /** Stops watching. */
  stop(): void;
}

/**
 * Watches the clients of a running bot: once every client of this server is FAILED (nothing but a
 * restart recovers a FAILED client), prints one line per client with why and then either calls
 * `exit` (`watchdog.exitOnAllFailed` on: the CLI stops the bot and exits 1, so a supervisor
 * restarts it) or says it keeps running. Checks at once, then on every state change.
 */
export function watchAllFailed(
  sdk: Sdk,
  io: CliIo,
  options: { command: string; exitOnAllFailed: boolean; exit: () => void },
): AllFailedWatch {
  let reported = false;
  let stopped = false;
  const check = async (): Promise<void> => {
    if (stopped) return;
    const failed = allClientsFailed(sdk);
    if (failed === undefined) {
      reported = false;
      return;
    }
    if (reported) return;
    reported = true;
    const lines = await Promise.all(
      failed.clients.map(async (client) => `[${client.name}] FAILED: ${await whyFailed(client)}`),
    );
    for (const line of lines) io.err(line);
    if (options.exitOnAllFailed) {
      io.err(
        `${options.command}: every client is FAILED; exiting with code 1 so a supervisor restarts ` +
          'wakit (watchdog.exitOnAllFailed).',
      );
      options.exit();
    } else {
      io.err(
        `${options.command}: every client is FAILED; still running because ` +
          'watchdog.exitOnAllFailed is off (restart a client, or stop wakit).',
      );
    }
  };
  const unsubscribe = sdk.onClient((client) => {
    client.on('state', () => void check());
  });
  void check();
  return {
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}
