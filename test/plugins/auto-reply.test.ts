import { expect } from 'chai';
import autoReply from '../../plugins/auto-reply/index.js';
import {
  ALICE,
  ALICE_ID,
  BOB,
  BOT_ID,
  GROUP_ID,
  pluginFixture,
  settle,
  type PluginFixture,
} from './plugin-helpers.js';

describe('auto-reply plugin', () => {
  let fx: PluginFixture;
  afterEach(() => fx?.cleanup());

  async function start(options: unknown, config = {}) {
    fx = await pluginFixture(config);
    fx.sdk.use(autoReply, options);
    await fx.start();
  }
  const botAnswers = (phone: string) =>
    fx.sdk.simulator
      .phone(phone)
      .inbox.filter((m) => m.author === BOT_ID)
      .map((m) => m.body);

  it('answers with the first matching rule, with placeholders', async () => {
    await start({
      rules: [
        { match: 'hours', type: 'contains', reply: 'We open at 9, {{name}}.' },
        { match: 'HOURS please', type: 'exact', reply: 'never reached' },
        { match: 'price', type: 'startsWith', reply: '{{from}} asked: {{body}}' },
        { match: '^order #(\\d+)$', type: 'regex', reply: 'Order noted' },
      ],
    });
    const alice = fx.sdk.simulator.phone(ALICE);
    await alice.send(BOT_ID, 'hours please');
    expect((await alice.waitForMessage((m) => m.author === BOT_ID)).body).to.equal(
      'We open at 9, Alice.',
    );
    await alice.send(BOT_ID, 'Price of tea?');
    await alice.waitForMessage((m) => m.body.startsWith(ALICE));
    await alice.send(BOT_ID, 'ORDER #42');
    await alice.waitForMessage((m) => m.body === 'Order noted');
    await alice.send(BOT_ID, 'order #42 now');
    await settle(80);
    expect(botAnswers(ALICE)).to.deep.equal([
      'We open at 9, Alice.',
      `${ALICE} asked: Price of tea?`,
      'Order noted',
    ]);
  });

  it('honours caseSensitive, scope and chats', async () => {
    await start({
      rules: [
        { match: 'Hi', type: 'exact', caseSensitive: true, reply: 'exact Hi', scope: 'private' },
        { match: 'group', reply: 'group only', scope: 'group' },
        { match: 'vip', reply: 'vip only', chats: [`+${BOB}`] },
      ],
    });
    const alice = fx.sdk.simulator.phone(ALICE);
    const bob = fx.sdk.simulator.phone(BOB);
    await alice.send(BOT_ID, 'hi');
    await alice.send(GROUP_ID, 'Hi');
    await alice.send(BOT_ID, 'Hi');
    await alice.waitForMessage((m) => m.body === 'exact Hi');
    await alice.send(BOT_ID, 'group');
    await alice.send(GROUP_ID, 'group');
    await alice.waitForMessage((m) => m.body === 'group only');
    await alice.send(BOT_ID, 'vip');
    await bob.send(BOT_ID, 'vip');
    await bob.waitForMessage((m) => m.body === 'vip only' && m.chatId === BOT_ID);
    await settle(80);
    const toAlice = fx.sdk.simulator
      .phone(ALICE)
      .inbox.filter((m) => m.author === BOT_ID)
      .map((m) => `${m.chatId === GROUP_ID ? 'group' : 'dm'}:${m.body}`);
    expect(toAlice).to.deep.equal(['dm:exact Hi', 'group:group only']);
  });

  it('cools down per chat: a storm gets one answer', async () => {
    await start({
      rules: [{ match: 'spam', reply: 'calm down', cooldownMs: 60_000 }],
      cooldownMs: 0,
    });
    const alice = fx.sdk.simulator.phone(ALICE);
    for (let i = 0; i < 5; i += 1) await alice.send(BOT_ID, 'spam');
    await fx.sdk.simulator.phone(BOB).send(BOT_ID, 'spam');
    await fx.sdk.simulator.phone(BOB).waitForMessage((m) => m.body === 'calm down');
    await settle(80);
    expect(botAnswers(ALICE)).to.deep.equal(['calm down']);
  });

  it('never answers its own messages', async () => {
    await start({ rules: [{ match: 'echo', reply: 'echo' }], cooldownMs: 0 });
    await fx.sdk.client('bot').sendTextMessage({ to: ALICE_ID, text: 'echo' });
    await settle(100);
    expect(botAnswers(ALICE)).to.deep.equal(['echo']);
  });

  it('turns invalid rules (bad regex, unknown type, bad chat id) into config errors with paths', async () => {
    fx = await pluginFixture();
    let error: { code?: string; issues?: { path: string; message: string }[] } | undefined;
    try {
      fx.sdk.use(autoReply, {
        rules: [
          { match: '(unclosed', type: 'regex', reply: 'x' },
          { match: 'a', type: 'fuzzy', reply: 'x' },
          { match: 'a', reply: 'x', chats: ['not a chat'] },
        ],
      });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error?.code).to.equal('CONFIG_INVALID');
    const paths = error?.issues?.map((i) => i.path);
    expect(paths).to.include.members([
      'plugins.auto-reply.rules.0.match',
      'plugins.auto-reply.rules.1.type',
      'plugins.auto-reply.rules.2.chats.0',
    ]);
    expect(error?.issues?.[0]?.message).to.match(/^invalid regular expression/);
  });
});
