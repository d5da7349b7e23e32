import path from 'node:path';
import type { Readable } from 'node:stream';
import { toString as qrToString } from 'qrcode';
import type { WakitConfig } from '../config/schema.js';
import { loadConfigChecked } from './config-commands.js';
import { parseConfig } from '../config/validate.js';
import { isWakitError } from '../errors/index.js';
import { createSdk, type Sdk } from '../sdk.js';
import { createLogger } from '../kernel/logger.js';
import type { Plugin } from '../plugins/types.js';
import { watchAllFailed } from './all-failed-watch.js';
import { loadDotEnv } from './env.js';
import type { CliIo } from './io.js';
import { chatHelp, startTerminalChat, type TerminalChat } from './terminal-chat.js';

export interface RunOptions {
  config: string;
  /** `wakit dev`: simulator engine with auto-scan, sessions under .wakit/dev-sessions. */
  dev: boolean;
  /** dev: delay before a shown QR is scanned by itself. */
  autoScanMs?: number;
  /** Time queued sends get to go out on shutdown. */
  drainTimeoutMs?: number;
  /** Port of the REST plugin (overrides `plugins.rest.port`). */
  port?: number;
  /** dev: lines typed here are sent by a simulated contact (default: process.stdin). */
  input?: Readable;
  /** Where the SDK logs (default stdout; `wakit mcp`: stderr, its stdout is the protocol). */
  logTo?: 'stdout' | 'stderr';
  /** The command's name in what it prints (default `start`; `wakit mcp`: `mcp`). */
  command?: string;
  /** Plugins used besides the configured ones (`wakit mcp`: the MCP server over stdio). */
  plugins?: readonly Plugin[];
}

/** The config with the REST plugin on `port`; a note when the REST plugin is not enabled. */
export function withRestPort(
  config: Readonly<WakitConfig>,
  port: number,
  io: CliIo,
): Readonly<WakitConfig> {
  const rest = config.plugins.rest;
  if (rest === undefined || rest === false) {
    io.err(`--port ${port}: the REST plugin is not enabled in plugins.rest; the port is unused.`);
    return config;
  }
  const options = rest && typeof rest === 'object' ? rest : {};
  return parseConfig(
    { ...config, plugins: { ...config.plugins, rest: { ...options, port } } },
    'configuration with --port',
  );
}

function restPort(config: Readonly<WakitConfig>): number | undefined {
  const rest = config.plugins.rest as { port?: number } | false | undefined;
  if (rest === undefined || rest === false) return undefined;
  return rest.port ?? 3000;
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
  const { queue } = config;
  return parseConfig(
    {
      ...config,
      engine,
      auth: { type: 'local', dataPath: path.join(baseDir, '.wakit', 'dev-sessions') },
      // the simulator bans nobody: answers come within a fraction of a second, not 2-4 s
      queue: {
        ...queue,
        minGapMs: Math.min(queue.minGapMs, DEV_PACING.minGapMs),
        jitterMs: Math.min(queue.jitterMs, DEV_PACING.jitterMs),
        perChatGapMs: Math.min(queue.perChatGapMs, DEV_PACING.perChatGapMs),
        lightGapMs: Math.min(queue.lightGapMs, DEV_PACING.minGapMs),
      },
    },
    'dev configuration',
  );
}

/** Pacing of `wakit dev` at most (lower configured values are kept). */
export const DEV_PACING = { minGapMs: 100, jitterMs: 200, perChatGapMs: 300 } as const;

/** Prints QR codes, READY lines and disconnects of every client, for a person at a terminal. */
function narrate(sdk: Sdk, io: CliIo, dev: boolean, onReady: (client: string) => void): void {
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
      onReady(client.name);
    });
    client.on('disconnected', (reason) => io.out(`[${client.name}] disconnected: ${reason}`));
    client.on('auth_failure', (error) =>
      io.err(`[${client.name}] authentication failed: ${error.message}`),
    );
  });
}

/**
 * `wakit start` / `wakit dev`: loads the config (and `.env` beside it), plugins and clients; prints
 * QR codes and READY lines; SIGINT/SIGTERM stop it gracefully (queues drain, sessions kept); once
 * every client is FAILED it stops with code 1 when `watchdog.exitOnAllFailed` says so.
 */
export async function runBot(options: RunOptions, io: CliIo): Promise<RunningBot> {
  loadDotEnv(options.config);
  const loaded = await loadConfigChecked(options.config);
  let config = options.dev
    ? devConfig(loaded.config, loaded.baseDir, options.autoScanMs)
    : loaded.config;
  if (options.port !== undefined) config = withRestPort(config, options.port, io);
  const sdk = createSdk(config, {
    baseDir: loaded.baseDir,
    ...(options.logTo === 'stderr' ? { logger: createLogger(config.log, 2) } : {}),
  });
  for (const plugin of options.plugins ?? []) sdk.use(plugin);
  let chat: TerminalChat | undefined;
  const chatWith = config.clients[0];
  narrate(sdk, io, options.dev, (name) => {
    if (!options.dev || chat || name !== chatWith) return;
    chat = startTerminalChat(sdk, name, io, options.input ?? process.stdin, loaded.baseDir);
    io.out(chatHelp(name, sdk.client(name).info().me?.id ?? name, restPort(config)));
  });
  if (config.clients.length === 0) {
    io.err('No clients in config.clients: add one, e.g. "clients": ["bot"].');
  }
  io.out(
    `wakit ${options.dev ? 'dev (simulator engine)' : (options.command ?? 'start')}: ${loaded.file}` +
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
  const stop = (code = 0): Promise<void> => {
    stopping ??= (async () => {
      io.out('Stopping: sending what is queued, keeping sessions...');
      watch.stop();
      chat?.stop();
      try {
        await sdk.stop(
          options.drainTimeoutMs !== undefined ? { drainTimeoutMs: options.drainTimeoutMs } : {},
        );
        io.out('Stopped.');
        resolveDone(code);
      } catch (error) {
        io.err(`Stop failed: ${isWakitError(error) ? error.message : String(error)}`);
        resolveDone(1);
      }
    })();
    return stopping;
  };
  const watch = watchAllFailed(sdk, io, {
    command: options.dev ? 'wakit dev' : `wakit ${options.command ?? 'start'}`,
    exitOnAllFailed: config.watchdog.exitOnAllFailed ?? !options.dev,
    exit: () => void stop(1),
  });
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
  return { sdk, done, stop: () => stop() };
}
