/**
 * One bot of the conversation fault tests (test/faults/conversation-sigkill.test.ts): client `bot`
 * on the simulator engine (session saved under `dataPath`, so a restart on the same path links
 * again without a QR), the SQLite outbox and the SQLite conversation store (both defaults, beside
 * each other in `dataPath`), the scaffolded bot's order dialog (templates/basic/plugins/order.ts,
 * loaded as it ships: it imports `wakitjs`), no pacing.
 *
 * Ground truth: every message that reaches one of the simulated `phones` is appended to the
 * `received` file synchronously (fs.appendFileSync) as the simulated network delivers it, before
 * the engine's send call returns: a SIGKILL never loses the record of a message that arrived. It is
 * also printed as a `received` event.
 *
 * The simulated network lives in this process: a restart makes a new one. The phones keep their
 * numbers, and a LID is derived from the number (src/engines/simulator/ids.ts, deriveLid), so the
 * person's chat key, and so their conversation, is the same in every run.
 *
 * stdout: JSON lines, pino's log lines and this script's `{ "event": ... }` lines: `started`,
 * `ready`, `received`, `journaled` (a conversation step committed to the store: its index, kind
 * and, for an answer, its text), `phone-sent`, `settled` (with the active conversations).
 * stdin: JSON lines
 * - `{ "cmd": "send", "from", "text", "kill"?: true }`: the phone `from` sends `text` to the bot
 *   (`kill`: SIGKILL this process as soon as the phone's send returned);
 * - `{ "cmd": "kill-on-receive", "body" }`: SIGKILL as a message with this text reaches a phone
 *   (recorded in the ground truth, its `sent` not journaled in the outbox: the outbox's window);
 * - `{ "cmd": "kill-on-journal", "k": "in" }`: SIGKILL as soon as the next step of this kind is
 *   committed to the conversation store (an answer journaled, its reply not yet sent);
 * - `{ "cmd": "settle", "seq" }`: waits until every inbound message is handled and the queue is
 *   empty, then reports `settled` with `seq` and `sdk.conversations.list()`;
 * - `{ "cmd": "from-phone", "to", "text", "kill"?: true }`: the bot's own account writes `text`
 *   from its phone to `to` (handoff, docs/handoff.md; `kill`: SIGKILL once its chat switched).
 *   Each `chat.mode` event is reported as `mode`.
 *
 * Usage: node --import tsx test/helpers/dialog-child.ts '<DialogChildOptions as JSON>'
 */
import './wakitjs-alias.js';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { Step } from '../../src/conversations/store/conversation-store.js';
import { writeLine } from './write-line.js';

const { createSdk, isWakitError } = await import('../../src/index.js');
const { SqliteConversationStore } =
  await import('../../src/conversations/store/sqlite-conversation-store.js');
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
await import('../../src/entries/simulator.js');

export interface DialogChildOptions {
  dataPath: string;
  /** JSON-lines file the phones' received messages are appended to. */
  received: string;
  /** Numbers of the simulated people. */
  phones: string[];
  /** The order plugin's `timeoutSeconds` (default 300: no timer fires during a test). */
  timeoutSeconds?: number;
  /** The `handoff` config section (default: none). */
  handoff?: Record<string, unknown>;
}

const ORDER_PLUGIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);

const options = JSON.parse(process.argv[2] ?? '') as DialogChildOptions;

function report(event: string, data: Record<string, unknown> = {}): void {
  writeLine(1, `${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

const logger = pino({ level: 'info' }, pino.destination({ dest: 1, sync: true }));

/** Kill points armed over stdin. */
let killOnReceive: string | undefined;
let killOnJournal: Step['k'] | undefined;

// Every step the conversations commit, reported once it is in the store (better-sqlite3 writes
// synchronously: what is reported here survives a SIGKILL).
type Store = InstanceType<typeof SqliteConversationStore>;
const proto = SqliteConversationStore.prototype;
const append = Object.getOwnPropertyDescriptor(proto, 'append')?.value as Store['append'];
proto.append = async function (this: Store, ...args) {
  const ok = await append.apply(this, args);
  const [id, index, step] = args;
  const text = step.k === 'in' ? (step.v as { body?: unknown }).body : undefined;
  report('journaled', { id, index, k: step.k, ok, ...(text !== undefined ? { text } : {}) });
  if (ok && killOnJournal === step.k) die();
  return ok;
};

let sdk;
try {
  sdk = createSdk(
    {
      engine: { type: 'simulator', autoScanMs: 20, autoScanPhone: '15550000001', ackDelayMs: 5 },
      auth: { type: 'local', dataPath: options.dataPath },
      clients: ['bot'],
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      ...(options.handoff ? { handoff: options.handoff } : {}),
      plugins: { [ORDER_PLUGIN]: { timeoutSeconds: options.timeoutSeconds ?? 300, menu: 'text' } },
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
const started = sdk;

let count = 0;
for (const number of options.phones) {
  const phone = started.simulator.phone(number);
  // The network hands each message to the phone through its (internal) `receive`: record it there,
  // synchronously, so what the person got survives a SIGKILL of this process.
  const account = phone as unknown as { receive(record: { body: string; author?: string }): void };
  const receive = account.receive.bind(account);
  account.receive = (record) => {
    count += 1;
    appendFileSync(options.received, `${JSON.stringify({ to: number, body: record.body })}\n`);
    if (killOnReceive !== undefined && record.body === killOnReceive) die();
    receive(record);
    report('received', { to: number, body: record.body, count });
  };
}

let killOnMode = false;
started.onClient((client) => {
  client.on('ready', () => report('ready', { client: client.name }));
  client.on('chat.mode', (change) => {
    report('mode', { ...change });
    if (killOnMode) die();
  });
});

/** Every inbound message handled, every send out of the queue (as the dialog test kit settles). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (;;) {
    await started.plugins.idle();
    const { pending, running } = started.client('bot').info().queue;
    if (pending + running === 0) break;
    // the queue settles on its own events: yield until it did (the test holds the deadline)
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await started.plugins.idle();
}

type Command =
  | { cmd: 'send'; from: string; text: string; kill?: boolean }
  | { cmd: 'kill-on-receive'; body: string }
  | { cmd: 'kill-on-journal'; k: Step['k'] }
  | { cmd: 'settle'; seq: number }
  | { cmd: 'from-phone'; to: string; text: string; kill?: boolean };

createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as Command;
  if (cmd.cmd === 'kill-on-receive') {
    killOnReceive = cmd.body;
  } else if (cmd.cmd === 'kill-on-journal') {
    killOnJournal = cmd.k;
  } else if (cmd.cmd === 'from-phone') {
    killOnMode = cmd.kill === true;
    const own = started.simulator.linkedPhone('bot');
    void own
      ?.send(started.simulator.phone(cmd.to).id, cmd.text)
      .then(({ id }) => report('phone-sent', { from: 'bot', text: cmd.text, id }));
  } else if (cmd.cmd === 'settle') {
    void settle()
      .then(() => started.conversations.list())
      .then((conversations) => report('settled', { seq: cmd.seq, conversations }));
  } else {
    const bot = started.client('bot').info().me?.id ?? '';
    void started.simulator
      .phone(cmd.from)
      .send(bot, cmd.text)
      .then(({ id }) => {
        report('phone-sent', { from: cmd.from, text: cmd.text, id });
        if (cmd.kill) die();
      });
  }
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
