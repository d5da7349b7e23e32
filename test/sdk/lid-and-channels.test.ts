/**
 * WhatsApp as it is today, on the simulator: LID-addressed people and groups, resolution of who is
 * who, replies and sends by LID, channels and status, and the per-operation chat id kinds.
 */
import { expect } from 'chai';
import {
  definePlugin,
  isWakitError,
  type BotClient,
  type CommandContext,
  type ErrorCode,
  type Message,
} from '../../src/index.js';
import autoReplyPlugin from '../../plugins/auto-reply/index.js';
import {
  ALICE,
  ALICE_ID,
  BOB,
  BOT_ID,
  BOT_PHONE,
  eventually,
  pluginFixture,
  settle,
  type PluginFixture,
} from '../plugins/plugin-helpers.js';

const LID_PHONE = '15550003333';
const LID_DIGITS = '123456789012345';
const LID_ID = `${LID_DIGITS}@lid`;
const LID_GROUP = '120363000000000009@g.us';
const CHANNEL = '120363000000000777@newsletter';

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('LID, channels and status (simulator)', () => {
  let fx: PluginFixture;
  let client: BotClient;
  const received: Message[] = [];
  const commands: string[] = [];
  const spy = definePlugin({
    name: 'spy',
    setup(ctx) {
      ctx.command(
        'whoami',
        (cmd: CommandContext) => {
          commands.push(cmd.message.sender.id);
          return cmd.reply(`you are ${cmd.message.sender.phone ?? 'hidden'}`);
        },
        { description: 'Tell who you are' },
      );
      ctx.command(
        'boss',
        (cmd: CommandContext) => {
          commands.push(`boss:${cmd.message.sender.id}`);
          return cmd.reply('yes boss');
        },
        { description: 'Owners only', owners: [`+${ALICE}`, LID_ID] },
      );
      ctx.command('kick', (cmd: CommandContext) => cmd.reply('kicked'), {
        description: 'Admins only',
        adminOnly: true,
      });
      ctx.on('message', (event, next) => {
        received.push(event.message);
        return next();
      });
    },
  });

  beforeEach(async () => {
    received.length = 0;
    commands.length = 0;
    fx = await pluginFixture();
    fx.sdk.use(spy).use(autoReplyPlugin, { rules: [{ match: '.*', reply: 'auto' }] });
    client = await fx.start();
    fx.sdk.simulator.phone(LID_PHONE, { pushname: 'Lia', lidAddressed: true, lid: LID_DIGITS });
    fx.sdk.simulator.group({
      id: LID_GROUP,
      members: [BOT_PHONE, ALICE, LID_PHONE],
      admins: [LID_PHONE],
      addressing: 'lid',
    });
  });
  afterEach(() => fx.cleanup());

  const last = () => received.at(-1)!;

  it('a LID-addressed user arrives as @lid with the number hidden, and replies by LID reach them', async () => {
    const lia = fx.sdk.simulator.phone(LID_PHONE);
    await lia.send(BOT_ID, 'hello');
    await eventually(() => received.length === 1);
    const message = last();
    expect(message.from).to.equal(LID_ID);
    expect(message.chatId).to.equal(LID_ID);
    expect(message.sender).to.deep.equal({ id: LID_ID, lid: LID_ID, pushname: 'Lia' });
    const { id } = await message.reply('hi Lia');
    const answer = await lia.waitForMessage((m) => m.body === 'hi Lia');
    expect(answer.quotedMessageId).to.be.a('string');
    expect(answer.chatId).to.equal(BOT_ID);
    expect(id).to.contain(LID_ID);
    // a send by LID, with the SDK
    await client.sendTextMessage({ to: LID_ID, text: 'by lid' });
    await lia.waitForMessage((m) => m.body === 'by lid');
  });

  it('resolveContact gives LID and phone like the real look-up; hidden numbers stay hidden', async () => {
    expect(await client.resolveContact(`+${ALICE}`)).to.deep.include({
      id: ALICE_ID,
      phone: ALICE_ID,
      pushname: 'Alice',
      isRegistered: true,
    });
    expect((await client.resolveContact(ALICE_ID)).lid).to.match(/^\d{15}@lid$/);
    const hidden = await client.resolveContact(LID_ID);
    expect(hidden).to.deep.equal({ id: LID_ID, lid: LID_ID, pushname: 'Lia', isRegistered: true });
    expect(await client.resolveContact('19990009999')).to.deep.equal({
      id: '19990009999@c.us',
      isRegistered: false,
    });
    const bad = await rejection(client.resolveContact(LID_GROUP));
    expect(isWakitError(bad, 'INVALID_CHAT_ID')).to.equal(true);
    expect((bad as Error).message).to.contain('a group is not a person');
  });

  it('a saved contact shows the number of a LID user', async () => {
    fx.sdk.simulator.linkedPhone('bot')!.addContact(LID_PHONE);
    const info = await client.resolveContact(LID_ID);
    expect(info.phone).to.equal(`${LID_PHONE}@c.us`);
    await fx.sdk.simulator.phone(LID_PHONE).send(BOT_ID, 'again');
    await eventually(() => received.length === 1);
    expect(last().sender).to.deep.equal({
      id: LID_ID,
      lid: LID_ID,
      phone: `${LID_PHONE}@c.us`,
      pushname: 'Lia',
    });
  });

  it('groups in LID addressing mode show authors by LID; sender is completed with the phone when visible', async () => {
    await fx.sdk.simulator.phone(ALICE).send(LID_GROUP, 'in the lid group');
    await eventually(() => received.length === 1);
    const message = last();
    expect(message.author).to.match(/^\d{15}@lid$/);
    expect(message.sender.id).to.equal(message.author);
    expect(message.sender.phone).to.equal(ALICE_ID);
    expect(message.isGroup).to.equal(true);
    await message.reply('group answer');
    await fx.sdk.simulator.phone(ALICE).waitForMessage((m) => m.body === 'group answer');
  });

  it('owners and adminOnly match a person whether they arrive by phone or by LID', async () => {
    const alice = fx.sdk.simulator.phone(ALICE);
    const lia = fx.sdk.simulator.phone(LID_PHONE);
    // Alice is an owner by phone; in the LID group she arrives by LID
    await alice.send(LID_GROUP, '!boss');
    await alice.waitForMessage((m) => m.body === 'yes boss');
    // Lia is an owner by LID (her number is hidden)
    await lia.send(BOT_ID, '!boss');
    await lia.waitForMessage((m) => m.body === 'yes boss');
    // Lia is a group admin (by phone in the group), arriving by LID
    await lia.send(LID_GROUP, '!kick');
    await lia.waitForMessage((m) => m.body === 'kicked');
    // Bob is neither
    const bob = fx.sdk.simulator.phone(BOB);
    await bob.send(BOT_ID, '!boss');
    const denied = await bob.waitForMessage((m) => m.author === BOT_ID);
    expect(denied.body).to.not.equal('yes boss');
    const before = alice.inbox.length;
    await alice.send(LID_GROUP, '!kick');
    const notAdmin = await alice.waitForMessage(
      (m) => alice.inbox.indexOf(m) >= before && m.author === BOT_ID,
    );
    expect(notAdmin.body).to.not.equal('kicked');
  });

  it('channel posts and status updates are flagged and not fed to commands or auto-reply', async () => {
    fx.sdk.simulator.channel({ id: CHANNEL, admins: [ALICE], followers: [BOT_PHONE] });
    const alice = fx.sdk.simulator.phone(ALICE);
    await alice.send(CHANNEL, '!whoami');
    await alice.send('status@broadcast', '!whoami');
    await eventually(() => received.length === 2);
    const [post, status] = received;
    expect(post).to.deep.include({ isChannel: true, isStatus: false, from: CHANNEL });
    expect(post.sender).to.deep.equal({ id: CHANNEL });
    expect(status).to.deep.include({ isChannel: false, isStatus: true, from: 'status@broadcast' });
    expect(status.sender.phone).to.equal(ALICE_ID);
    await settle(100);
    expect(commands).to.deep.equal([]);
    expect(alice.inbox.filter((m) => m.author === BOT_ID)).to.deep.equal([]);
    // replying to a status or a channel post is refused, saying why
    const statusReply = await rejection(() => status.reply('nice'));
    expect(isWakitError(statusReply, 'INVALID_CHAT_ID')).to.equal(true);
    expect((statusReply as Error).message).to.contain('status feed');
    const channelReply = await rejection(() => post.reply('nice'));
    expect((channelReply as Error).message).to.contain('channels (@newsletter)');
  });

  it('the bot posts to channels it administers and to its status; others are refused by WhatsApp', async () => {
    fx.sdk.simulator.channel({ id: CHANNEL, admins: [BOT_PHONE], followers: [ALICE] });
    await client.sendTextMessage({ to: CHANNEL, text: 'news' });
    const news = await fx.sdk.simulator.phone(ALICE).waitForMessage((m) => m.body === 'news');
    expect(news.chatId).to.equal(CHANNEL);
    await client.sendTextMessage({ to: 'status@broadcast', text: 'my status' });
    fx.sdk.simulator.channel({ id: '120363000000000778', admins: [ALICE] });
    const refused = await rejection(
      client.sendTextMessage({ to: '120363000000000778@newsletter', text: 'x' }),
    );
    expect(isWakitError(refused, 'PERMISSION_DENIED')).to.equal(true);
  });

  it('each operation takes only the kinds that make sense, before anything is queued', async () => {
    const doc = { url: 'http://127.0.0.1:1/x.pdf', filename: 'x.pdf' };
    const cases: Array<[Promise<unknown>, ErrorCode, string]> = [
      [
        client.sendTextMessage({ to: ALICE_ID, text: 'x', options: { mentions: [LID_GROUP] } }),
        'INVALID_CHAT_ID',
        'a group is not a person',
      ],
      [
        client.sendDocumentMessage({ to: CHANNEL, document: doc }),
        'VALIDATION_FAILED',
        'documents cannot be sent to channels',
      ],
      [
        client.sendStickerMessage({
          to: 'status@broadcast',
          sticker: { url: 'http://127.0.0.1:1/s.webp' },
        }),
        'VALIDATION_FAILED',
        'stickers cannot be sent to status',
      ],
      [
        client.sendTextMessage({
          to: CHANNEL,
          text: 'x',
          options: { quotedMessageId: 'true_a_b' },
        }),
        'VALIDATION_FAILED',
        'quoted replies',
      ],
    ];
    for (const [promise, code, text] of cases) {
      const error = await rejection(promise);
      expect(isWakitError(error, code), String(error)).to.equal(true);
      expect((error as Error).message).to.contain(text);
    }
    await fx.sdk.simulator.phone(ALICE).send(BOT_ID, 'forward me');
    await eventually(() => received.length === 1);
    const forward = await rejection(() => last().forward('status@broadcast'));
    expect(isWakitError(forward, 'INVALID_CHAT_ID')).to.equal(true);
    expect(client.info().queue.pending).to.equal(0);
  });
});
