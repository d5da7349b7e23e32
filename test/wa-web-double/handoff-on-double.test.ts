/**
 * Handoff on the real whatsapp-web.js 1.34.7 + the WhatsApp Web double (docs/handoff.md): a
 * message the account writes from its phone arrives as `message_create` with `fromMe` and no wakit
 * tracking id, and switches the chat to `human`; the bot's own send before it switched nothing.
 */
import { expect } from 'chai';
import type { ChatModeChange } from '../../src/entries/types.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

describe('handoff on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h.cleanup();
  });

  it('a message sent from the phone switches the chat to human; a wakit send does not', async () => {
    h = await DoubleHarness.create();
    const sdk = h.sdk({ handoff: { auto: true, silenceMinutes: 5 } });
    await sdk.start();
    const client = sdk.createClient({ name: 'bot' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
    const changes: ChatModeChange[] = [];
    const created: { fromMe: boolean; body: string }[] = [];
    client.on('chat.mode', (change) => changes.push(change));
    client.on('message.create', (m) => created.push({ fromMe: m.fromMe, body: m.body }));

    const echoed = new Promise((resolve) =>
      client.on('message.create', (m) => m.body === 'Hello from the bot' && resolve(m)),
    );
    await client.sendTextMessage({ to: ALICE.pn, text: 'Hello from the bot' });
    await echoed;
    const switched = new Promise<ChatModeChange>((resolve) => client.once('chat.mode', resolve));
    const before = Date.now();
    await h.phone('sendFromPhone', { to: ALICE.pn, body: 'Carol here, from the shop' });
    const change = await switched;
    // the switch came from the phone's message, not from the bot's own one before it
    expect(Date.parse(change.at)).to.be.at.least(before);

    expect(change).to.include({ client: 'bot', mode: 'human', previous: 'bot', by: 'phone' });
    expect((await sdk.chats.mode('bot', ALICE.pn)).mode).to.equal('human');
    // both arrived as message_create with fromMe; only the one wakit did not send switched
    expect(created).to.deep.include({ fromMe: true, body: 'Hello from the bot' });
    expect(created).to.deep.include({ fromMe: true, body: 'Carol here, from the shop' });
    expect(changes).to.have.length(1);
  });
});
