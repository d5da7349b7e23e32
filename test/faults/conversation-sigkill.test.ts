// SIGKILL at each step of the reference order dialog (templates/basic/plugins/order.ts), with real
// processes (test/helpers/dialog-child.ts) on one data path: the person goes on where they were
// and no reply arrives twice. Ground truth: the file the simulated phone's received messages are
// appended to, synchronously, across both processes.
//
// What it proves: killed once a step is journaled and its send recorded as sent (each boundary),
// the restarted bot has the same conversation at the same step, sends nothing again, and takes
// the next answer to the end ("Order placed: #1.", listed by !orders): every bot message exactly
// once, in order. Killed as the answer leaves the phone (the bot has not read it: it dies with
// the simulated network), re-sending it gets the reply once. Its limit, measured: killed while a
// reply is between the engine and the outbox's `sent` (it reached the phone), that one reply
// arrives twice (the outbox's at-least-once window, docs/queue.md), and nothing else does.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationInfo } from '../../src/conversations/types.js';
import type { DialogChildOptions } from '../helpers/dialog-child.js';
import { CONTACT, FaultDir, killAll, watchChild, type ChildServer } from './child-server.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/dialog-child.ts',
);
const PERSON = CONTACT;

/** The person's answers and the bot's reply to each, in order. */
const DIALOG = [
  { answer: '!order', reply: 'Which size?\n1. small\n2. medium\n3. large' },
  { answer: '2', reply: 'Delivery address?' },
  { answer: '1 Main Street', reply: 'Confirm: a medium order to 1 Main Street? (yes/no)' },
  { answer: 'yes', reply: 'Order placed: #1.' },
] as const;
const ORDERS = { answer: '!orders', reply: '#1: medium to 1 Main Street' } as const;
/** Every bot message of a complete run, each once, in order. */
const EXPECTED = [...DIALOG.map((s) => s.reply), ORDERS.reply];

interface Bot extends ChildServer {
  /** Every inbound message handled, the queue empty: the active conversations. */
  settle(): Promise<ConversationInfo[]>;
  /** The person sends `answer` and the bot's `reply` arrives. */
  exchange(step: { answer: string; reply: string }): Promise<void>;
  send(text: string, kill?: boolean): void;
}

