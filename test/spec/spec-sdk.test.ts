/**
 * SPEC.md, "Resources and their fields" and "Endpoints / SDK operations", on the simulator: the
 * SDK configuration, clients, every send operation with the argument shapes of the specification,
 * the received message object with its methods, and the send result.
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Message, Sdk } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  mediaServer,
  simulatorSdk,
  tempDir,
} from '../helpers/sdk-fixtures.js';

const PNG = Buffer.from('89504e470d0a1a0a-fake-png');
const GROUP_ID = '120363000000000001@g.us';

describe('SPEC: SDK operations and the message object (simulator)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sdk: Sdk;
  let media: Awaited<ReturnType<typeof mediaServer>>;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    sdk = simulatorSdk(dir);
    media = await mediaServer({
      'cat.png': { type: 'image/png', body: PNG },
      'clip.mp4': { type: 'video/mp4', body: Buffer.from('mp4') },
      'voice.ogg': { type: 'audio/ogg', body: Buffer.from('ogg') },
      'report.pdf': { type: 'application/pdf', body: Buffer.from('%PDF') },
      'sticker.webp': { type: 'image/webp', body: Buffer.from('webp') },
    });
  });
  afterEach(async () => {
    await sdk.stop();
    media.close();
    await cleanup();
  });

  it('Client: sdk.createClient({ name }) has the operations and on(<event>, <handler>)', () => {
    const client = sdk.createClient({ name: 'sales' });
    for (const operation of [
      'initialize',
      'logout',
      'sendTextMessage',
      'sendImageMessage',
      'sendVideoMessage',
      'sendAudioMessage',
      'sendDocumentMessage',
      'sendStickerMessage',
      'on',
    ] as const) {
      expect(typeof client[operation], operation).to.equal('function');
    }
    expect(client.name).to.equal('sales');
  });

  it('sendTextMessage({ to, text, options }) with each text option', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const bob = sdk.simulator.phone('15550002222');
    const question = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, 'Is the shop open?');
    const asked = await question;

    const plain = await client.sendTextMessage({ to: '15550001111@c.us', text: 'Hello' });
    expect(plain.id)
      .to.be.a('string')
      .and.match(/^true_15550001111@c\.us_/);
    // linkPreview: generate link previews for URLs in the text
    await client.sendTextMessage({
      to: '15550001111@c.us',
      text: 'https://example.com',
      options: { linkPreview: true },
    });
    // sendSeen: mark the chat as seen before sending (alice's message turns read, she is told)
    await client.sendTextMessage({
      to: '15550001111@c.us',
      text: 'Seen it',
      options: { sendSeen: true },
    });
    const seen = await alice.waitForAction((a) => a.type === 'seen');
    expect(seen).to.include({ by: BOT_ID, chatId: BOT_ID });
    expect((await client.chats.get('15550001111@c.us')).unreadCount).to.equal(0);
    // mentions: contacts mentioned in the message
    await client.sendTextMessage({
      to: '15550001111@c.us',
      text: '@15550002222 will help',
      options: { mentions: ['15550002222@c.us'] },
    });
    // quotedMessageId: the message to quote or reply to
    await client.sendTextMessage({
      to: '15550001111@c.us',
      text: 'Yes, until 6',
      options: { quotedMessageId: asked.id },
    });

    expect(alice.inbox.map((m) => m.body)).to.deep.equal([
      'Hello',
      'https://example.com',
      'Seen it',
      '@15550002222 will help',
      'Yes, until 6',
    ]);
    expect(alice.inbox[3]?.mentionedIds).to.deep.equal([bob.id]);
    expect(alice.inbox[4]?.quotedMessageId).to.be.a('string');
    const [latest] = await client.chats.messages('15550001111@c.us', { limit: 1 });
    expect(latest?.quotedMessageId).to.equal(asked.id);
  });

  it('sendImageMessage({ to, image }) by url, path or buffer with mimetype, with a caption', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const file = path.join(dir, 'local.png');
    await writeFile(file, PNG);
    const results = [
      await client.sendImageMessage({
        to: '15550001111@c.us',
        image: { url: media.url('cat.png'), caption: 'by url' },
      }),
      await client.sendImageMessage({
        to: '15550001111@c.us',
        image: { path: file, caption: 'by path' },
      }),
      await client.sendImageMessage({
        to: '15550001111@c.us',
        image: { buffer: PNG, mimetype: 'image/png', caption: 'by buffer' },
      }),
    ];
    for (const result of results) expect(result.id).to.be.a('string');
    expect(alice.inbox.map((m) => [m.type, m.caption, m.media?.mimetype])).to.deep.equal([
      ['image', 'by url', 'image/png'],
      ['image', 'by path', 'image/png'],
      ['image', 'by buffer', 'image/png'],
    ]);
    for (const message of alice.inbox) expect(message.media?.data.equals(PNG)).to.equal(true);
  });

  it('sendVideoMessage, sendAudioMessage, sendDocumentMessage, sendStickerMessage by url', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    await client.sendVideoMessage({
      to: '15550001111@c.us',
      video: { url: media.url('clip.mp4'), caption: 'clip' },
    });
    await client.sendAudioMessage({
      to: '15550001111@c.us',
      audio: { url: media.url('voice.ogg') },
    });
    await client.sendDocumentMessage({
      to: '15550001111@c.us',
      document: { url: media.url('report.pdf'), filename: 'Q3 report.pdf', caption: 'Q3' },
    });
    await client.sendStickerMessage({
      to: '15550001111@c.us',
      sticker: { url: media.url('sticker.webp') },
    });
    expect(
      alice.inbox.map((m) => [m.type, m.caption, m.media?.mimetype, m.media?.filename]),
    ).to.deep.equal([
      ['video', 'clip', 'video/mp4', 'clip.mp4'],
      ['audio', undefined, 'audio/ogg', 'voice.ogg'],
      ['document', 'Q3', 'application/pdf', 'Q3 report.pdf'],
      ['sticker', undefined, 'image/webp', 'sticker.webp'],
    ]);
  });

  it('sending to a group uses the same operations with the group chat id as `to`', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const bob = sdk.simulator.phone('15550002222');
    sdk.simulator.group({ id: GROUP_ID, members: [BOT_PHONE, alice.number, bob.number] });
    await client.sendTextMessage({ to: GROUP_ID, text: 'hi group' });
    await client.sendImageMessage({
      to: GROUP_ID,
      image: { url: media.url('cat.png'), caption: 'team photo' },
    });
    for (const phone of [alice, bob]) {
      expect(phone.inbox.map((m) => [m.chatId, m.isGroup, m.body])).to.deep.equal([
        [GROUP_ID, true, 'hi group'],
        [GROUP_ID, true, 'team photo'],
      ]);
    }
  });

  it('the received message object: its fields, reply, forward and downloadMedia', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111', { pushname: 'Alice' });
    const carol = sdk.simulator.phone('15550003333');
    const received = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, {
      data: PNG,
      mimetype: 'image/png',
      filename: 'cat.png',
      caption: 'look',
    });
    const message = await received;
    expect(message).to.include({
      body: 'look',
      from: '15550001111@c.us',
      to: BOT_ID,
      hasMedia: true,
      isGroup: false,
      broadcast: false,
      hasQuotedMsg: false,
      fromMe: false,
      type: 'image',
    });
    expect(message.id).to.be.a('string');
    expect(message.timestamp)
      .to.be.a('number')
      .within(Date.now() / 1000 - 60, Date.now() / 1000 + 60);
    expect(message.ack).to.be.a('number');
    expect(message).to.include({ client: 'sales', chatId: '15550001111@c.us' }); // beyond the spec
    expect(JSON.parse(JSON.stringify(message))).to.include({ id: message.id, body: 'look' });

    expect(await message.downloadMedia()).to.deep.equal({
      data: PNG.toString('base64'),
      mimetype: 'image/png',
      filename: 'cat.png',
    });
    const reply = await message.reply('nice');
    expect(reply.id).to.be.a('string');
    expect((await alice.waitForMessage((m) => m.body === 'nice')).quotedMessageId).to.be.a(
      'string',
    );
    const forwarded = await message.forward('15550003333@c.us');
    expect(forwarded.id).to.match(/^true_15550003333@c\.us_/);
    expect(await carol.waitForMessage()).to.include({
      isForwarded: true,
      type: 'image',
      body: 'look',
    });

    const text = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, 'plain');
    expect((await rejection((await text).downloadMedia())).code).to.equal('MEDIA_NOT_FOUND');

    const inGroup = new Promise<Message>((resolve) => client.once('message', resolve));
    sdk.simulator.group({ id: GROUP_ID, members: [BOT_PHONE, alice.number] });
    await alice.send(GROUP_ID, 'hi all');
    expect(await inGroup).to.include({
      from: GROUP_ID,
      author: '15550001111@c.us',
      isGroup: true,
      hasMedia: false,
      body: 'hi all',
    });
  });
});
