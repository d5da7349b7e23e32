// Handoff across a SIGKILL, with real processes (test/helpers/dialog-child.ts) on one data path: a
// person answers from the account's phone in the middle of the reference order dialog and the
// process is killed the moment the chat switched to `human`. The restarted bot keeps the chat
// `human`, says nothing, and takes over at the stored deadline with no new message: the resume
// message arrives once, and the paused order goes on at its question. Ground truth: the file the
// simulated person's received messages are appended to, synchronously, across both processes.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DialogChildOptions } from '../helpers/dialog-child.js';
import { CONTACT, FaultDir, killAll, watchChild, type ChildServer } from './child-server.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/dialog-child.ts',
);
/** 6 s of silence: short for a test, longer than a restart (about 3 s) takes to be READY again. */
const SILENCE_MINUTES = 0.1;
const MENU = 'Which size?\n1. small\n2. medium\n3. large';
const PERSON_WRITES = 'Carol here, from the shop: which size do you need?';
const BACK = 'The bot is back.';

async function startBot(dir: FaultDir): Promise<ChildServer> {
  const options: DialogChildOptions = {
    dataPath: dir.dataPath,
    received: dir.receivedFile,
    phones: [CONTACT],
    handoff: { auto: true, silenceMinutes: SILENCE_MINUTES, resumeMessage: BACK },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const server = watchChild(child, 'http://127.0.0.1:0', 'unused');
  await Promise.all([
    server.waitFor('started', (l) => l.event === 'started'),
    server.waitFor('ready', (l) => l.event === 'ready'),
  ]);
  return server;
}

describe('faults: SIGKILL right after a chat went human, restart on the same data path', function () {
  this.timeout(120_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('the restarted bot stays silent, then takes over at the deadline with no message, once', async () => {
    const first = await startBot(dir);
    first.command({ cmd: 'send', from: CONTACT, text: '!order' });
    await first.waitFor('the menu', (l) => l.event === 'received' && l.body === MENU);
    first.command({ cmd: 'from-phone', to: CONTACT, text: PERSON_WRITES, kill: true });
    const human = await first.waitFor('human', (l) => l.event === 'mode' && l.mode === 'human');
    expect(human).to.include({ previous: 'bot', by: 'phone' });
    expect((await first.exited).signal).to.equal('SIGKILL');
    const deadline = Date.parse(String(human.until));

    const second = await startBot(dir);
    // an answer meanwhile is not the bot's to take: nothing is sent
    second.command({ cmd: 'send', from: CONTACT, text: '2' });
    await second.waitFor('the bot back', (l) => l.event === 'received' && l.body === BACK, 30_000);
    expect(Date.now(), 'not before the deadline').to.be.at.least(deadline);
    const bot = await second.waitFor('bot', (l) => l.event === 'mode' && l.mode === 'bot');
    expect(bot).to.include({ previous: 'human', by: 'silence' });
    // the paused order goes on at its question
    second.command({ cmd: 'send', from: CONTACT, text: '2' });
    await second.waitFor(
      'the next question',
      (l) => l.event === 'received' && l.body === 'Delivery address?',
    );
    const bodies = dir.received().map((r) => r.body);
    console.log(`      received, in order: ${bodies.map((b) => JSON.stringify(b)).join(', ')}`);
    expect(bodies).to.deep.equal([MENU, PERSON_WRITES, BACK, 'Delivery address?']);
  });
});
