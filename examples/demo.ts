/**
 * `npm run demo`: a demo bot on the simulator engine — no phone, no internet.
 * It prints the QR in the terminal, a simulated phone scans it, a simulated contact writes, the bot
 * answers, and the log shows every step and every event. Ctrl-C stops it cleanly.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';
import { createSdk } from '../src/index.js';

const BOT_PHONE = '15550000001';
// A fresh session directory each run, so the QR flow always shows; set WAKIT_DEMO_DATA to keep one.
const dataPath = path.resolve(
  process.env.WAKIT_DEMO_DATA ?? mkdtempSync(path.join(os.tmpdir(), 'wakit-demo-')),
);

const sdk = createSdk({
  engine: { type: 'simulator', ackDelayMs: 400 },
  auth: { type: 'local', dataPath },
  queue: { minGapMs: 300, jitterMs: 300, perChatGapMs: 800 },
  log: { level: 'info', pretty: true },
});
const log = sdk.logger.child({ demo: true });

const bot = sdk.createClient({ name: 'demo' });
for (const event of ['authenticated', 'ready', 'disconnected', 'message.ack', 'state'] as const) {
  bot.on(event, (payload?: unknown) => log.info({ event, payload }, `event: ${event}`));
}
bot.on('qr', async (qr) => {
  log.info({ event: 'qr' }, 'event: qr — scan this with the (simulated) phone:');
  console.log(await QRCode.toString(qr, { type: 'terminal', small: true }));
  setTimeout(() => {
    log.info({ phone: BOT_PHONE }, 'step: the simulated phone scans the QR');
    sdk.simulator.scan(qr, { phone: BOT_PHONE, pushname: 'Demo Bot' });
  }, 1_500);
});
bot.on('message', async (message) => {
  log.info({ event: 'message', from: message.from, body: message.body }, 'event: message');
  if (message.fromMe) return;
  log.info('step: the bot answers');
  await message.reply(`Hello ${message.notifyName ?? 'there'}! You said: "${message.body}"`);
});

const alice = sdk.simulator.phone('15550001111', { pushname: 'Alice' });
bot.on('ready', async () => {
  log.info('step: Alice, a simulated contact, writes to the bot');
  await alice.send(`${BOT_PHONE}@c.us`, 'Hi bot, are you there?');
  const answer = await alice.waitForMessage((m) => m.author === `${BOT_PHONE}@c.us`, 10_000);
  log.info({ body: answer.body }, 'step: Alice received the answer');
  log.info('The demo bot keeps running; press Ctrl-C to stop it.');
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping (the session is kept: the next run needs no QR)');
  await sdk.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

log.info({ dataPath }, 'step: starting the demo bot on the simulator engine');
await sdk.start();
await bot.initialize();
