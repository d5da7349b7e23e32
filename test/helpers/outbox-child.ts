/**
 * One wakit server of the outbox fault tests (test/faults/): client `bot` on the simulator engine
 * (the session is saved under `dataPath`, so a restart on the same path links again without a QR),
 * the SQLite outbox, the built-in `rest` plugin on a loopback port.
 *
 * Ground truth: every message that reaches one of the simulated `phones` is appended to the
 * `received` file synchronously (fs.appendFileSync) at the moment the simulated WhatsApp network
 * delivers it, before the engine's send call returns: a SIGKILL can never lose a record of a
 * message that arrived. It is also printed as a `received` event.
 *
 * stdout: JSON lines, both pino's log lines and this script's `{ "event": ... }` lines.
 * stdin: JSON lines `{ "cmd": "enqueue", "to", "text", "priority"?, "key"? }` → `accepted` /
 * `refused` events (SDK sends with a priority, which REST does not offer); `{ "cmd":
 * "kill-on-receive" }`: SIGKILL this process as the next message reaches its recipient.
 *
 * Usage: node --import tsx test/helpers/outbox-child.ts '<ChildOptions as JSON>'
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { createSdk, isWakitError, type WakitConfigInput } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { SendPriority } from '../../src/entries/types.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';
import { writeLine } from './write-line.js';

export interface ChildOptions {
  dataPath: string;
  port: number;
  token: string;
  /** JSON-lines file the phones' received messages are appended to. */
  received: string;
  /** Numbers of the simulated recipients. */
  phones: string[];
  queue?: WakitConfigInput['queue'];
  governor?: WakitConfigInput['governor'];
}

const options = JSON.parse(process.argv[2] ?? '') as ChildOptions;

function report(event: string, data: Record<string, unknown> = {}): void {
  writeLine(1, `${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

const logger = pino({ level: 'info' }, pino.destination({ dest: 1, sync: true }));

let sdk;
try {
  sdk = createSdk(
    {
      engine: { type: 'simulator', autoScanMs: 20, autoScanPhone: '15550000001', ackDelayMs: 5 },
      auth: { type: 'local', dataPath: options.dataPath },
      clients: ['bot'],
      queue: { jitterMs: 0, perChatGapMs: 0, ...options.queue },
      ...(options.governor ? { governor: options.governor } : {}),
      plugins: {
        rest: { port: options.port, tokens: [{ token: options.token, clients: ['*'] }] },
      },
    },
    { logger },
  );
} catch (error) {
  report('failed', {
    code: isWakitError(error) ? error.code : undefined,
    message: error instanceof Error ? error.message : String(error),
  });
  process.exit(3);
}

let count = 0;
/** SIGKILL as the message numbered this (or the next one, 0) reaches its recipient. */
let killOnReceive: number | undefined;
for (const number of options.phones) {
  const phone = sdk.simulator.phone(number);
  // The network hands each message to the phone through its (internal) `receive`: record it there,
  // synchronously, so what the recipient got survives a SIGKILL of this process.
  const account = phone as unknown as { receive(record: { body: string }): void };
  const receive = account.receive.bind(account);
  account.receive = (record) => {
    count += 1;
    appendFileSync(
      options.received,
      `${JSON.stringify({ to: number, body: record.body, at: Date.now() })}\n`,
    );
    // The worst moment for a crash: the message has arrived, the engine's send call has not
    // returned, so its `sent` is not journaled.
    if (killOnReceive !== undefined && count >= killOnReceive) process.kill(process.pid, 'SIGKILL');
    receive(record);
    report('received', { to: number, body: record.body, count });
  };
}

const started = sdk;
started.onClient((client) => {
  client.on('ready', () => report('ready', { client: client.name }));
});

createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as {
    cmd: 'enqueue' | 'kill-on-receive';
    to: string;
    text: string;
    priority?: SendPriority;
    key?: string;
    /** kill-on-receive: the message number to die on (default: the next one). */
    at?: number;
  };
  if (cmd.cmd === 'kill-on-receive') {
    killOnReceive = cmd.at ?? 0;
    return;
  }
  started
    .client('bot')
    .enqueue(prepareContent(cmd.to, cmd.text), {
      priority: cmd.priority ?? 'normal',
      ...(cmd.key ? { idempotencyKey: cmd.key } : {}),
    })
    .then(
      (queued) => report('accepted', { text: cmd.text, id: queued.trackingId }),
      (error: unknown) =>
        report('refused', { text: cmd.text, code: isWakitError(error) ? error.code : undefined }),
    );
});

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  report('stopping');
  void started.stop().finally(() => {
    report('stopped');
    process.exit(0);
  });
});

started.start().then(
  () => report('started'),
  (error: unknown) => {
    report('failed', {
      code: isWakitError(error) ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    });
    process.exit(3);
  },
);
