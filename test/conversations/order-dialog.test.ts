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

const { createTestSdk } = await import('../../src/index.js');
const { testChat, VirtualClock } = await import('../../src/entries/testing.js');

const ORDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);
const BOT = '15550000001';

async function bot(
  options: { menu?: 'text' | 'poll'; timeoutSeconds?: number } = {},
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
    ({ sdk, clock } = await bot({ timeoutSeconds: 60 }));
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
