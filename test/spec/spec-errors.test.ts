/**
 * SPEC.md, "Errors" and "Limits", on the simulator: the named failure scenarios of sends as their
 * caller sees them, and bulk sends queued so that they are spaced out. Authentication failure and
 * session expired are events: spec-events.test.ts.
 */
import { expect } from 'chai';
import path from 'node:path';
import type { Sdk } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import {
  BOT_PHONE,
  linkedClient,
  mediaServer,
  simulatorSdk,
  tempDir,
} from '../helpers/sdk-fixtures.js';

describe('SPEC: errors and limits (simulator)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sdk: Sdk;
  let media: Awaited<ReturnType<typeof mediaServer>>;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    sdk = simulatorSdk(dir);
    media = await mediaServer({ 'cat.png': { type: 'image/png', body: Buffer.from('png') } });
  });
  afterEach(async () => {
    await sdk.stop();
    media.close();
    await cleanup();
  });

  it('a client must be READY before messages are sent', async () => {
    const client = sdk.createClient({ name: 'idle' });
    const error = await rejection(client.sendTextMessage({ to: '15550001111@c.us', text: 'x' }));
    expect(error.code).to.equal('CLIENT_NOT_READY');
  });

  it('chat not found: the chat id is wrong or badly formatted', async () => {
    const client = await linkedClient(sdk, 'sales');
    const wrong = await rejection(client.sendTextMessage({ to: '19999999999@c.us', text: 'x' }));
    expect(wrong.code).to.equal('CHAT_NOT_FOUND');
    const badly = await rejection(client.sendTextMessage({ to: 'not-a-chat', text: 'x' }));
    expect(badly.code).to.equal('INVALID_CHAT_ID');
    const group = await rejection(
      client.sendTextMessage({ to: '120363999999999999@g.us', text: 'x' }),
    );
    expect(group.code).to.equal('CHAT_NOT_FOUND');
  });

  it('media download failed: network connectivity or availability of the file', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const missing = await rejection(
      client.sendImageMessage({ to: alice.id, image: { url: media.url('missing.png') } }),
    );
    expect(missing.code).to.equal('MEDIA_DOWNLOAD_FAILED');
    expect(missing.message).to.match(/404/);
    const unreachable = await rejection(
      client.sendImageMessage({ to: alice.id, image: { url: 'http://127.0.0.1:1/cat.png' } }),
    );
    expect(unreachable.code).to.equal('MEDIA_DOWNLOAD_FAILED');
    expect(alice.inbox).to.have.length(0);
  });

  it('media URLs on private networks are refused unless media.allowPrivateNetworks', async () => {
    const strict = simulatorSdk(path.join(dir, 'strict'), {
      media: { allowPrivateNetworks: false },
    });
    try {
      const client = await linkedClient(strict, 'sales');
      const alice = strict.simulator.phone('15550001111');
      const error = await rejection(
        client.sendImageMessage({ to: alice.id, image: { url: media.url('cat.png') } }),
      );
      expect(error.code).to.equal('MEDIA_URL_REFUSED');
    } finally {
      await strict.stop();
    }
  });

  it('media larger than media.maxBytes (size limits are not shown in the spec) is MEDIA_TOO_LARGE', async () => {
    const small = simulatorSdk(path.join(dir, 'small'), {
      media: { allowPrivateNetworks: true, maxBytes: 2 },
    });
    try {
      const client = await linkedClient(small, 'sales');
      const alice = small.simulator.phone('15550001111');
      const error = await rejection(
        client.sendImageMessage({ to: alice.id, image: { url: media.url('cat.png') } }),
      );
      expect(error.code).to.equal('MEDIA_TOO_LARGE');
    } finally {
      await small.stop();
    }
  });

  it('permission error: the client lacks permission to send to a group', async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const group = sdk.simulator.group({
      id: '120363000000000003@g.us',
      members: [BOT_PHONE, alice.number],
      admins: [alice.number],
      adminsOnly: true,
    });
    const error = await rejection(client.sendTextMessage({ to: group.id, text: 'x' }));
    expect(error.code).to.equal('PERMISSION_DENIED');
    expect(alice.inbox).to.have.length(0);
  });

  it("message not delivered: the message's ack shows the delivery state", async () => {
    const client = await linkedClient(sdk, 'sales');
    const alice = sdk.simulator.phone('15550001111');
    const acks = new Map<string, number[]>();
    client.on('message.ack', ({ messageId, ack }) =>
      acks.set(messageId, [...(acks.get(messageId) ?? []), ack]),
    );
    const read = await client.sendTextMessage({ to: alice.id, text: 'hi' });
    sdk.simulator.failDelivery(alice.id);
    const lost = await client.sendTextMessage({ to: alice.id, text: 'lost' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(acks.get(read.id)).to.deep.equal([1, 2, 3]);
    expect(acks.get(lost.id)).to.deep.equal([-1]);
    expect((await sdk.sends.get(lost.trackingId))?.status).to.equal('failed');
    expect(await sdk.sends.get(read.trackingId)).to.include({ status: 'read', ack: 3 });
  });

  it('limits: bulk sends are queued so that messages are spaced out', async () => {
    const paced = simulatorSdk(path.join(dir, 'paced'), {
      queue: { minGapMs: 40, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
    });
    try {
      const client = await linkedClient(paced, 'sales');
      const alice = paced.simulator.phone('15550001111');
      const times: number[] = [];
      client.on('message.create', (m) => {
        if (m.fromMe) times.push(Date.now());
      });
      await Promise.all(
        [1, 2, 3, 4].map((n) => client.sendTextMessage({ to: alice.id, text: `bulk ${n}` })),
      );
      expect(alice.inbox.map((m) => m.body)).to.deep.equal([
        'bulk 1',
        'bulk 2',
        'bulk 3',
        'bulk 4',
      ]);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      for (const gap of gaps) expect(gap).to.be.at.least(35);
    } finally {
      await paced.stop();
    }
  });
});
