// The reference dialog of the scaffolded bot (templates/basic/plugins/order.ts), run as it ships on
// the simulator with the dialog test kit: by number, label and poll vote; retries, cancel,
// interrupts, the reminder and the expiry fired by a virtual clock with no message.
import '../helpers/wakitjs-alias.js';
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sdk } from '../../src/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { typingDelayMs } from '../../src/client/send/deliver-action.js';

const { createTestSdk } = await import('../../src/index.js');
const { testChat, VirtualClock } = await import('../../src/entries/testing.js');

const ORDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);
const BOT = '15550000001';

/** Yields (bounded) until `ok`: the bot works on real time, the clock only moves when told. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 2));
  expect(ok()).to.equal(true);
}

async function bot(
  options: { menu?: 'text' | 'poll'; timeoutSeconds?: number; typing?: boolean | number } = {},
): Promise<{ sdk: Sdk; clock: InstanceType<typeof VirtualClock> }> {
  const { dir } = await tempDir();
  const file = path.join(dir, 'bot.config.json');
  await writeFile(
    file,
    JSON.stringify({
      engine: { type: 'whatsapp-web.js' },
      auth: { type: 'local' },
      clients: ['bot'],
      plugins: { [ORDER]: { timeoutSeconds: 60, menu: 'text', ...options } },
    }),
  );
  const clock = new VirtualClock();
  const sdk = await createTestSdk(file, { phone: BOT, clock });
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
  return { sdk, clock };
}

describe('conversations: the reference order dialog (templates/basic)', function () {
  this.timeout(20_000);
  let sdk: Sdk;
  let clock: InstanceType<typeof VirtualClock>;
  afterEach(async () => sdk?.stop());

  it('orders by number, keeps the order in the chat state, and !orders lists it', async () => {
    ({ sdk, clock } = await bot());
    const alice = testChat(sdk, '15550001111', { clock });
    await alice.send('!order');
    await alice.expectReply('Which size?\n1. small\n2. medium\n3. large');
    await alice.send('2');
    await alice.expectReply('Delivery address?');
    await alice.send('1 Main Street');
    await alice.expectReply('Confirm: a medium order to 1 Main Street? (yes/no)');
    await alice.send('yes');
    await alice.expectReply('Order placed: #1.');
    await alice.send('!orders');
    await alice.expectReply('#1: medium to 1 Main Street');
    expect(await sdk.conversations.list()).to.deep.equal([]);
    await alice.expectNoReply();
  });

  it('each reply shows "typing…" first (typing: true by default), the answer only after it', async () => {
    ({ sdk, clock } = await bot());
    const dora = testChat(sdk, '15550004444', { clock });
    const phone = sdk.simulator.phone('15550004444');
    const typing = () =>
      phone.actions.filter((a) => a.type === 'chat-state' && a.state === 'typing');
    await dora.send('!order');
    await dora.expectReply(/^Which size\?/);
    await dora.send('small');
    // the bot types the next question: nothing arrives until its time passed on the clock
    await until(() => typing().length === 2);
    expect(typing()).to.have.length(2);
    const before = clock.now();
    const answered = phone.inbox.filter((m) => m.body === 'Delivery address?');
    expect(answered).to.have.length(0);
    await dora.expectReply('Delivery address?');
    expect(clock.now() - before).to.equal(typingDelayMs('Delivery address?'));
  });

  it('typing: false sends at once: no "typing…", no time passes', async () => {
    ({ sdk, clock } = await bot({ typing: false }));
    const erin = testChat(sdk, '15550005555', { clock });
    const before = clock.now();
    await erin.send('!order');
    await erin.expectReply(/^Which size\?/);
    expect(clock.now()).to.equal(before);
    expect(
      sdk.simulator.phone('15550005555').actions.filter((a) => a.type === 'chat-state'),
    ).to.deep.equal([]);
  });

  it('takes the label, retries a wrong answer, and three wrong answers cancel', async () => {
    ({ sdk, clock } = await bot());
    const bob = testChat(sdk, '15550002222', { clock });
    await bob.send('!order');
    await bob.expectReply(/^Which size\?/);
    await bob.send('huge');
    await bob.expectReply('Please answer 1, 2 or 3 (or small, medium, large).');
    await bob.send('LARGE');
    await bob.expectReply('Delivery address?');
    await bob.send('abc');
    await bob.expectReply('The address needs at least 5 characters.');
    await bob.send('x');
    await bob.expectReply('The address needs at least 5 characters.');
    await bob.send('y');
    await bob.expectReply('Too many wrong answers: order cancelled.');
    await bob.expectNoReply();
    expect(await sdk.conversations.list()).to.have.length(0);
  });

  it('accepts a vote on the poll menu', async () => {
    ({ sdk, clock } = await bot({ menu: 'poll' }));
    const carol = testChat(sdk, '15550003333', { clock });
    await carol.send('!order');
    const poll = await carol.expectReply('Which size?');
    expect(poll.type).to.equal('poll_creation');
    await carol.vote('small');
    await carol.expectReply('Delivery address?');
    await carol.send('22 Side Road');
    await carol.expectReply(/^Confirm: a small order/);
    await carol.send('no');
    await carol.expectReply('Order cancelled.');
  });

  it('"cancel" at any step cancels; a command in between runs and the dialog goes on', async () => {
    ({ sdk, clock } = await bot());
    const dan = testChat(sdk, '15550004444', { clock });
    await dan.send('!order');
    await dan.expectReply(/^Which size\?/);
    await dan.send('!orders');
    await dan.expectReply('No orders yet: send !order.');
    await dan.send('3');
    await dan.expectReply('Delivery address?');
    await dan.send('Cancel');
    await dan.expectReply('Order cancelled.');
    await dan.expectNoReply();
    expect(await sdk.conversations.list()).to.have.length(0);
  });

  it('no answer: one reminder after timeoutSeconds, then "order expired" after the same again', async () => {
    // to the millisecond: no typing (its time counts in the timeout: the wait starts when the
    // question is accepted, not when it arrives)
    ({ sdk, clock } = await bot({ timeoutSeconds: 60, typing: false }));
    const erin = testChat(sdk, '15550005555', { clock });
    await erin.send('!order');
    await erin.expectReply(/^Which size\?/);
    await erin.advance(59_000);
    await erin.expectNoReply();
    await erin.advance(1_000);
    await erin.expectReply('Are you still there? Answer the last question, or send "cancel".');
    await erin.advance(59_999);
    await erin.expectNoReply();
    await erin.advance(1);
    await erin.expectReply('Order expired.');
    await erin.expectNoReply();
    expect(await sdk.conversations.list()).to.have.length(0);
    await erin.send('1');
    await erin.expectNoReply();
  });
});
