import { expect } from 'chai';
import forwarder from '../../plugins/forwarder/index.js';
import { linkedClient } from '../helpers/sdk-fixtures.js';
import {
  ALICE,
  ALICE_ID,
  BOB,
  BOB_ID,
  BOT_ID,
  GROUP_ID,
  eventually,
  pluginFixture,
  settle,
  type PluginFixture,
} from './plugin-helpers.js';

/** The text a reader sees: copies end with the forwarder's invisible marker. */
const visible = (text: string) => text.replace(/[\u2063\u2064]/g, '');
const PNG = Buffer.from('89504e470d0a1a0a-forwarded-png');
const BOT2 = '15550000009';
const BOT2_ID = `${BOT2}@c.us`;

describe('forwarder plugin', () => {
  let fx: PluginFixture;
  afterEach(() => fx.cleanup());

  async function start(options: unknown) {
    fx = await pluginFixture();
    fx.sdk.use(forwarder, options);
    await fx.start();
  }
  const fromBot = (phone: string) =>
    fx.sdk.simulator.phone(phone).inbox.filter((m) => m.author === BOT_ID);

  it('forwards natively to every target of a matching route', async () => {
    await start({ routes: [{ from: `+${ALICE}`, to: [BOB_ID, GROUP_ID], mode: 'forward' }] });
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'news');
    const atBob = await fx.sdk.simulator
      .phone(BOB)
      .waitForMessage((m) => m.body === 'news' && m.chatId === BOT_ID);
    expect(atBob.isForwarded).to.equal(true);
    await fx.sdk.simulator
      .phone(BOB)
      .waitForMessage((m) => m.body === 'news' && m.chatId === GROUP_ID);
  });

  it('copies text and images with a prefix naming the sender', async () => {
    await start({
      routes: [
        {
          from: '*',
          to: [BOB_ID],
          mode: 'copy',
          prefix: '[{{name}} {{from}}] ',
          types: ['chat', 'image'],
        },
      ],
    });
    const alice = fx.sdk.simulator.phone(ALICE);
    await alice.send(BOT_ID, 'hello');
    const text = await fx.sdk.simulator
      .phone(BOB)
      .waitForMessage((m) => m.type === 'chat' && m.author === BOT_ID);
    expect(visible(text.body)).to.equal(`[Alice ${ALICE}] hello`);
    expect(text.body).to.not.equal(visible(text.body));
    expect(text.isForwarded).to.equal(false);
    await alice.send(BOT_ID, { data: PNG, mimetype: 'image/png', caption: 'look' });
    const image = await fx.sdk.simulator.phone(BOB).waitForMessage((m) => m.type === 'image');
    expect(visible(image.caption ?? '')).to.equal(`[Alice ${ALICE}] look`);
    expect(image.media?.data.equals(PNG)).to.equal(true);
    // types filter: a document is not routed
    await alice.send(BOT_ID, {
      data: Buffer.from('%PDF'),
      mimetype: 'application/pdf',
      filename: 'a.pdf',
    });
    await settle(80);
    expect(fromBot(BOB).map((m) => m.type)).to.deep.equal(['chat', 'image']);
  });

  it('routes only chats and texts that match', async () => {
    await start({ routes: [{ from: GROUP_ID, to: [BOB_ID], match: '^urgent', mode: 'copy' }] });
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'urgent but private');
    await fx.sdk.simulator.phone(ALICE).send(GROUP_ID, 'not now');
    await fx.sdk.simulator.phone(ALICE).send(GROUP_ID, 'URGENT: fire');
    await fx.sdk.simulator
      .phone(BOB)
      .waitForMessage((m) => visible(m.body) === 'URGENT: fire' && m.chatId === BOT_ID);
    await settle(80);
    expect(
      fromBot(BOB)
        .filter((m) => m.chatId === BOT_ID)
        .map((m) => visible(m.body)),
    ).to.deep.equal(['URGENT: fire']);
  });

  it('a failing target does not stop the others, and is reported once (source plugin)', async () => {
    const unknown = '19990009999@c.us';
    await start({ routes: [{ from: ALICE_ID, to: [unknown, BOB_ID], mode: 'copy' }] });
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'still delivered');
    await fx.sdk.simulator.phone(BOB).waitForMessage((m) => visible(m.body) === 'still delivered');
    await eventually(() => fx.errors.length > 0);
    await settle(100);
    expect(
      fx.errors.map((e) => [e.source, e.plugin, e.event, e.client, e.error.code, e.error.message]),
    ).to.deep.equal([
      [
        'plugin',
        'forwarder',
        `copy:${unknown}`,
        'bot',
        'CHAT_NOT_FOUND',
        `${unknown} is not on WhatsApp`,
      ],
    ]);
    expect(fx.errors[0].messageId).to.be.a('string').and.not.equal('');
  });

  it('never routes messages of its own accounts: no loops between two bots', async () => {
    fx = await pluginFixture();
    // bot forwards Alice to bot2; bot2 forwards bot back to Alice, and bot2 to bot: a loop without the guard
    fx.sdk.use(forwarder, {
      routes: [
        { from: ALICE_ID, to: [BOT2_ID], mode: 'copy' },
        { from: BOT_ID, to: [ALICE_ID, BOB_ID], mode: 'forward' },
        { from: BOT2_ID, to: [BOT_ID], mode: 'copy' },
      ],
    });
    await fx.start();
    await linkedClient(fx.sdk, 'bot2', BOT2);
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'once');
    await eventually(() =>
      fx.sdk.simulator.phone(BOT2).inbox.some((m) => visible(m.body) === 'once'),
    );
    await settle(150);
    expect(fx.sdk.simulator.phone(BOT2).inbox.map((m) => visible(m.body))).to.deep.equal(['once']);
    expect(fx.sdk.simulator.phone(ALICE).inbox).to.have.length(0);
    expect(fx.sdk.simulator.phone(BOB).inbox).to.have.length(0);
  });

  it('matches a LID user by the phone a route names; channel posts only when a route names the channel', async () => {
    const CHANNEL = '120363000000000777@newsletter';
    await start({
      routes: [
        { from: '+15550003333', to: [BOB_ID], mode: 'forward' },
        { from: '*', to: [BOB_ID], mode: 'copy', prefix: 'any: ' },
        { from: CHANNEL, to: [GROUP_ID], mode: 'forward' },
      ],
    });
    fx.sdk.simulator.phone('15550003333', { lidAddressed: true });
    fx.sdk.simulator.linkedPhone('bot')!.addContact('15550003333');
    fx.sdk.simulator.channel({ id: CHANNEL, admins: [ALICE], followers: ['15550000001'] });
    await fx.sdk.simulator.phone('15550003333').send(BOT_ID, 'from lid');
    const bob = fx.sdk.simulator.phone(BOB);
    const forwarded = await bob.waitForMessage((m) => m.body === 'from lid');
    expect(forwarded.isForwarded).to.equal(true);
    await fx.sdk.simulator.phone(ALICE).send(CHANNEL, 'channel post');
    await bob.waitForMessage((m) => m.body === 'channel post' && m.chatId === GROUP_ID);
    await settle(100);
    expect(bob.inbox.filter((m) => m.body === 'any: channel post')).to.deep.equal([]);
  });

  it('refuses native forwards to channels or status in its options', async () => {
    fx = await pluginFixture();
    let error: unknown;
    try {
      fx.sdk.use(forwarder, { routes: [{ from: '*', to: ['status@broadcast'], mode: 'forward' }] });
    } catch (e) {
      error = e;
    }
    expect(error).to.have.property('code', 'CONFIG_INVALID');
    expect((error as Error).message).to.contain('plugins.forwarder.routes.0.to.0');
    expect((error as Error).message).to.contain('use mode "copy"');
  });
});
