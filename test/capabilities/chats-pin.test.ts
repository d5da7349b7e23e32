/**
 * Pinning chats (`client.chats.pin` / `unpin`, declared in src/capabilities/chats.ts): the SDK
 * and the generated REST routes on the simulator (every exchange checked against the served
 * OpenAPI document), and the real whatsapp-web.js 1.34.7 on the WhatsApp Web double.
 */
import { expect } from 'chai';
import type { BotClient } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import { BOT_ID, restFixture, type RestFixture } from '../helpers/rest-harness.js';
import { DoubleHarness } from '../wa-web-double/harness.js';
import { ALICE, ANNOUNCE_GROUP, BOB, TEAM_GROUP } from '../wa-web-double/world.js';

const PEOPLE = ['15550001001', '15550001002', '15550001003', '15550001004'];
const ids = PEOPLE.map((number) => `${number}@c.us`);

describe('chats.pin / chats.unpin (SDK and REST on the simulator)', () => {
  let fx: RestFixture;
  let client: BotClient;

  before(async () => {
    fx = await restFixture();
    client = await fx.link('bot');
    for (const number of PEOPLE) {
      const received = new Promise<void>((resolve) => client.once('message', () => resolve()));
      await fx.sdk.simulator.phone(number).send(BOT_ID, `hi from ${number}`);
      await received;
    }
  });
  after(async () => {
    await fx.close();
  });

  it('pins 3 chats at most: the 4th answers pinned false until one is unpinned', async () => {
    expect(await client.chats.pin(PEOPLE[0])).to.deep.equal({ chatId: ids[0], pinned: true });
    expect(await client.chats.pin(ids[0]), 'again').to.deep.equal({ chatId: ids[0], pinned: true });
    await client.chats.pin(ids[1]);
    await client.chats.pin(ids[2]);
    expect(await client.chats.pin(ids[3])).to.deep.equal({ chatId: ids[3], pinned: false });
    expect((await client.chats.get(ids[3])).pinned).to.equal(false);
    expect((await client.chats.get(ids[2])).pinned).to.equal(true);

    expect(await client.chats.unpin(ids[0])).to.deep.equal({ chatId: ids[0], pinned: false });
    expect((await client.chats.get(ids[0])).pinned).to.equal(false);
    expect((await client.chats.pin(ids[3])).pinned).to.equal(true);
    for (const id of ids.slice(1)) await client.chats.unpin(id);
  });

  it('refuses bad chat ids, unknown chats and a client that is not READY', async () => {
    expect((await rejection(client.chats.pin('not a chat'))).code).to.equal('INVALID_CHAT_ID');
    expect((await rejection(client.chats.pin('status@broadcast'))).code).to.equal(
      'INVALID_CHAT_ID',
    );
    expect((await rejection(client.chats.pin('15550009999'))).code).to.equal('CHAT_NOT_FOUND');
    const other = fx.sdk.client('other');
    expect((await rejection(other.chats.pin(ids[0]))).code).to.equal('CLIENT_NOT_READY');
  });

  it('POST and DELETE /api/v1/chats/{chatId}/pin, documented in the OpenAPI document', async () => {
    let res = await fx.request('POST', `/api/v1/chats/${PEOPLE[0]}/pin`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ chatId: ids[0], pinned: true });
    res = await fx.request('GET', `/api/v1/chats/${ids[0]}?client=bot`);
    expect((res.json as { pinned: boolean }).pinned).to.equal(true);
    res = await fx.request('DELETE', `/api/v1/chats/${ids[0]}/pin?client=bot`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ chatId: ids[0], pinned: false });

    res = await fx.request('POST', '/api/v1/chats/15550009999/pin');
    expect(res.status).to.equal(404);
    expect((res.json as { code: string }).code).to.equal('CHAT_NOT_FOUND');
    res = await fx.request('POST', `/api/v1/chats/${ids[0]}/pin?client=other`);
    expect(res.status).to.equal(409);
    res = await fx.request('POST', `/api/v1/chats/${ids[0]}/pin`, { token: null });
    expect(res.status).to.equal(401);

    const doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const pin = doc.paths['/api/v1/chats/{chatId}/pin'];
    expect([pin?.post?.operationId, pin?.delete?.operationId]).to.deep.equal([
      'pinChat',
      'unpinChat',
    ]);
  });
});

describe('chats.pin / chats.unpin on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  before(async () => {
    h = await DoubleHarness.create();
  });
  after(async () => {
    await h.cleanup();
  });

  it("pins through the library's pinChat: 3 at most, unpin frees a place", async () => {
    const client = h.sdk().createClient({ name: 'bot' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
    for (const person of [ALICE, BOB]) {
      const received = new Promise<void>((resolve) => client.once('message', () => resolve()));
      await h.phone('receive', { from: person.pn, body: 'hello' });
      await received;
    }

    expect(await client.chats.pin(ALICE.pn)).to.deep.equal({ chatId: ALICE.pn, pinned: true });
    expect((await client.chats.pin(ALICE.pn)).pinned, 'again').to.equal(true);
    expect((await client.chats.pin(BOB.pn)).pinned).to.equal(true);
    expect((await client.chats.pin(TEAM_GROUP.id)).pinned).to.equal(true);
    expect((await client.chats.pin(ANNOUNCE_GROUP.id)).pinned, 'a 4th').to.equal(false);
    expect((await client.chats.get(ALICE.pn)).pinned).to.equal(true);
    expect((await client.chats.get(ANNOUNCE_GROUP.id)).pinned).to.equal(false);

    expect(await client.chats.unpin(ALICE.pn)).to.deep.equal({ chatId: ALICE.pn, pinned: false });
    expect((await client.chats.get(ALICE.pn)).pinned).to.equal(false);
    expect((await client.chats.pin(ANNOUNCE_GROUP.id)).pinned).to.equal(true);
    expect((await rejection(client.chats.pin('15559999999'))).code).to.equal('CHAT_NOT_FOUND');
  });
});
