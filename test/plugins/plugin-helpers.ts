/** Fixtures for plugin tests: an SDK on the simulator with a linked bot and a contact phone. */
import { pino } from 'pino';
import type { BotClient, WakitErrorEvent, Sdk, WakitConfigInput } from '../../src/index.js';
import { BOT_ID, BOT_PHONE, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

export { BOT_ID, BOT_PHONE };
export const ALICE = '15550001111';
export const ALICE_ID = `${ALICE}@c.us`;
export const BOB = '15550002222';
export const BOB_ID = `${BOB}@c.us`;
export const GROUP_ID = '120363000000000001@g.us';

export interface PluginFixture {
  sdk: Sdk;
  dir: string;
  errors: WakitErrorEvent[];
  /** Starts the SDK (plugins set up) and links a client named `bot`. */
  start(): Promise<BotClient>;
  cleanup(): Promise<void>;
}

/** An SDK on the simulator (pacing off); `prepare` may `use` plugins before it starts. */
export async function pluginFixture(
  overrides: Partial<WakitConfigInput> = {},
): Promise<PluginFixture> {
  const { dir, cleanup } = await tempDir('wakit-plugins-');
  // relative plugin paths resolve from the fixture's directory
  const sdk = simulatorSdk(dir, overrides, dir);
  const errors: WakitErrorEvent[] = [];
  sdk.on('error', (event) => errors.push(event));
  return {
    sdk,
    dir,
    errors,
    async start() {
      await sdk.start();
      sdk.simulator.phone(ALICE, { pushname: 'Alice' });
      sdk.simulator.phone(BOB, { pushname: 'Bob' });
      sdk.simulator.group({
        id: GROUP_ID,
        name: 'Team',
        members: [BOT_PHONE, ALICE, BOB],
        admins: [BOB],
      });
      return linkedClient(sdk, 'bot');
    },
    async cleanup() {
      await sdk.stop({ drainTimeoutMs: 1_000 });
      await cleanup();
    },
  };
}

export const silent = pino({ level: 'silent' });

/** Resolves after `ms` (lets asynchronous handlers finish when nothing observable is expected). */
export function settle(ms = 50): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await settle(10);
  }
}
