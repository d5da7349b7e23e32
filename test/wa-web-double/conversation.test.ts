/**
 * One conversation on the real whatsapp-web.js 1.34.7 + the WhatsApp Web double (issue 37): the
 * scaffolded bot's order dialog (templates/basic/plugins/order.ts, as it ships) answered by a
 * person on the phone side, on the newest build.
 */
import '../helpers/wakitjs-alias.js';
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

const ORDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);

type Sent = Array<{ to: string; body: string; type: string }>;

describe('a conversation on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h.cleanup();
  });

  it('the order dialog: menu, a number, the address, yes → "Order placed: #1.", each sent once', async () => {
    h = await DoubleHarness.create();
    const sdk = h.sdk({ plugins: { [ORDER]: { timeoutSeconds: 60, menu: 'text' } } });
    await sdk.start();
    const client = sdk.createClient({ name: 'bot' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });

    const bodies = async (): Promise<string[]> => (await h.phone<Sent>('sent')).map((m) => m.body);
    const answer = async (text: string, reply: string): Promise<void> => {
      await h.phone('receive', { from: ALICE.pn, body: text });
      const deadline = Date.now() + 20_000;
      // the page's record of what the bot sent, polled until the reply is there
      while (!(await bodies()).includes(reply)) {
        if (Date.now() > deadline)
          throw new Error(`no "${reply}": ${JSON.stringify(await bodies())}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await answer('!order', 'Which size?\n1. small\n2. medium\n3. large');
    await answer('2', 'Delivery address?');
    await answer('1 Main Street', 'Confirm: a medium order to 1 Main Street? (yes/no)');
    await answer('yes', 'Order placed: #1.');
    await sdk.plugins.idle();
    expect(await bodies()).to.deep.equal([
      'Which size?\n1. small\n2. medium\n3. large',
      'Delivery address?',
      'Confirm: a medium order to 1 Main Street? (yes/no)',
      'Order placed: #1.',
    ]);
    expect(await sdk.conversations.list()).to.deep.equal([]);
  });
});
