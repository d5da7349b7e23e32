/**
 * `npm run demo`: a demo bot on the simulator engine — no phone, no internet — with the REST API
 * and the dashboard on http://localhost:3000 (the token to use is printed).
 *
 * It prints the QR in the terminal (the dashboard shows it too), a simulated phone scans it after a
 * few seconds, a simulated contact writes, the bot answers (auto-reply plugin), and the log shows
 * every step and every event. Ctrl-C stops it cleanly. Environment: WAKIT_REST_TOKEN (else a random
 * one), PORT (3000), WAKIT_DEMO_DATA (keep sessions there; default: a fresh temp directory).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';
import { createSdk } from '../src/index.js';

const BOT_PHONE = '15550000001';
const port = Number(process.env.PORT ?? 3000);
const token = process.env.WAKIT_REST_TOKEN ?? randomBytes(24).toString('base64url');
const dataPath = path.resolve(
  process.env.WAKIT_DEMO_DATA ?? mkdtempSync(path.join(os.tmpdir(), 'wakit-demo-')),
);

const sdk = createSdk({
  // the simulated phone scans the QR by itself 8 s after it is shown (time to open the dashboard)
  engine: { type: 'simulator', ackDelayMs: 400, autoScanMs: 8_000, autoScanPhone: BOT_PHONE },
  auth: { type: 'local', dataPath },
  clients: ['demo'],
  queue: { minGapMs: 300, jitterMs: 300, perChatGapMs: 800 },
  log: { level: 'info', pretty: true },
  plugins: {
    rest: { port, host: '127.0.0.1', tokens: [{ token, clients: ['*'] }] },
    'auto-reply': {
      rules: [
        {
          match: 'hi',
          type: 'startsWith',
          reply: 'Hello {{name}}! You said: "{{body}}"',
          quote: true,
        },
        {
          match: '.*',
          type: 'regex',
          reply: 'I am a demo bot. Try the dashboard to answer yourself.',
        },
      ],
    },
  },
});
const log = sdk.logger.child({ demo: true });

sdk.onClient((bot) => {
  for (const event of ['authenticated', 'ready', 'disconnected', 'message.ack', 'state'] as const) {
    bot.on(event, (payload?: unknown) => log.info({ event, payload }, `event: ${event}`));
  }
  bot.on('message', (m) =>
    log.info({ event: 'message', from: m.from, body: m.body }, 'event: message'),
  );
  bot.on('message.create', (m) => {
    if (m.fromMe)
      log.info(
        { event: 'message.create', to: m.to, body: m.body },
        'event: message.create (fromMe)',
      );
  });
  bot.on('qr', async (qr) => {
    log.info(
      { event: 'qr' },
      'event: qr — the simulated phone scans it in 8 s (or see it in the dashboard):',
    );
    console.log(await QRCode.toString(qr, { type: 'terminal', small: true }));
  });
  bot.on('ready', async () => {
    const alice = sdk.simulator.phone('15550001111', { pushname: 'Alice' });
    log.info('step: Alice, a simulated contact, writes to the bot');
    await alice.send(`${BOT_PHONE}@c.us`, 'hi bot, are you there?');
    const answer = await alice.waitForMessage((m) => m.author === `${BOT_PHONE}@c.us`, 15_000);
    log.info({ body: answer.body }, 'step: Alice received the answer');
  });
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping: queue drained, REST closed, session kept');
  await sdk.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

/** The EADDRINUSE of the REST plugin's listen, anywhere in the cause chain. */
function portTaken(error: unknown): boolean {
  for (let e = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') return true;
  }
  return false;
}

log.info({ dataPath }, 'step: starting the demo bot on the simulator engine');
try {
  await sdk.start();
} catch (error) {
  if (!portTaken(error)) throw error;
  console.error(
    `\nwakit demo: [ADDRESS_IN_USE] Port ${port} is already in use by another program: stop it, ` +
      `or pick another port: PORT=${port + 1} npm run demo\n`,
  );
  process.exit(1);
}
const url = `http://localhost:${port}`;
console.log(`
  Dashboard:  ${url}/   (token below)
  Token:      ${token}
  Try:        curl -s -H "Authorization: Bearer ${token}" ${url}/api/v1/client/info
              curl -s -X POST -H "Authorization: Bearer ${token}" -H 'Content-Type: application/json' \\
                -d '{"chatId":"15550001111@c.us","content":"Hello from curl"}' ${url}/api/v1/messages
  Ctrl-C stops the bot.
`);
