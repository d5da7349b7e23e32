import path from 'node:path';
import { toString as qrToString } from 'qrcode';
import type { WakitConfig } from '../config/schema.js';
import { loadConfigFile } from '../config/load.js';
import { parseConfig } from '../config/validate.js';
import { isWakitError } from '../errors/index.js';
import { createSdk, type Sdk } from '../sdk.js';
import { loadDotEnv } from './env.js';
import type { CliIo } from './io.js';

export interface RunOptions {
  config: string;
  /** `wakit dev`: simulator engine with auto-scan, sessions under .wakit/dev-sessions. */
  dev: boolean;
  /** dev: delay before a shown QR is scanned by itself. */
  autoScanMs?: number;
  /** Time queued sends get to go out on shutdown. */
  drainTimeoutMs?: number;
}

export interface RunningBot {
  sdk: Sdk;
  /** Resolves with the exit code once the bot stopped (signal or `stop()`). */
  done: Promise<number>;
  stop(): Promise<void>;
}

/** The dev variant of a config: simulator engine (auto-scan on), local dev sessions. */
export function devConfig(
  config: Readonly<WakitConfig>,
  baseDir: string,
  autoScanMs = 1_000,
): Readonly<WakitConfig> {
  const engine =
    config.engine.type === 'simulator'
      ? { ...config.engine, autoScanMs: config.engine.autoScanMs ?? autoScanMs }
      : { type: 'simulator' as const, autoScanMs };
  return parseConfig(
    {
      ...config,
      engine,
      auth: { type: 'local', dataPath: path.join(baseDir, '.wakit', 'dev-sessions') },
    },
    'dev configuration',
  );
}

/** Prints QR codes, READY lines and disconnects of every client, for a person at a terminal. */
function narrate(sdk: Sdk, io: CliIo, dev: boolean): void {
  sdk.onClient((client) => {
    client.on('qr', async (qr) => {
      if (dev) {
        io.out(`[${client.name}] QR shown; the simulator links it by itself (wakit dev).`);
        return;
      }
      const art = await qrToString(qr, { type: 'terminal', small: true });
      io.out(
        `[${client.name}] Scan this QR code with WhatsApp (Settings → Linked devices → Link a device):\n${art}`,
      );
    });
    client.on('authenticated', (session) => {
      io.out(`[${client.name}] authenticated${session.restored ? ' (session restored)' : ''}`);
    });
    client.on('ready', () => {
      const me = client.info().me;
      io.out(
        `[${client.name}] READY${me ? ` as ${me.id}${me.pushname ? ` (${me.pushname})` : ''}` : ''}`,
      );
    });
    client.on('disconnected', (reason) => io.out(`[${client.name}] disconnected: ${reason}`));
    client.on('auth_failure', (error) =>
      io.err(`[${client.name}] authentication failed: ${error.message}`),
    );
  });
}

/**
 * `wakit start` / `wakit dev`: loads the config (and `.env` beside it), plugins and clients; prints
 * QR codes and READY lines; SIGINT/SIGTERM stop it gracefully (queues drain, sessions kept).
 */
export async function runBot(options: RunOptions, io: CliIo): Promise<RunningBot> {
  loadDotEnv(options.config);
  const loaded = await loadConfigFile(options.config);
  const config = options.dev
    ? devConfig(loaded.config, loaded.baseDir, options.autoScanMs)
    : loaded.config;
  const sdk = createSdk(config, { baseDir: loaded.baseDir });
  narrate(sdk, io, options.dev);
  if (config.clients.length === 0) {
    io.err('No clients in config.clients: add one, e.g. "clients": ["bot"].');
  }
  io.out(
    `wakit ${options.dev ? 'dev (simulator engine)' : 'start'}: ${loaded.file}` +
      ` — clients: ${config.clients.join(', ') || '(none)'}; Ctrl+C stops.`,
  );
  await sdk.start();
  const plugins = sdk.plugins.list().map((p) => p.name);
  io.out(`plugins: ${plugins.length > 0 ? plugins.join(', ') : '(none)'}`);

  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    resolveDone = resolve;
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      io.out('Stopping: sending what is queued, keeping sessions...');
      try {
        await sdk.stop(
          options.drainTimeoutMs !== undefined ? { drainTimeoutMs: options.drainTimeoutMs } : {},
        );
        io.out('Stopped.');
        resolveDone(0);
      } catch (error) {
        io.err(`Stop failed: ${isWakitError(error) ? error.message : String(error)}`);
        resolveDone(1);
      }
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      io.err(`${signal} again: exiting now.`);
      resolveDone(130);
      return;
    }
    void stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // keep the process alive while the bot runs (the simulator holds no handles of its own)
  const keepAlive = setInterval(() => undefined, 1 << 30);
  void done.then(() => {
    clearInterval(keepAlive);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });
  return { sdk, done, stop };
}
