// Turns (docs/turns.md) on the simulator with a virtual clock: a burst of messages
// within the quiet window is one turn with one answer; the upper bound cuts a long burst; typing
// holds the window open; the bot's config, a plugin and a conversation each turn them on; off by
// default. Each answer names how many messages its turn held, so the counts are in the replies.
import '../helpers/wakitjs-alias.js';
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sdk, WakitConfigInput } from '../../src/index.js';
import { BOT_ID, linkedClient, tempDir } from '../helpers/sdk-fixtures.js';
import { CLOCK } from '../../src/kernel/tokens.js';

const { createSdk, createTestSdk, defineConversation, definePlugin } =
  await import('../../src/index.js');
const { testChat, VirtualClock } = await import('../../src/entries/testing.js');

type Clock = InstanceType<typeof VirtualClock>;
const PERSON = '15550001111';

/** Answers each turn (each message when turns are off) with its size and its text. */
const echo = (turns?: { quietMs: number; maxMs?: number }) =>
  definePlugin({
    name: 'echo',
    ...(turns ? { turns } : {}),
    setup(ctx) {
      ctx.command('sum', (cmd) => cmd.reply(`sum ${cmd.args.map(Number).reduce((a, b) => a + b)}`));
      ctx.on('message', async ({ message }, next) => {
        if (message.body.startsWith('!')) return next();
        const parts = message.turn?.length ?? 'no turn';
        await message.reply(`${parts}: ${message.body.replaceAll('\n', ' | ')}`);
      });
      ctx.conversations.define(
        defineConversation({
          name: 'ask',
          trigger: { command: 'ask' },
          turns: { quietMs: 2_000, maxMs: 20_000 },
          async run(conv) {
            const question = await conv.text('Your question?');
            await conv.say(`Noted: ${question.replaceAll('\n', ' | ')}`);
          },
        }),
      );
    },
  });

async function bot(
  conversations: WakitConfigInput['conversations'] = {},
  plugin = echo(),
): Promise<{ sdk: Sdk; clock: Clock }> {
  const { dir } = await tempDir();
  const file = path.join(dir, 'bot.config.json');
  await writeFile(
    file,
    JSON.stringify({
      engine: { type: 'whatsapp-web.js' },
      auth: { type: 'local' },
      clients: ['bot'],
      conversations,
    }),
  );
  const clock = new VirtualClock();
  const sdk = await createTestSdk(file, { clock });
  sdk.use(plugin);
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
  return { sdk, clock };
}

