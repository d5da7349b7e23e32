/**
 * One node of the fleet fault tests (test/faults/fleet*.test.ts): the configured clients on the
 * simulator engine, sessions in a (fake) GCS bucket, `cluster` on a real Redis, the built-in `rest`
 * plugin on a loopback port with one webhook.
 *
 * Ground truth: every message that reaches one of the simulated `phones` is appended to the shared
 * `received` file synchronously (one short line with O_APPEND) before the engine's send returns,
 * tagged with this node's id and the time it arrived (`at`, Date.now()), so a SIGKILL never loses
 * the record of a message that arrived.
 *
 * stdout: JSON lines `{ "event": ..., "node": ... }`: `started`, `qr`, `authenticated` (restored),
 * `ready`, `state`, `stopping`, `stopped`, `failed`, `received` (a phone got a message), and with
 * `order` `phone-sent` and `settled`.
 *
 * With `order`: the scaffolded bot's order dialog (templates/basic/plugins/order.ts, as it ships)
 * and commands on stdin (JSON lines): `{ "cmd": "send", "from", "client", "text" }` (the phone
 * `from` of this node's simulated network writes to the client, which must run here) and
 * `{ "cmd": "settle", "seq", "client" }` (every inbound message handled and the client's queue
 * empty: reports `settled` with the active conversations, read from the shared store).
 *
 * Usage: node --import tsx test/helpers/fleet-node.ts '<FleetNodeOptions as JSON>'
 */
import './wakitjs-alias.js';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createSdk, definePlugin, isWakitError } from '../../src/index.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';
import { writeLine } from './write-line.js';

export interface FleetNodeOptions {
  nodeId: string;
  port: number;
  redisUrl: string;
  gcsUrl: string;
  dataPath: string;
  token: string;
  clients: string[];
  /** JSON-lines file the phones' received messages are appended to (shared by all nodes). */
  received: string;
  phones: string[];
  webhookUrl: string;
  webhookSecret: string;
  lease: { ttlMs: number; renewMs: number; retryMs: number };
  heartbeatMs: number;
  maxClients?: number;
  /** Merged over the nodes' pacing (10 ms gap, no jitter). */
  queue?: Record<string, number>;
  /** The send governor's config (none: `off`, the simulator's default). */
  governor?: Record<string, unknown>;
  /** The order dialog with this `timeoutSeconds` (reminder, then expiry), and stdin commands. */
  order?: { timeoutSeconds: number };
}

const ORDER_PLUGIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);

const options = JSON.parse(process.argv[2] ?? '') as FleetNodeOptions;
const node = options.nodeId;

function report(event: string, data: Record<string, unknown> = {}): void {
  writeLine(1, `${JSON.stringify({ event, node, pid: process.pid, ...data })}\n`);
}

let sdk;
try {
  sdk = createSdk({
    engine: { type: 'simulator', autoScanMs: 20, ackDelayMs: 5 },
    auth: {
      type: 'remote',
      storage: {
        projectId: 'test',
        bucket: 'wakit-fleet',
        path: 'sessions',
        apiEndpoint: options.gcsUrl,
      },
      dataPath: options.dataPath,
      lease: { ...options.lease, onLeased: 'wait' },
    },
    clients: options.clients,
    queue: { minGapMs: 10, jitterMs: 0, perChatGapMs: 0, ...options.queue },
    ...(options.governor ? { governor: options.governor } : {}),
    cluster: {
      type: 'redis',
      url: options.redisUrl,
      nodeId: node,
      advertiseUrl: `http://127.0.0.1:${options.port}`,
      heartbeatMs: options.heartbeatMs,
      ...(options.maxClients ? { maxClients: options.maxClients } : {}),
    },
    log: { level: 'warn' },
    plugins: {
      ...(options.order
        ? { [ORDER_PLUGIN]: { timeoutSeconds: options.order.timeoutSeconds, menu: 'text' } }
        : {}),
      rest: {
        port: options.port,
        tokens: [{ token: options.token, clients: ['*'] }],
        rateLimit: false,
        webhooks: [
          {
            url: options.webhookUrl,
            secret: options.webhookSecret,
            events: ['message.create', 'ready'],
            backoffMs: 100,
            maxBackoffMs: 1_000,
          },
        ],
        clientWebhooks: { allowPrivateNetworks: true },
      },
    },
    media: { allowPrivateNetworks: true },
  });
} catch (error) {
  report('failed', {
    code: isWakitError(error) ? error.code : undefined,
    message: error instanceof Error ? error.message : String(error),
  });
  process.exit(3);
}

for (const number of options.phones) {
  const phone = sdk.simulator.phone(number);
  // The network hands each message to the phone through its (internal) `receive`: record it there,
  // synchronously, so what the recipient got survives a SIGKILL of this process.
  const account = phone as unknown as { receive(record: { body: string }): void };
  const receive = account.receive.bind(account);
  account.receive = (record) => {
    appendFileSync(
      options.received,
      `${JSON.stringify({ to: number, body: record.body, node, at: Date.now() })}\n`,
    );
    receive(record);
    report('received', { to: number, body: record.body });
  };
}

const started = sdk;
started.use(
  definePlugin({
    name: 'fleet-node-report',
    setup(ctx) {
      ctx.clients.onClient((client) => {
        const name = client.name;
        client.on('qr', () => report('qr', { client: name }));
        client.on('authenticated', (session) =>
          report('authenticated', { client: name, restored: session.restored }),
        );
        client.on('ready', () => report('ready', { client: name }));
        client.on('state', (change) => report('state', { client: name, to: change.to }));
      });
    },
  }),
);

/** Every inbound message handled, the client's queue empty (as the dialog test kit settles). */
async function settle(client: string): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (;;) {
    await started.plugins.idle();
    const { pending, running } = started.client(client).info().queue;
    if (pending + running === 0) break;
    // the queue settles on its own events: yield until it did (the test holds the deadline)
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await started.plugins.idle();
}

type Command =
  | { cmd: 'send'; from: string; client: string; text: string }
  | { cmd: 'settle'; seq: number; client: string };

if (options.order) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const cmd = JSON.parse(line) as Command;
    if (cmd.cmd === 'settle') {
      void settle(cmd.client)
        .then(() => started.conversations.list())
        .then((conversations) => report('settled', { seq: cmd.seq, conversations }));
      return;
    }
    const bot = started.client(cmd.client).info().me?.id ?? '';
    void started.simulator
      .phone(cmd.from)
      .send(bot, cmd.text)
      .then(({ id }) => report('phone-sent', { from: cmd.from, text: cmd.text, id }));
  });
}

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