async function startBot(dir: FaultDir): Promise<Bot> {
  const options: DialogChildOptions = {
    dataPath: dir.dataPath,
    received: dir.receivedFile,
    phones: [PERSON],
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const server = watchChild(child, 'http://127.0.0.1:0', 'unused');
  await Promise.all([
    server.waitFor('started', (l) => l.event === 'started'),
    server.waitFor('ready', (l) => l.event === 'ready'),
  ]);
  let seq = 0;
  const send = (text: string, kill = false): void =>
    server.command({ cmd: 'send', from: PERSON, text, ...(kill ? { kill } : {}) });
  return Object.assign(server, {
    async settle() {
      seq += 1;
      const mine = seq;
      server.command({ cmd: 'settle', seq: mine });
      const line = await server.waitFor(
        `settled #${mine}`,
        (l) => l.event === 'settled' && l.seq === mine,
      );
      return line.conversations as ConversationInfo[];
    },
    async exchange(step: { answer: string; reply: string }) {
      send(step.answer);
      await server.waitFor(
        `the reply to ${JSON.stringify(step.answer)}`,
        (l) => l.event === 'received' && l.body === step.reply,
      );
    },
    send,
  });
}

/** What the person received, by text, across every process so far. */
function counts(dir: FaultDir): Map<string, number> {
  const counted = new Map<string, number>();
  for (const { body } of dir.received()) counted.set(body, (counted.get(body) ?? 0) + 1);
  return counted;
}

function printCounts(label: string, dir: FaultDir): void {
  const line = [...counts(dir)].map(([body, n]) => `${JSON.stringify(body)} ×${n}`).join(', ');
  console.log(`      ${label}: ${line}`);
}

/** The bot's messages the person received so far, in order. */
const bodies = (dir: FaultDir): string[] => dir.received().map((r) => r.body);

/** In a settled bot: the one active conversation of the person, waiting with its timer armed. */
function waitingOne(conversations: ConversationInfo[]): ConversationInfo {
  expect(conversations, 'one active conversation').to.have.length(1);
  const [conversation] = conversations;
  expect(conversation.name).to.equal('order');
  expect(conversation.timer?.action, 'waiting for the person, its timer armed').to.equal('remind');
  return conversation;
}

/** Finishes the dialog in `bot` from step `from` on, then `!orders`; nothing left active. */
async function finish(bot: Bot, from: number): Promise<void> {
  for (const step of DIALOG.slice(from)) await bot.exchange(step);
  await bot.exchange(ORDERS);
  expect(await bot.settle(), 'no conversation left active').to.deep.equal([]);
}

describe('faults: SIGKILL in a conversation, restart on the same data path (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  const boundaries = [
    { at: 1, after: 'the size menu arrived' },
    { at: 2, after: '"Delivery address?" arrived' },
    { at: 3, after: 'the confirmation question arrived' },
  ];
  for (const { at, after } of boundaries) {
    it(`SIGKILL after ${after}: the dialog goes on where it was, every reply received once`, async () => {
      const first = await startBot(dir);
      for (const step of DIALOG.slice(0, at)) await first.exchange(step);
      // Killed once the step is journaled and its send is recorded as sent in the outbox.
      const before = waitingOne(await first.settle());
      expect((await first.kill('SIGKILL')).signal).to.equal('SIGKILL');
      expect(bodies(dir)).to.deep.equal(EXPECTED.slice(0, at));

      const second = await startBot(dir);
      const resumed = waitingOne(await second.settle());
      expect(resumed.id, 'the same conversation, from the store').to.equal(before.id);
      expect(resumed.steps, 'at the same step').to.equal(before.steps);
      // keyed by the person's LID, derived from their number: the same in the new simulated network
      expect(resumed.chatId).to.equal(before.chatId).and.match(/@lid$/);
      expect(bodies(dir), 'nothing sent again by the restart').to.deep.equal(EXPECTED.slice(0, at));
      await finish(second, at);

      expect(bodies(dir), 'each bot message once, in order').to.deep.equal(EXPECTED);
      printCounts(`killed at step ${at} (${before.steps} journaled steps)`, dir);
      await second.kill('SIGTERM');
    });
  }

  it('SIGKILL as soon as the answer left the phone: the answer is journaled and answered once, or lost and answered once when re-sent', async () => {
    const first = await startBot(dir);
    await first.exchange(DIALOG[0]);
    const before = waitingOne(await first.settle());
    first.send(DIALOG[1].answer, true);
    expect((await first.exited).signal).to.equal('SIGKILL');
    const journaled = first.lines.some(
      (l) => l.event === 'journaled' && l.k === 'in' && l.text === DIALOG[1].answer,
    );
    expect(bodies(dir), 'the reply had not arrived').to.deep.equal(EXPECTED.slice(0, 1));

    const second = await startBot(dir);
    if (journaled) {
      // The bot had read the answer: its reply comes with no new message from the person.
      await second.waitFor(
        'the reply',
        (l) => l.event === 'received' && l.body === DIALOG[1].reply,
      );
    } else {
      // The message died with the first process's simulated network: the bot never read it.
      const resumed = waitingOne(await second.settle());
      expect([resumed.id, resumed.steps]).to.deep.equal([before.id, before.steps]);
      expect(bodies(dir)).to.deep.equal(EXPECTED.slice(0, 1));
      await second.exchange(DIALOG[1]);
    }
    await finish(second, 2);
    expect(bodies(dir), 'each bot message once, in order').to.deep.equal(EXPECTED);
    printCounts(`killed as the answer left (${journaled ? 'journaled' : 'not read'})`, dir);
    await second.kill('SIGTERM');
  });

  it("the outbox's window: SIGKILL as a reply reaches the phone, before its `sent` is journaled: that reply alone arrives twice, the dialog goes on", async () => {
    const first = await startBot(dir);
    await first.exchange(DIALOG[0]);
    waitingOne(await first.settle());
    first.command({ cmd: 'kill-on-receive', body: DIALOG[1].reply });
    first.send(DIALOG[1].answer);
    expect((await first.exited).signal).to.equal('SIGKILL');
    expect(bodies(dir)).to.deep.equal(EXPECTED.slice(0, 2));

    const second = await startBot(dir);
    // The outbox cannot know the send went out: it sends it again at start (docs/queue.md).
    await second.waitFor(
      'the re-sent reply',
      (l) => l.event === 'received' && l.body === DIALOG[1].reply,
    );
    await finish(second, 2);
    const expected = [...EXPECTED.slice(0, 2), DIALOG[1].reply, ...EXPECTED.slice(2)];
    expect(bodies(dir), 'the in-flight reply twice, nothing else').to.deep.equal(expected);
    printCounts('killed as a reply arrived (outbox window)', dir);
    await second.kill('SIGTERM');
  });

  it('SIGKILL right after the answer was journaled, before its reply was sent: the reply comes once after the restart, with no new message', async () => {
    const first = await startBot(dir);
    await first.exchange(DIALOG[0]);
    waitingOne(await first.settle());
    first.command({ cmd: 'kill-on-journal', k: 'in' });
    first.send(DIALOG[1].answer);
    expect((await first.exited).signal).to.equal('SIGKILL');
    expect(bodies(dir), 'the reply had not arrived').to.deep.equal(EXPECTED.slice(0, 1));

    const second = await startBot(dir);
    await second.waitFor(
      'the reply to the journaled answer',
      (l) => l.event === 'received' && l.body === DIALOG[1].reply,
      20_000,
    );
    await finish(second, 2);
    expect(bodies(dir), 'each bot message once, in order').to.deep.equal(EXPECTED);
    printCounts('killed after the answer was journaled', dir);
    await second.kill('SIGTERM');
  });
});
