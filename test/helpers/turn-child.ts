/**
 * One bot of the turns fault test (test/faults/turn-sigkill.test.ts): client `bot` on the simulator
 * engine (session under `dataPath`, so a restart links again without a QR), the SQLite outbox and
 * conversation store (the defaults, in `dataPath`), `conversations.turns` as given, and one plugin
 * that answers each turn with its size and its text: `turn of <n>: <text | text | …>`.
 *
 * Ground truth: every message that reaches one of the simulated `phones` is appended to the
 * `received` file synchronously as the simulated network delivers it (as in dialog-child.ts).
 *
 * stdout: JSON lines: pino's, and `{ "event": ... }`: `started`, `ready`, `received`, `phone-sent`,
 * `turn-written` (a window written to the store: its message count, `handled` once claimed),
 * `settled`.
 * stdin: JSON lines
 * - `{ "cmd": "send", "from", "text" }`: the phone `from` sends `text` to the bot;
 * - `{ "cmd": "kill-on-turn", "messages"?: n, "claimed"?: true }`: SIGKILL as soon as a window
 *   holding `n` messages is committed to the store (`claimed`: as soon as a turn is claimed, before
 *   it is handed to the handlers);
 * - `{ "cmd": "settle", "seq" }`: every inbound message handled and the queue empty.
 *
 * Usage: node --import tsx test/helpers/turn-child.ts '<TurnChildOptions as JSON>'
 */
import './wakitjs-alias.js';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { writeLine } from './write-line.js';

const { createSdk, definePlugin } = await import('../../src/index.js');
const { SqliteConversationStore } =
  await import('../../src/conversations/store/sqlite-conversation-store.js');
await import('../../src/entries/simulator.js');

export interface TurnChildOptions {
  dataPath: string;
  received: string;
  phones: string[];
  turns: { quietMs: number; maxMs?: number };
}

const options = JSON.parse(process.argv[2] ?? '') as TurnChildOptions;

function report(event: string, data: Record<string, unknown> = {}): void {
  writeLine(1, `${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

let killOn: { messages?: number; claimed?: boolean } | undefined;

// Every window the turns write, reported once it is in the store (better-sqlite3 writes
// synchronously: what is reported here survives a SIGKILL).
type Store = InstanceType<typeof SqliteConversationStore>;
const proto = SqliteConversationStore.prototype;
const putState = Object.getOwnPropertyDescriptor(proto, 'putState')?.value as Store['putState'];
proto.putState = async function (this: Store, ...args) {
  const version = await putState.apply(this, args);
  const [key, value] = args;
  if (version !== undefined && key.startsWith('turn:')) {
    const turn = value as { messages: unknown[]; handled?: boolean };
    const handled = turn.handled === true;
    report('turn-written', { messages: turn.messages.length, handled });
    if (killOn?.claimed && handled) die();
    if (killOn?.messages === turn.messages.length && !handled) die();
  }
  return version;
};

const logger = pino({ level: 'info' }, pino.destination({ dest: 1, sync: true }));
const sdk = createSdk(
  {
    engine: { type: 'simulator', autoScanMs: 20, autoScanPhone: '15550000001', ackDelayMs: 5 },
    auth: { type: 'local', dataPath: options.dataPath },
    clients: ['bot'],
    queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
    conversations: { turns: options.turns },
  },
  { logger },
);
sdk.use(
  definePlugin({
    name: 'turn-echo',
    setup(ctx) {
      ctx.on('message', async ({ message }) => {
        const parts = message.turn?.length ?? 0;
        await message.reply(`turn of ${parts}: ${message.body.replaceAll('\n', ' | ')}`);
      });
    },
  }),
);

for (const number of options.phones) {
  const account = sdk.simulator.phone(number) as unknown as {
    receive(record: { body: string }): void;
  };
  const receive = account.receive.bind(account);
  account.receive = (record) => {
    appendFileSync(options.received, `${JSON.stringify({ to: number, body: record.body })}\n`);
    receive(record);
    report('received', { to: number, body: record.body });
  };
}

sdk.onClient((client) => {
  client.on('ready', () => report('ready', { client: client.name }));
});

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  for (;;) {
    await sdk.plugins.idle();
    const { pending, running } = sdk.client('bot').info().queue;
    if (pending + running === 0) break;
    // the queue settles on its own events: yield until it did (the test holds the deadline)
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await sdk.plugins.idle();
}

type Command =
  | { cmd: 'send'; from: string; text: string }
  | { cmd: 'kill-on-turn'; messages?: number; claimed?: boolean }
  | { cmd: 'settle'; seq: number };

createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as Command;
  if (cmd.cmd === 'kill-on-turn') {
    killOn = cmd;
  } else if (cmd.cmd === 'settle') {
    void settle().then(() => report('settled', { seq: cmd.seq }));
  } else {
    const bot = sdk.client('bot').info().me?.id ?? '';
    void sdk.simulator
      .phone(cmd.from)
      .send(bot, cmd.text)
      .then(({ id }) => report('phone-sent', { from: cmd.from, text: cmd.text, id }));
  }
});

sdk.start().then(
  () => report('started'),
  (error: unknown) => {
    report('failed', { message: error instanceof Error ? error.message : String(error) });
    process.exit(3);
  },
);