describe('conversations: turns (a burst is one turn)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  afterEach(async () => {
    await sdk?.stop();
    sdk = undefined;
  });

  it('off by default: each message is its own turn, without `turn`', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot());
    const alice = testChat(sdk, PERSON, { clock });
    await alice.send('hi');
    await alice.expectReply('no turn: hi');
    await alice.send('about my order');
    await alice.expectReply('no turn: about my order');
    await alice.expectNoReply();
  });

  it('a burst of 4 messages within the quiet window is one turn, one answer', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000, maxMs: 15_000 } }));
    const alice = testChat(sdk, PERSON, { clock });
    for (const text of ['hi', 'I have a question', 'about my order', '#123']) {
      await alice.send(text);
      await alice.advance(1_500);
      await alice.expectNoReply();
    }
    await alice.advance(500);
    await alice.expectReply('4: hi | I have a question | about my order | #123');
    await alice.expectNoReply();
    expect(alice.replies).to.have.length(1);
    // the window closed: the next message opens a new one
    await alice.send('thanks');
    await alice.advance(2_000);
    await alice.expectReply('1: thanks');
    expect(alice.replies).to.have.length(2);
  });

  it('the upper bound cuts a long burst: maxMs after the first message the turn goes', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000, maxMs: 5_000 } }));
    const alice = testChat(sdk, PERSON, { clock });
    // a message every 1.5 s: the quiet window never ends, the bound (5 s) does
    for (let i = 1; i <= 6; i += 1) {
      await alice.send(`m${i}`);
      await alice.advance(1_500);
    }
    // m1..m4 came at 0, 1.5, 3, 4.5 s; the bound closed the window at 5 s
    await alice.expectReply('4: m1 | m2 | m3 | m4');
    await alice.advance(2_000);
    await alice.expectReply('2: m5 | m6');
    await alice.expectNoReply();
  });

  it('typing holds the window open; paused lets it close after the quiet time', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000, maxMs: 60_000 } }));
    const alice = testChat(sdk, PERSON, { clock });
    const phone = sdk.simulator.phone(PERSON);
    const botId = sdk.client('bot').info().me?.id ?? '';
    await alice.send('hi');
    await alice.advance(1_000);
    await phone.setChatState(botId, 'typing');
    await alice.advance(10_000);
    await alice.expectNoReply(); // 11 s after "hi": held by the typing
    await alice.send('my order is late');
    await alice.advance(1_000);
    await phone.setChatState(botId, 'recording');
    await alice.advance(20_000);
    await alice.expectNoReply();
    await phone.setChatState(botId, 'paused');
    await alice.advance(1_999);
    await alice.expectNoReply();
    await alice.advance(1);
    await alice.expectReply('2: hi | my order is late');
    await alice.expectNoReply();
  });

  it('typing without a pause holds the window 25 s at most (WhatsApp clears the indicator)', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000, maxMs: 60_000 } }));
    const alice = testChat(sdk, PERSON, { clock });
    const botId = sdk.client('bot').info().me?.id ?? '';
    await alice.send('hi');
    await sdk.simulator.phone(PERSON).setChatState(botId, 'typing');
    await alice.advance(24_999);
    await alice.expectNoReply();
    await alice.advance(1);
    await alice.expectReply('1: hi');
  });

  it('in a group each member has their own window: two members, two turns', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000 } }));
    const group = '120363000000000043@g.us';
    const botId = sdk.client('bot').info().me?.id ?? '';
    const alice = sdk.simulator.phone(PERSON);
    const bob = sdk.simulator.phone('15550002222');
    sdk.simulator.group({ id: group, members: [PERSON, '15550002222', botId] });
    const fromBot = (): string[] =>
      alice.inbox.filter((m) => m.chatId === group && m.author === botId).map((m) => m.body);
    await alice.send(group, 'a1');
    await bob.send(group, 'b1');
    await alice.send(group, 'a2');
    await bob.send(group, 'b2');
    const chat = testChat(sdk, PERSON, { clock });
    await chat.advance(1_999);
    expect(fromBot()).to.deep.equal([]);
    await chat.advance(1);
    await alice.waitForMessage((m) => m.chatId === group && m.body === '2: b1 | b2', 5_000);
    await chat.expectNoReply();
    expect(fromBot().sort()).to.deep.equal(['2: a1 | a2', '2: b1 | b2']);
  });

  it('a command on the first line of a turn runs with the later lines as its arguments', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({ turns: { quietMs: 2_000 } }));
    const alice = testChat(sdk, PERSON, { clock });
    await alice.send('!sum 1 2');
    await alice.send('3');
    await alice.advance(2_000);
    await alice.expectReply('sum 6');
    await alice.expectNoReply();
  });

  it('a plugin turns them on when the config says nothing; the config turns them off', async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot({}, echo({ quietMs: 1_000 })));
    let alice = testChat(sdk, PERSON, { clock });
    await alice.send('a');
    await alice.send('b');
    await alice.advance(1_000);
    await alice.expectReply('2: a | b');
    await sdk.stop();

    ({ sdk, clock } = await bot({ turns: { quietMs: 0 } }, echo({ quietMs: 1_000 })));
    alice = testChat(sdk, PERSON, { clock });
    await alice.send('a');
    await alice.expectReply('no turn: a');
  });

  it("a conversation's turns apply while it is active: the prompt reads the turn's text", async () => {
    let clock: Clock;
    ({ sdk, clock } = await bot());
    const alice = testChat(sdk, PERSON, { clock });
    await alice.send('!ask');
    await alice.expectReply('Your question?');
    await alice.send('where is');
    await alice.send('my order');
    await alice.advance(1_000);
    await alice.send('#123?');
    await alice.advance(1_999);
    await alice.expectNoReply();
    await alice.advance(1);
    await alice.expectReply('Noted: where is | my order | #123?');
    // ended: the bot's default (off) again
    await alice.send('bye');
    await alice.expectReply('no turn: bye');
    await alice.expectNoReply();
  });

  it('a window open at sdk.stop() stays in the SQLite store and closes after the next start, once', async () => {
    const { dir, cleanup } = await tempDir();
    const clock = new VirtualClock();
    // the SQLite conversation store (the default) in `dir`; the virtual clock as the kernel's
    const make = (): Sdk =>
      createSdk(
        {
          engine: { type: 'simulator', ackDelayMs: 5 },
          auth: { type: 'local', dataPath: dir },
          queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
          conversations: { turns: { quietMs: 2_000 } },
          log: { level: 'silent' },
        },
        { services: (c) => void c.register(CLOCK, { useValue: clock }) },
      );
    try {
      sdk = make();
      sdk.use(echo());
      await sdk.start();
      await linkedClient(sdk, 'bot');
      for (const text of ['one', 'two', 'three'])
        await sdk.simulator.phone(PERSON).send(BOT_ID, text);
      await sdk.plugins.idle();
      expect(sdk.simulator.phone(PERSON).inbox, 'nothing answered yet').to.deep.equal([]);
      await sdk.stop();

      sdk = make();
      sdk.use(echo());
      await sdk.start();
      await linkedClient(sdk, 'bot');
      const alice = testChat(sdk, PERSON, { clock });
      await alice.advance(1_999);
      await alice.expectNoReply();
      await alice.advance(1);
      await alice.expectReply('3: one | two | three');
      await alice.advance(10_000);
      await alice.expectNoReply();
    } finally {
      await sdk?.stop();
      sdk = undefined;
      await cleanup();
    }
  });

  it('checks the option: a bad `turns` is refused when defined', () => {
    expect(() => definePlugin({ name: 'x', turns: { quietMs: -1 }, setup() {} })).to.throw(
      /turns must be/,
    );
    expect(() =>
      defineConversation({ name: 'x', turns: { quietMs: 10, maxMs: 0 }, run() {} }),
    ).to.throw(/turns.maxMs/);
  });
});
