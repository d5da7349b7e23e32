/**
 * Inbound with issue 11's events mixed in: the phone's texts to the bot, plus a reaction to every
 * 10th of them and a group update (subject change in a group with the bot) every 50th, all through
 * the simulator engine to the client's events (`message`, `message.reaction`, `group.update`).
 * Compared in the same run with the texts-only figure; targets as the inbound bench (≥ 50,000
 * events/s, ≥ 30 % of the bare engine).
 */
import { pathToFileURL } from 'node:url';
import { bareEngineRate, linkedSimulator, pushInbound } from './inbound.js';

const MESSAGES = 100_000;
const BOT_ID = '15550000001@c.us';

export async function benchInboundMix(): Promise<Record<string, number | string>> {
  const bare = await bareEngineRate(MESSAGES);
  const { sdk, cleanup } = await linkedSimulator();
  try {
    await sdk.start();
    const client = sdk.client('bench');
    await client.waitUntilReady({ timeoutMs: 10_000 });
    let seen = 0;
    const count = (): void => {
      seen++;
    };
    client.on('message', count);
    client.on('message.reaction', count);
    client.on('group.update', count);
    const textsOnly = await pushInbound(sdk, MESSAGES, () => seen);

    const phone = sdk.simulator.phone('15550002222');
    const group = await phone.groups.create('Bench', [BOT_ID]);
    seen = 0;
    let expected = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < MESSAGES; i++) {
      const { id } = await phone.send(BOT_ID, 'hello');
      expected++;
      if (i % 10 === 0) {
        void phone.react(id, '👍');
        expected++;
      }
      if (i % 50 === 0) {
        void phone.groups.setSubject(group.id, `Bench ${i}`);
        expected++;
      }
    }
    while (seen < expected) await new Promise((resolve) => setImmediate(resolve));
    const mixed = Math.round(expected / (Number(process.hrtime.bigint() - started) / 1e9));
    return {
      'bare: simulator engine events (msg/s)': bare,
      'texts only → client events (events/s)': textsOnly,
      'texts + 10 % reactions + 2 % group updates (events/s)': mixed,
      'events in the mix': expected,
      'mix / texts only': `${((mixed / textsOnly) * 100).toFixed(1)}%`,
      'mix / bare (target ≥ 30 %)': `${((mixed / bare) * 100).toFixed(1)}%`,
      'absolute target ≥ 50,000 events/s': mixed >= 50_000 ? 'met' : 'MISSED',
    };
  } finally {
    await sdk.stop();
    await cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchInboundMix());
}
