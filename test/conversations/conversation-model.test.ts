// The conversation model on the simulator: per-chat order, 50 chats at once, a restart that
// resumes from the journal, the run-time checks (a send outside the API, a replay that takes
// another path), a version change, and chat state written by many at once without a lost update.
import { expect } from 'chai';
import type { Sdk } from '../../src/index.js';
import { defineConversation, definePlugin, z } from '../../src/index.js';
import { testChat } from '../../src/entries/testing.js';
import type { WakitErrorEvent } from '../../src/index.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const BOT = '15550000001';
const number = (i: number): string => `1555100${String(i).padStart(4, '0')}`;

/** A bot with the given plugin, linked; its errors collected. */
async function bot(dataPath: string, plugin: ReturnType<typeof definePlugin>) {
  const sdk = simulatorSdk(dataPath);
  const errors: WakitErrorEvent[] = [];
  sdk.on('error', (e) => errors.push(e));
  sdk.use(plugin);
  await sdk.start();
  await linkedClient(sdk, 'bot', BOT);
  return { sdk, errors };
}

const greet = (version = 1, path: { branch: 'a' | 'b' } = { branch: 'a' }) =>
  definePlugin({
    name: 'greet',
    setup(ctx) {
      ctx.conversations.define(
        defineConversation({
          name: 'greet',
          version,
          trigger: { command: 'greet' },
          versionChanged: 'We changed: start again.',
          async run(conv) {
            const name = await conv.text('Your name?');
            // a branch on something not journaled: a replay after a change takes another path
            if (path.branch === 'a') await conv.say(`Hi ${name}! Your town?`);
            else await conv.say(`Hello ${name}. Your town?`);
            const town = await conv.text();
            await conv.say(`${name} from ${town}: noted.`);
          },
        }),
      );
    },
  });

