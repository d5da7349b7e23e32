// Inbound flood control (`flood` config, docs/safety.md): on the simulator with a VirtualClock, a
// person who sends 100 messages in 10 s is answered within the limit and gets one notice; every
// message is still received and observed; other chats, operators and allow-listed chats are not
// throttled; after the interval the person is answered again.
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestSdk, definePlugin, type Sdk } from '../../src/index.js';
import { testChat, VirtualClock } from '../../src/entries/testing.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const NOTICE = 'Slow down please.';
const GROUP = '120363000000000077@g.us';

describe('plugins: inbound flood control', function () {
  this.timeout(60_000);
  let sdk: Sdk;
  let clock: VirtualClock;
  let cleanup: () => Promise<void>;
  let observed: Map<string, number>;

  beforeEach(async () => {
    const made = await tempDir();
    cleanup = made.cleanup;
    const file = path.join(made.dir, 'bot.config.json');
    await writeFile(
      file,
      JSON.stringify({
        engine: { type: 'whatsapp-web.js' },
        auth: { type: 'local' },
        clients: ['bot'],
        flood: {
          enabled: true,
          direct: { messages: 10, intervalMs: 60_000 },
          groups: { messages: 3, intervalMs: 60_000 },
          notice: NOTICE,
          operators: ['+1 555 000 9999'],
          allowChats: ['15550008888'],
        },
      }),
    );
    clock = new VirtualClock();
    sdk = await createTestSdk(file, { clock });
    observed = new Map();
    sdk.use(
      definePlugin({
        name: 'echo',
        setup(ctx) {
          ctx.events.observe('message', ({ message }) =>
            observed.set(message.from, (observed.get(message.from) ?? 0) + 1),
          );
          ctx.on('message', async ({ message }) => {
            await message.reply(`echo ${message.body}`);
          });
        },
      }),
    );
    await sdk.start();
    await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    sdk.simulator.group({
      id: GROUP,
      name: 'Team',
      members: ['15550000001', '15550001111', '15550002222'],
    });
  });
  afterEach(async () => {
    await sdk?.stop();
    await cleanup?.();
  });

  it('100 messages in 10 s from one person: one notice, answered within the limit, others unaffected', async () => {
    const alice = testChat(sdk, '15550001111', { clock });
    const bob = testChat(sdk, '15550002222', { clock });
    for (let n = 0; n < 100; n++) {
      await alice.send(`m${n}`);
      if (n % 10 === 0) await bob.send(`b${n}`);
      await alice.advance(100);
    }
    await alice.advance(0); // every message handled, every send out
    const toAlice = alice.replies.map((m) => m.body);
    const answered = toAlice.filter((body) => body.startsWith('echo '));
    // 10 at once, then one per 6 s: 11 within the 10 s
    expect(answered).to.deep.equal([...Array(11).keys()].map((n) => `echo m${n < 10 ? n : 60}`));
    expect(toAlice.filter((body) => body === NOTICE)).to.have.length(1);
    // nothing lost: every message was received and observed
    expect(observed.get(alice.id)).to.equal(100);
    // bob, writing at his own pace meanwhile, got every answer and no notice
    expect(bob.replies.map((m) => m.body)).to.deep.equal(
      [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((n) => `echo b${n}`),
    );
    // after the interval alice is answered again
    await alice.advance(60_000);
    await alice.send('back');
    await alice.advance(0);
    expect(alice.replies.map((m) => m.body).at(-1)).to.equal('echo back');
  });

  it('operators and allow-listed chats are never throttled', async () => {
    const operator = testChat(sdk, '15550009999', { clock });
    const allowed = testChat(sdk, '15550008888', { clock });
    for (let n = 0; n < 30; n++) {
      await operator.send(`o${n}`);
      await allowed.send(`a${n}`);
    }
    await operator.advance(0);
    expect(operator.replies.map((m) => m.body)).to.have.length(30);
    expect(allowed.replies.map((m) => m.body)).to.have.length(30);
    expect([...operator.replies, ...allowed.replies].some((m) => m.body === NOTICE)).to.equal(
      false,
    );
  });

  it('groups have their own limit, per person in the group, apart from private chats', async () => {
    const alice = testChat(sdk, '15550001111', { clock });
    const phone = sdk.simulator.phone('15550001111');
    const bobPhone = sdk.simulator.phone('15550002222');
    for (let n = 0; n < 5; n++) {
      await phone.send(GROUP, `g${n}`);
      await alice.send(`d${n}`);
    }
    await bobPhone.send(GROUP, 'bob');
    await alice.advance(0);
    const inGroup = phone.inbox
      .filter((m) => m.chatId === GROUP && m.author === '15550000001@c.us')
      .map((m) => m.body);
    // alice: 3 answered in the group, then one notice; bob in the same group is answered
    expect(inGroup).to.deep.equal(['echo g0', 'echo g1', 'echo g2', NOTICE, 'echo bob']);
    // her private chat counts apart: 5 of 10
    expect(alice.replies.map((m) => m.body)).to.deep.equal(
      [0, 1, 2, 3, 4].map((n) => `echo d${n}`),
    );
  });
});
