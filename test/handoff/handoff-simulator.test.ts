// Handoff on the simulator (docs/handoff.md): a person answering from the account's phone in the
// middle of the reference order dialog silences the bot in that chat only; after the configured
// silence the bot resumes (by policy); closed chats get nothing; the deadline survives a restart.
import '../helpers/wakitjs-alias.js';
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatModeChange } from '../../src/entries/types.js';
import type { Sdk } from '../../src/index.js';
import { definePlugin } from '../../src/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const { createTestSdk } = await import('../../src/index.js');
const { testChat, VirtualClock } = await import('../../src/entries/testing.js');

const ORDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../templates/basic/plugins/order.ts',
);
const BOT = '15550000001';
const MINUTE = 60_000;

type Clock = InstanceType<typeof VirtualClock>;

async function bot(
  handoff: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{ sdk: Sdk; clock: Clock; file: string }> {
  const { dir } = await tempDir();
  const file = path.join(dir, 'bot.config.json');
  await writeFile(
    file,
    JSON.stringify({
      engine: { type: 'whatsapp-web.js' },
      auth: { type: 'local' },
      clients: ['bot'],
      handoff: { auto: true, silenceMinutes: 10, ...handoff },
      plugins: { [ORDER]: { timeoutSeconds: 60, menu: 'text' } },
      ...extra,
    }),
  );
  const clock = new VirtualClock();
  const sdk = await createTestSdk(file, { phone: BOT, clock });
  return { sdk, clock, file };
}

async function started(fx: { sdk: Sdk }): Promise<void> {
  await fx.sdk.start();
  await fx.sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
}

describe('handoff: chat modes on the simulator', function () {
  this.timeout(20_000);
  let sdk: Sdk;
  let clock: Clock;
  afterEach(async () => sdk?.stop());

  it('a reply from the phone mid-dialog silences the bot in that chat only; after the silence it resumes', async () => {
    ({ sdk, clock } = await bot({ resumeMessage: 'The bot is back.' }));
    const changes: ChatModeChange[] = [];
    await started({ sdk });
    sdk.client('bot').on('chat.mode', (change) => changes.push(change));
    const alice = testChat(sdk, '15550001111', { clock });
    const bob = testChat(sdk, '15550002222', { clock });
    await alice.send('!order');
    await alice.expectReply(/^Which size\?/);
    await bob.send('!order');
    await bob.expectReply(/^Which size\?/);

    await alice.fromPhone('Hi Alice, I am Carol from the shop: what do you need?');
    expect((await sdk.chats.mode('bot', alice.id)).mode).to.equal('human');
    await alice.send('2');
    await alice.send('!orders');
    await alice.expectNoReply();
    // the other chat goes on
    await bob.send('3');
    await bob.expectReply('Delivery address?');
    expect((await sdk.chats.mode('bot', bob.id)).mode).to.equal('bot');

    // the conversation's timer does not fire while a person answers (60 s timeout, 9 min passed)
    await alice.advance(9 * MINUTE);
    await alice.expectNoReply();
    // Carol writes again: the silence starts again
    await alice.fromPhone('One moment please.');
    await alice.advance(9 * MINUTE);
    expect((await sdk.chats.mode('bot', alice.id)).mode).to.equal('human');
    await alice.expectNoReply();
    await alice.advance(1 * MINUTE);
    await alice.expectReply('The bot is back.');
    const info = await sdk.chats.mode('bot', alice.id);
    expect(info).to.include({ mode: 'bot', by: 'silence' });
    // paused, not ended: the dialog goes on at the question it asked
    await alice.send('2');
    await alice.expectReply('Delivery address?');
    // keyed as conversations are: the person by one id (their LID, as WhatsApp knows them)
    expect(info.chatId).to.match(/@lid$/);
    expect(changes.map((c) => `${c.chatId} ${c.previous}→${c.mode} ${c.by}`)).to.deep.equal([
      `${info.chatId} bot→human phone`,
      `${info.chatId} human→bot silence`,
    ]);
    // Bob's dialog ran its own timers meanwhile: the reminder, then the expiry
    expect(bob.replies.map((m) => m.body).slice(1)).to.deep.equal([
      'Delivery address?',
      'Are you still there? Answer the last question, or send "cancel".',
      'Order expired.',
    ]);
  });

  it('policy "end": the active conversation ends when a person takes over', async () => {
    ({ sdk, clock } = await bot({ conversations: 'end' }));
    await started({ sdk });
    const alice = testChat(sdk, '15550001111', { clock });
    await alice.send('!order');
    await alice.expectReply(/^Which size\?/);
    expect(await sdk.conversations.list('bot')).to.have.length(1);
    await alice.fromPhone('I will take it from here.');
    expect(await sdk.conversations.list('bot')).to.deep.equal([]);
    await alice.advance(10 * MINUTE);
    expect((await sdk.chats.mode('bot', alice.id)).mode).to.equal('bot');
    // back to bot without a resume message; the order was ended: "2" is no answer
    await alice.send('2');
    await alice.expectNoReply();
    await alice.send('!order');
    await alice.expectReply(/^Which size\?/);
  });

  it('a closed chat gets nothing; a handler that opted in still sees its messages', async () => {
    ({ sdk, clock } = await bot({ auto: false }));
    const seen: string[] = [];
    sdk.use(
      definePlugin({
        name: 'audit',
        setup(ctx) {
          ctx.on(
            'message',
            ({ message }, next) => {
              seen.push(message.body);
              return next();
            },
            { allModes: true },
          );
        },
      }),
    );
    await started({ sdk });
    const alice = testChat(sdk, '15550001111', { clock });
    const set = await sdk.chats.setMode('bot', '+1 555 000 1111', 'closed');
    expect(set).to.include({ mode: 'closed', by: 'sdk' });
    expect((await sdk.chats.mode('bot', alice.id)).chatId).to.equal(set.chatId);
    await alice.send('!order');
    await alice.send('!help');
    await alice.send('hello');
    await alice.expectNoReply();
    expect(seen).to.deep.equal(['!order', '!help', 'hello']);
    // auto off: a reply from the phone does not switch anything
    const other = testChat(sdk, '15550003333', { clock });
    await other.fromPhone('hello from the shop');
    expect((await sdk.chats.mode('bot', other.id)).mode).to.equal('bot');
    await other.send('!order');
    await other.expectReply(/^Which size\?/);
    await sdk.chats.setMode('bot', alice.id, 'bot');
    await alice.send('!order');
    await alice.expectReply(/^Which size\?/);
  });

  it("the bot's own sends never switch a chat; operators switch with !human, !bot, !close", async () => {
    ({ sdk, clock } = await bot({ operators: ['15550009999'] }));
    await started({ sdk });
    const alice = testChat(sdk, '15550001111', { clock });
    const boss = testChat(sdk, '15550009999', { clock });
    await alice.send('!order');
    await alice.expectReply(/^Which size\?/);
    await alice.send('2');
    await alice.expectReply('Delivery address?');
    await sdk.client('bot').sendTextMessage({ to: alice.id, text: 'A note from the SDK' });
    await alice.expectReply('A note from the SDK');
    expect((await sdk.chats.mode('bot', alice.id)).mode).to.equal('bot');

    await boss.send(`!human ${alice.id}`);
    await boss.expectReply(/^Chat \d+@lid: human$/);
    await alice.send('1 Main Street');
    await alice.expectNoReply();
    // an operator's mode is not lifted by silence
    await alice.advance(60 * MINUTE);
    expect((await sdk.chats.mode('bot', alice.id)).mode).to.equal('human');
    // a person who is no operator cannot switch
    await alice.send('!bot');
    await alice.expectNoReply();
    // the account itself, from the phone, in the chat
    await alice.fromPhone('!bot');
    expect(await sdk.chats.mode('bot', alice.id)).to.include({ mode: 'bot', by: 'operator' });
    await alice.send('1 Main Street');
    await alice.expectReply('Confirm: a medium order to 1 Main Street? (yes/no)');
    await boss.send('!close');
    await boss.expectReply(/^Chat \d+@lid: closed$/);
    await boss.send('!help');
    await boss.expectNoReply();
  });
});