describe('conversations: the model', function () {
  this.timeout(60_000);
  const sdks: Sdk[] = [];
  afterEach(async () => {
    while (sdks.length > 0) await sdks.pop()?.stop();
  });

  it('handles the messages of one chat in order, one at a time; another chat is not held', async () => {
    const { dir } = await tempDir();
    const seen: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { sdk } = await bot(
      dir,
      definePlugin({
        name: 'order-probe',
        setup(ctx) {
          ctx.on('message', async ({ message }) => {
            seen.push(`start ${message.body}`);
            if (message.body === 'a1') await held;
            seen.push(`end ${message.body}`);
          });
        },
      }),
    );
    sdks.push(sdk);
    const a = sdk.simulator.phone(number(1));
    const b = sdk.simulator.phone(number(2));
    await a.send(`${BOT}@c.us`, 'a1');
    await a.send(`${BOT}@c.us`, 'a2');
    await b.send(`${BOT}@c.us`, 'b1');
    const deadline = Date.now() + 5_000;
    while (!seen.includes('end b1') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // b1 went through while a1 was held; a2 waited for a1
    expect(seen).to.deep.equal(['start a1', 'start b1', 'end b1']);
    release();
    await sdk.plugins.idle();
    expect(seen).to.deep.equal(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
  });

  it('50 chats at once each complete their dialog', async () => {
    const { dir } = await tempDir();
    const { sdk, errors } = await bot(dir, greet());
    sdks.push(sdk);
    const chats = Array.from({ length: 50 }, (_, i) =>
      testChat(sdk, number(i), { timeoutMs: 20_000 }),
    );
    await Promise.all(
      chats.map(async (chat, i) => {
        await chat.send('!greet');
        await chat.expectReply('Your name?');
        await chat.send(`P${i}`);
        await chat.expectReply(`Hi P${i}! Your town?`);
        await chat.send(`T${i}`);
        await chat.expectReply(`P${i} from T${i}: noted.`);
      }),
    );
    for (const chat of chats) await chat.expectNoReply();
    expect(await sdk.conversations.list()).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });

  it('a restart resumes from the journal: the dialog goes on, nothing is sent twice', async () => {
    const { dir } = await tempDir();
    const first = await bot(dir, greet());
    const alice = testChat(first.sdk, number(7));
    await alice.send('!greet');
    await alice.expectReply('Your name?');
    await alice.send('Alice');
    await alice.expectReply('Hi Alice! Your town?');
    await first.sdk.stop();

    const second = await bot(dir, greet());
    sdks.push(second.sdk);
    const [active] = await second.sdk.conversations.list();
    expect(active).to.include({ name: 'greet', steps: 3 }); // said, received, said: now waiting
    const again = testChat(second.sdk, number(7));
    await again.send('Paris');
    await again.expectReply('Alice from Paris: noted.');
    await again.expectNoReply();
    // the new process sent only the last line: the replay sent nothing again
    expect(again.replies.map((m) => m.body)).to.deep.equal(['Alice from Paris: noted.']);
    expect(second.errors).to.deep.equal([]);
  });

  it('a replay that takes another path fails with CONVERSATION_NONDETERMINISTIC, and the person is told', async () => {
    const { dir } = await tempDir();
    const path = { branch: 'a' as 'a' | 'b' };
    const first = await bot(dir, greet(1, path));
    const bob = testChat(first.sdk, number(8));
    await bob.send('!greet');
    await bob.expectReply('Your name?');
    await bob.send('Bob');
    await bob.expectReply('Hi Bob! Your town?');
    await first.sdk.stop();

    path.branch = 'b'; // the code changed without a new version
    const second = await bot(dir, greet(1, path));
    sdks.push(second.sdk);
    const again = testChat(second.sdk, number(8));
    await again.send('Rome');
    await again.expectReply('Sorry, something went wrong: please start again.');
    await again.expectNoReply();
    expect(second.errors.map((e) => [e.source, e.error.code])).to.deep.equal([
      ['conversation', 'CONVERSATION_NONDETERMINISTIC'],
    ]);
    expect(await second.sdk.conversations.list()).to.deep.equal([]);
  });

  it('a new version ends the older journal with versionChanged', async () => {
    const { dir } = await tempDir();
    const first = await bot(dir, greet(1));
    const carol = testChat(first.sdk, number(9));
    await carol.send('!greet');
    await carol.expectReply('Your name?');
    await first.sdk.stop();

    const second = await bot(dir, greet(2));
    sdks.push(second.sdk);
    const again = testChat(second.sdk, number(9));
    await again.send('Carol');
    await again.expectReply('We changed: start again.');
    await again.expectNoReply();
    expect(await second.sdk.conversations.list()).to.deep.equal([]);
  });

  it('a send from a conversation outside its API fails with CONVERSATION_SIDE_EFFECT', async () => {
    const { dir } = await tempDir();
    const { sdk, errors } = await bot(
      dir,
      definePlugin({
        name: 'leaky',
        setup(ctx) {
          ctx.conversations.define(
            defineConversation({
              name: 'leaky',
              trigger: { keywords: ['leak'] },
              async run(conv) {
                // a replay would send this again: refused at once
                await ctx.clients.get(conv.client).sendTextMessage({ to: conv.chatId, text: 'x' });
              },
            }),
          );
        },
      }),
    );
    sdks.push(sdk);
    const dan = testChat(sdk, number(10));
    await dan.send('leak');
    await dan.expectReply('Sorry, something went wrong: please start again.');
    await dan.expectNoReply();
    expect(errors.map((e) => e.error.code)).to.deep.equal(['CONVERSATION_SIDE_EFFECT']);
  });

  it('chat state: 100 concurrent updates, none lost; erased on request', async () => {
    const { dir } = await tempDir();
    let state!: Parameters<Parameters<typeof definePlugin>[0]['setup']>[0]['conversations'];
    const { sdk } = await bot(
      dir,
      definePlugin({
        name: 'counter',
        setup(ctx) {
          state = ctx.conversations;
        },
      }),
    );
    sdks.push(sdk);
    const schema = z.object({ count: z.number().default(0) });
    const chat = { client: 'bot', chatId: `${number(11)}@c.us` };
    await Promise.all(
      Array.from({ length: 100 }, () =>
        state.state(chat, schema).update((s) => ({ count: s.count + 1 })),
      ),
    );
    expect(await state.state(chat, schema).get()).to.deep.equal({ count: 100 });
    const [value] = await sdk.conversations.readState('bot', chat.chatId);
    expect(value?.value).to.deep.equal({ count: 100 });
    expect(await sdk.conversations.eraseState('bot', chat.chatId)).to.equal(1);
    expect(await state.state(chat, schema).get()).to.deep.equal({ count: 0 });
  });

  it('with the real clock, a timeout reminds and then expires with no new message', async () => {
    const { dir } = await tempDir();
    const { sdk, errors } = await bot(
      dir,
      definePlugin({
        name: 'slow',
        setup(ctx) {
          ctx.conversations.define(
            defineConversation({
              name: 'slow',
              trigger: { keywords: ['start'] },
              timeout: { seconds: 0.2, reminder: 'Still there?', expired: 'Expired.' },
              async run(conv) {
                await conv.text('Question?');
              },
            }),
          );
        },
      }),
    );
    sdks.push(sdk);
    const erin = testChat(sdk, number(12));
    const started = Date.now();
    await erin.send('start');
    await erin.expectReply('Question?');
    await erin.expectReply('Still there?');
    await erin.expectReply('Expired.');
    // two timeouts of 200 ms (and the sends): fired by their timers, not by a message
    expect(Date.now() - started).to.be.at.least(400);
    await erin.expectNoReply();
    expect(errors).to.deep.equal([]);
    expect(await sdk.conversations.list()).to.deep.equal([]);
  });
});
