import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile, readDotEnv } from './config/load.js';
import type { WakitConfig, WakitConfigInput } from './config/schema.js';
import { parseConfig } from './config/validate.js';
import { engineProviders } from './engines/engine-loader.js';
import { Sdk, type SdkOptions, type StopOptions } from './sdk.js';
import type { Clock } from './kernel/clock.js';
import { CLOCK } from './kernel/tokens.js';

export interface TestSdkOptions {
  /** The phone number a single client links as; default `15550000001` (several clients: derived). */
  phone?: string;
  /** Environment variables over `.env` and `process.env` (e.g. a test REST token). */
  env?: Record<string, string>;
  /** Options merged over an enabled plugin's configured options, by config key (`{ rest: { port } }`). */
  plugins?: Record<string, Record<string, unknown>>;
  /** Where sessions go; default a temporary directory removed by `sdk.stop()`. */
  dataPath?: string;
  /**
   * The kernel's clock: a `VirtualClock` (from `wakitjs/testing`) moves conversation timeouts
   * only when the test calls `clock.advance(ms)`: no sleeps.
   */
  clock?: Clock;
}

/**
 * The test version of a configuration: nothing in it reaches the outside. The simulator engine
 * instead of WhatsApp, local sessions in `dataPath` instead of a bucket, no fleet (Redis), an
 * in-memory outbox, no pacing, silent logs. Commands, plugins and their options stay as configured.
 */
export function testConfig(
  config: Readonly<WakitConfig>,
  options: { dataPath: string } & Pick<TestSdkOptions, 'phone' | 'plugins'>,
): WakitConfigInput {
  const { cluster: _cluster, ...kept } = config;
  const { outboxPath: _outboxPath, ...queue } = config.queue;
  const phone = options.phone ?? (config.clients.length <= 1 ? '15550000001' : undefined);
  const plugins: Record<string, unknown> = { ...config.plugins };
  for (const [key, extra] of Object.entries(options.plugins ?? {})) {
    const configured = plugins[key];
    // only over plugins the config enables: an override never turns one on
    if (configured === undefined || configured === false) continue;
    const base = configured && typeof configured === 'object' ? configured : {};
    plugins[key] = { ...base, ...extra };
  }
  return {
    ...kept,
    engine: { type: 'simulator', autoScanMs: 0, ...(phone ? { autoScanPhone: phone } : {}) },
    auth: { type: 'local', dataPath: options.dataPath },
    queue: {
      ...queue,
      minGapMs: 0,
      jitterMs: 0,
      perChatGapMs: 0,
      lightGapMs: 0,
      typingBeforeSend: false,
      persistence: 'memory',
    },
    conversations: { ...config.conversations, store: 'memory' },
    log: { level: 'silent', pretty: false },
    plugins,
  };
}

/** An SDK that removes its temporary session directory once stopped. */
class TestSdk extends Sdk {
  readonly #temporary: string | undefined;

  constructor(config: Readonly<WakitConfig>, options: SdkOptions, temporary: string | undefined) {
    super(config, options);
    this.#temporary = temporary;
  }

  override async stop(options?: StopOptions): Promise<void> {
    try {
      await super.stop(options);
    } finally {
      if (this.#temporary) await rm(this.#temporary, { recursive: true, force: true });
    }
  }
}

/**
 * The bot of a config file, made for tests: `testConfig` of it (simulator, temporary sessions, no
 * fleet, no pacing, silent), `${VAR}`s from `.env` beside the file too, and `sdk.testing` set so
 * plugins make no calls out (the REST plugin delivers no webhooks). Start it with `sdk.start()`.
 */
export async function createTestSdk(file: string, options: TestSdkOptions = {}): Promise<Sdk> {
  const { config, baseDir } = await loadConfigFile(file, {
    ...readDotEnv(file),
    ...process.env,
    ...options.env,
  });
  const temporary = options.dataPath
    ? undefined
    : await mkdtemp(path.join(os.tmpdir(), 'wakit-test-'));
  const dataPath = options.dataPath ?? temporary ?? '';
  try {
    const parsed = parseConfig(
      testConfig(config, { ...options, dataPath }),
      `test config of ${file}`,
    );
    // loaded first, so `sdk.simulator` is there before `start()` (docs/simulator.md)
    await engineProviders.simulator();
    const clock = options.clock;
    return new TestSdk(
      parsed,
      {
        baseDir,
        testing: true,
        ...(clock ? { services: (s) => void s.register(CLOCK, { useValue: clock }) } : {}),
      },
      temporary,
    );
  } catch (error) {
    if (temporary) await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
