import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClientState, Message, Sdk, WakitError } from '../../src/index.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  mediaServer,
  simulatorSdk,
  tempDir,
} from '../helpers/sdk-fixtures.js';
import { rejection } from '../helpers/rejection.js';

const PNG = Buffer.from('89504e470d0a1a0a-fake-png');

describe('the spec flow on the simulator', () => {
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

  it('initialize → qr → scan → authenticated → ready, with the states of the table', async () => {
    const client = sdk.createClient({ name: 'sales' });
    const events: string[] = [];
    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    client.on('qr', (qr) => {
      events.push('qr');
      expect(qr).to.be.a('string').with.length.above(20);
      expect(client.state).to.equal('SCAN_QR');
      sdk.simulator.scan(qr, { phone: BOT_PHONE });
    });
    client.on('authenticated', (session) => {
      events.push('authenticated');
      expect(session).to.include({ client: 'sales', restored: false });
      expect(session.at).to.be.a('string');
      expect(JSON.stringify(session)).to.not.match(/token|secret/i);
    });
    client.on('ready', () => events.push('ready'));
    expect(client.state).to.equal('STOPPED');
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(events).to.deep.equal(['qr', 'authenticated', 'ready']);
    expect(states).to.deep.equal(['STARTING', 'SCAN_QR', 'AUTHENTICATED', 'READY']);
    expect(client.info()).to.deep.include({
      name: 'sales',
      state: 'READY',
      engine: 'simulator',
      me: { id: BOT_ID, pushname: client.info().me?.pushname },
    });
  });

  it('sends text and every media kind, by url, path and buffer, to contacts and groups', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const bob = sdk.simulator.phone('15550002222');
    const group = sdk.simulator.group({
      id: '120363000000000001@g.us',
      members: [BOT_PHONE, alice.number, bob.number],
    });
    const file = path.join(dir, 'local.png');
    await writeFile(file, PNG);
    const created: Message[] = [];
    client.on('message.create', (m) => created.push(m));

    const results = [
      await client.sendTextMessage({
        to: alice.id,
        text: 'hello',
        options: { linkPreview: false, sendSeen: true, mentions: [bob.id] },
      }),
      await client.sendImageMessage({
        to: alice.id,
        image: { url: media.url('cat.png'), caption: 'by url' },
      }),
      await client.sendImageMessage({ to: alice.id, image: { path: file } }),
      await client.sendImageMessage({
        to: alice.id,
        image: { buffer: PNG, mimetype: 'image/png' },
      }),
      await client.sendVideoMessage({
        to: alice.id,
        video: { url: media.url('clip.mp4'), caption: 'clip' },
      }),
      await client.sendAudioMessage({ to: alice.id, audio: { url: media.url('voice.ogg') } }),
      await client.sendDocumentMessage({
        to: alice.id,
        document: { url: media.url('report.pdf'), filename: 'report.pdf', caption: 'Q3' },
      }),
      await client.sendStickerMessage({
        to: alice.id,
        sticker: { url: media.url('sticker.webp') },
      }),
      await client.sendTextMessage({ to: group.id, text: 'hi group' }),
    ];
    for (const result of results)
      expect(result.id)
        .to.be.a('string')
        .and.match(/^true_/);

    const inbox = alice.inbox.filter((m) => !m.isGroup);
    expect(alice.inbox.filter((m) => m.isGroup).map((m) => m.body)).to.deep.equal(['hi group']);
    expect(inbox.map((m) => m.type)).to.deep.equal([
      'chat',
      'image',
      'image',
      'image',
      'video',
      'audio',
      'document',
      'sticker',
    ]);
    expect(inbox[0]?.body).to.equal('hello');
    expect(inbox[1]?.caption).to.equal('by url');
    expect(inbox[1]?.media?.data.equals(PNG)).to.equal(true);
    expect(inbox[2]?.media?.mimetype).to.equal('image/png');
    expect(inbox[6]?.media?.filename).to.equal('report.pdf');
    expect(bob.inbox.map((m) => m.body)).to.deep.equal(['hi group']);
    expect(bob.inbox[0]?.chatId).to.equal(group.id);
    expect(created.every((m) => m.fromMe)).to.equal(true);
    expect(created).to.have.length(9);
  });

  it('receives messages with the spec fields, replies, forwards and downloads media', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111', { pushname: 'Alice' });
    const carol = sdk.simulator.phone('15550003333');
    const received = new Promise<Message>((resolve) => client.once('message', resolve));
    const sent = await alice.send(BOT_ID, {
      data: PNG,
      mimetype: 'image/png',
      filename: 'cat.png',
      caption: 'look',
    });
    const message = await received;
    expect(message.id.split('_').at(-1)).to.equal(sent.id.split('_').at(-1));
    expect(message).to.include({
      from: alice.id,
      to: BOT_ID,
      chatId: alice.id,
      hasMedia: true,
      isGroup: false,
      broadcast: false,
      hasQuotedMsg: false,
      fromMe: false,
      type: 'image',
      client: 'sales',
    });
    expect(message.timestamp)
      .to.be.a('number')
      .within(Date.now() / 1000 - 60, Date.now() / 1000 + 60);
    expect(message.ack).to.be.a('number');
    expect(JSON.parse(JSON.stringify(message))).to.have.property('id', message.id);

    const downloaded = await message.downloadMedia();
    expect(downloaded).to.deep.equal({
      data: PNG.toString('base64'),
      mimetype: 'image/png',
      filename: 'cat.png',
    });

    await message.reply('nice');
    const reply = await alice.waitForMessage((m) => m.body === 'nice');
    expect(reply.quotedMessageId).to.be.a('string');

    await message.forward(carol.id);
    const forwarded = await carol.waitForMessage();
    expect(forwarded).to.include({ isForwarded: true, type: 'image' });

    const text = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, 'plain');
    expect((await rejection((await text).downloadMedia())).code).to.equal('MEDIA_NOT_FOUND');
  });

  it('receives group messages with author', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const group = sdk.simulator.group({
      id: '120363000000000002@g.us',
      members: [BOT_PHONE, alice.number],
    });
    const received = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(group.id, 'hi all');
    const message = await received;
    expect(message).to.include({
      from: group.id,
      author: alice.id,
      chatId: group.id,
      isGroup: true,
      body: 'hi all',
    });
  });

  describe('the named error scenarios of the spec', () => {
    it('chat not found', async () => {
      const client = await linkedClient(sdk, 'sales');
      expect(
        (await rejection(client.sendTextMessage({ to: '19999999999@c.us', text: 'x' }))).code,
      ).to.equal('CHAT_NOT_FOUND');
      expect(
        (await rejection(client.sendTextMessage({ to: 'not-a-chat', text: 'x' }))).code,
      ).to.equal('INVALID_CHAT_ID');
    });

    it('media download failed', async () => {
      const client = await linkedClient(sdk, 'sales');
      const alice = sdk.simulator.phone('15550001111');
      const error = await rejection(
        client.sendImageMessage({ to: alice.id, image: { url: media.url('missing.png') } }),
      );
      expect(error.code).to.equal('MEDIA_DOWNLOAD_FAILED');
      expect(error.message).to.match(/404/);
    });

    it('media download refused for private addresses by default', async () => {
      const strict = simulatorSdk(path.join(dir, 'strict'), {
        media: { allowPrivateNetworks: false },
      });
      try {
        const client = await linkedClient(strict, 'sales');
        const alice = strict.simulator.phone('15550001111');
        const error = await rejection(
          client.sendImageMessage({ to: alice.id, image: { url: media.url('cat.png') } }),
        );
        expect(error.code).to.equal('MEDIA_DOWNLOAD_FAILED');
      } finally {
        await strict.stop();
      }
    });

    it('media too large', async () => {
      const small = simulatorSdk(path.join(dir, 'small'), {
        media: { allowPrivateNetworks: true, maxBytes: 4 },
      });
      try {
        const client = await linkedClient(small, 'sales');
        const alice = small.simulator.phone('15550001111');
        expect(
          (
            await rejection(
              client.sendImageMessage({ to: alice.id, image: { url: media.url('cat.png') } }),
            )
          ).code,
        ).to.equal('MEDIA_TOO_LARGE');
      } finally {
        await small.stop();
      }
    });

    it('permission error in an admins-only group', async () => {
      const client = await linkedClient(sdk, 'sales');
      const alice = sdk.simulator.phone('15550001111');
      const group = sdk.simulator.group({
        id: '120363000000000003@g.us',
        members: [BOT_PHONE, alice.number],
        admins: [alice.number],
        adminsOnly: true,
      });
      expect((await rejection(client.sendTextMessage({ to: group.id, text: 'x' }))).code).to.equal(
        'PERMISSION_DENIED',
      );
    });

    it('message not delivered shows in the ack (-1) and the tracked send', async () => {
      const client = await linkedClient(sdk, 'sales');
      const alice = sdk.simulator.phone('15550001111');
      sdk.simulator.failDelivery(alice.id);
      const acks: number[] = [];
      client.on('message.ack', ({ ack }) => acks.push(ack));
      const { trackingId } = await client.sendTextMessage({ to: alice.id, text: 'lost' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(acks).to.include(-1);
      expect((await sdk.sends.get(trackingId))?.status).to.equal('failed');
    });

    it('acks progress to read for a delivered message', async () => {
      const client = await linkedClient(sdk, 'sales');
      const alice = sdk.simulator.phone('15550001111');
      const { trackingId } = await client.sendTextMessage({ to: alice.id, text: 'hi' });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await sdk.sends.get(trackingId)).to.include({ status: 'read', ack: 3 });
    });

    it('authentication failure', async () => {
      await linkedClient(sdk, 'sales');
      await sdk.stop();
      const again = simulatorSdk(dir);
      try {
        again.simulator.failAuth('sales');
        const client = again.createClient({ name: 'sales' });
        const failure = new Promise<WakitError>((resolve) => client.once('auth_failure', resolve));
        await client.initialize();
        expect((await failure).code).to.equal('AUTH_FAILED');
        expect(client.state).to.equal('FAILED');
        expect((await rejection(client.waitUntilReady({ timeoutMs: 100 }))).code).to.equal(
          'AUTH_FAILED',
        );
      } finally {
        await again.stop();
      }
    });

    it('session expired: disconnected(session_expired), session deleted, a new initialize shows a QR', async () => {
      const client = await linkedClient(sdk, 'sales');
      const reason = new Promise<string>((resolve) => client.once('disconnected', resolve));
      sdk.simulator.expireSession('sales');
      expect(await reason).to.equal('session_expired');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(client.state).to.equal('STOPPED');
      expect(client.info().lastDisconnect?.reason).to.equal('session_expired');
      const qr = new Promise<string>((resolve) => client.once('qr', resolve));
      await client.initialize();
      expect(await qr).to.be.a('string');
    });

    it('sending while not READY is CLIENT_NOT_READY', async () => {
      const client = sdk.createClient({ name: 'idle' });
      expect(
        (await rejection(client.sendTextMessage({ to: '15550001111@c.us', text: 'x' }))).code,
      ).to.equal('CLIENT_NOT_READY');
    });
  });

  it('restarts without a QR from the saved session, and logout deletes it', async () => {
    await linkedClient(sdk, 'sales');
    await sdk.stop();

    const second = simulatorSdk(dir);
    const client = second.createClient({ name: 'sales' });
    let qrs = 0;
    client.on('qr', () => qrs++);
    const session = new Promise<{ restored: boolean }>((resolve) =>
      client.once('authenticated', resolve),
    );
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs).to.equal(0);
    expect((await session).restored).to.equal(true);

    const reasons: string[] = [];
    client.on('disconnected', (r) => reasons.push(r));
    await client.logout();
    expect(client.state).to.equal('STOPPED');
    expect(reasons).to.deep.equal(['logout']);
    await second.stop();

    const third = simulatorSdk(dir);
    try {
      const fresh = third.createClient({ name: 'sales' });
      const qr = new Promise<string>((resolve) => fresh.once('qr', resolve));
      await fresh.initialize();
      expect(await qr).to.be.a('string');
    } finally {
      await third.stop();
    }
  });

  it('two clients side by side have separate sessions and QR codes', async () => {
    const qrs: Record<string, string> = {};
    const a = sdk.createClient({ name: 'a' });
    const b = sdk.createClient({ name: 'b' });
    a.on('qr', (qr) => {
      qrs.a = qr;
      sdk.simulator.scan(qr, { phone: '15550000011' });
    });
    b.on('qr', (qr) => {
      qrs.b = qr;
      sdk.simulator.scan(qr, { phone: '15550000022' });
    });
    await Promise.all([a.initialize(), b.initialize()]);
    await Promise.all([a.waitUntilReady(), b.waitUntilReady()]);
    expect(qrs.a).to.not.equal(qrs.b);
    expect(a.info().me?.id).to.equal('15550000011@c.us');
    expect(b.info().me?.id).to.equal('15550000022@c.us');
    await a.logout();
    expect(b.state).to.equal('READY');
    const alice = sdk.simulator.phone('15550001111');
    await b.sendTextMessage({ to: alice.id, text: 'from b' });
    expect(alice.inbox.at(-1)?.author).to.equal('15550000022@c.us');
  });

  it('rejects bad client names and duplicates', () => {
    sdk.createClient({ name: 'one' });
    expect(() => sdk.createClient({ name: 'one' }))
      .to.throw()
      .with.property('code', 'CLIENT_EXISTS');
    for (const name of ['', '../etc', 'a b', 'x'.repeat(65), 'é']) {
      expect(() => sdk.createClient({ name }), name)
        .to.throw()
        .with.property('code', 'VALIDATION_FAILED');
    }
    expect(() => sdk.client('nobody'))
      .to.throw()
      .with.property('code', 'CLIENT_NOT_FOUND');
  });
});
