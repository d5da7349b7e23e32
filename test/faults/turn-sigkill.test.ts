// SIGKILL inside a turn window (docs/turns.md), with real processes
// (test/helpers/turn-child.ts) on one data path: a burst of 4 messages, the bot killed once the
// 4th is in the store and before the window closed; the restarted bot completes the window and
// answers the turn once, with all 4. And the other side of "once": killed right after the turn was
// claimed, the restarted bot does not hand it on again. Ground truth: the file the simulated phone's
// received messages are appended to, synchronously, across both processes.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TurnChildOptions } from '../helpers/turn-child.js';
import { CONTACT, FaultDir, killAll, watchChild, type ChildServer } from './child-server.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/turn-child.ts',
);
const PERSON = CONTACT;
const BURST = ['hi', 'I have a question', 'about my order', '#123'];
const TURN = `turn of 4: ${BURST.join(' | ')}`;
const THANKS = 'turn of 1: thanks';

interface Bot extends ChildServer {
  send(text: string): void;
  /** The phone sends `text` and the simulated network took it. */
  sent(text: string): Promise<void>;
  settle(): Promise<void>;
}

async function startBot(dir: FaultDir): Promise<Bot> {
  const options: TurnChildOptions = {
    dataPath: dir.dataPath,
    received: dir.receivedFile,
    phones: [PERSON],
    turns: { quietMs: 1_500, maxMs: 30_000 },
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
  const send = (text: string): void => server.command({ cmd: 'send', from: PERSON, text });
  return Object.assign(server, {
    send,
    async sent(text: string) {
      const before = server.lines.filter((l) => l.event === 'phone-sent' && l.text === text);
      send(text);
      await server.waitFor(
        `the phone sent ${JSON.stringify(text)}`,
        (l) => l.event === 'phone-sent' && l.text === text && !before.includes(l),
      );
    },
    async settle() {
      seq += 1;
      const mine = seq;
      server.command({ cmd: 'settle', seq: mine });
      await server.waitFor(`settled #${mine}`, (l) => l.event === 'settled' && l.seq === mine);
    },
  });
}

const bodies = (dir: FaultDir): string[] => dir.received().map((r) => r.body);

function printCounts(label: string, dir: FaultDir): void {
  const counted = new Map<string, number>();
  for (const body of bodies(dir)) counted.set(body, (counted.get(body) ?? 0) + 1);
  const line = [...counted].map(([body, n]) => `${JSON.stringify(body)} ×${n}`).join(', ');
  console.log(`      ${label}: ${line || 'nothing'}`);
}

describe('faults: SIGKILL inside a turn window, restart on the same data path (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('killed with 4 messages in the window: after the restart one turn with all 4, one answer', async () => {
    const first = await startBot(dir);
    first.command({ cmd: 'kill-on-turn', messages: 4 });
    for (const text of BURST.slice(0, -1)) await first.sent(text);
    first.send(BURST[3]);
    expect((await first.exited).signal).to.equal('SIGKILL');
    const written = first.lines.filter((l) => l.event === 'turn-written');
    expect(written.map((l) => [l.messages, l.handled])).to.deep.equal([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
    ]);
    expect(bodies(dir), 'nothing answered before the kill').to.deep.equal([]);

    const second = await startBot(dir);
    await second.waitFor('the turn', (l) => l.event === 'received' && l.body === TURN);
    // a later message gets its own turn after the quiet time: nothing else came in between
    await second.sent('thanks');
    await second.waitFor('the next turn', (l) => l.event === 'received' && l.body === THANKS);
    await second.settle();
    expect(bodies(dir), 'the turn answered once, with all 4').to.deep.equal([TURN, THANKS]);
    printCounts('killed inside the window', dir);
    await second.kill('SIGTERM');
  });

  it('killed right after the turn was claimed: the restarted bot does not hand it on again', async () => {
    const first = await startBot(dir);
    first.command({ cmd: 'kill-on-turn', claimed: true });
    for (const text of BURST) await first.sent(text);
    expect((await first.exited).signal).to.equal('SIGKILL');
    const written = first.lines.filter((l) => l.event === 'turn-written');
    expect(written.at(-1)).to.include({ messages: 4, handled: true });
    expect(bodies(dir)).to.deep.equal([]);

    const second = await startBot(dir);
    await second.sent('thanks');
    await second.waitFor('the next turn', (l) => l.event === 'received' && l.body === THANKS);
    await second.settle();
    expect(bodies(dir), 'the claimed turn is not handed on twice').to.deep.equal([THANKS]);
    printCounts('killed after the claim', dir);
    await second.kill('SIGTERM');
  });
});
