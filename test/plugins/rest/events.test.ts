import { expect } from 'chai';
import {
  ADMIN_TOKEN,
  BOT_PHONE,
  CONTACT,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

describe('REST: events over SSE', () => {
  let fx: RestFixture;
  afterEach(async () => {
    await fx?.close();
  });

  it('streams the linking of a client (qr, state, authenticated, ready) with ids, filtered by type and client', async () => {
    fx = await restFixture();
    const url = `${fx.url}/api/v1/events?client=bot&types=qr,state,authenticated,ready`;
    const stream = readEvents(url, { token: ADMIN_TOKEN }, (events) =>
      events.some((e) => e.event === 'ready'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const otherInit = fx.request('POST', '/api/v1/clients/other/initialize');
    await fx.request('POST', '/api/v1/client/initialize');
    await otherInit;
    // initialize answers 202 at once: the QR exists once the client reached SCAN_QR
    let qr = await fx.request('GET', '/api/v1/client/qr?format=text');
    for (let i = 0; qr.status !== 200 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      qr = await fx.request('GET', '/api/v1/client/qr?format=text');
    }
    fx.sdk.simulator.scan(qr.text, { phone: BOT_PHONE });
    const { events, status } = await stream;
    expect(status).to.equal(200);
    const names = events.map((e) => e.event);
    expect(names).to.include.members(['qr', 'state', 'authenticated', 'ready']);
    expect(names.indexOf('qr')).to.be.lessThan(names.indexOf('ready'));
    expect(events.every((e) => e.data.client === 'bot')).to.equal(true);
    const ids = events.map((e) => Number(e.id));
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    const qrEvent = events.find((e) => e.event === 'qr')!;
    expect(qrEvent.data).to.include({ event: 'qr', client: 'bot', id: qrEvent.id });
    expect(qrEvent.data.data).to.deep.equal({ qr: qr.text });
    const states = events.filter((e) => e.event === 'state').map((e) => e.data.data.to);
    expect(states).to.include.members(['STARTING', 'SCAN_QR', 'AUTHENTICATED', 'READY']);
  });

  it('sends heartbeat comments on an idle stream', async () => {
    fx = await restFixture();
    const { comments } = await readEvents(
      `${fx.url}/api/v1/events`,
      { token: ADMIN_TOKEN },
      () => false,
      700,
    );
    expect(comments.filter((c) => c.startsWith('heartbeat')).length).to.be.at.least(2);
  });

  it('resumes after Last-Event-ID with the events missed meanwhile', async () => {
    fx = await restFixture();
    await fx.link('bot');
    // Send one message while connected, note its id; then send more while disconnected.
    const live = readEvents(
      `${fx.url}/api/v1/events?types=message.create`,
      { token: ADMIN_TOKEN },
      (e) => e.length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'one' },
      headers: { prefer: 'wait=5' },
    });
    const seen = (await live).events;
    expect(seen.map((e) => e.data.data.body)).to.deep.equal(['one']);
    const lastId = seen[0].id!;
    for (const text of ['two', 'three']) {
      await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: text },
        headers: { prefer: 'wait=5' },
      });
    }
    const resumed = await readEvents(
      `${fx.url}/api/v1/events?types=message.create`,
      { token: ADMIN_TOKEN, headers: { 'last-event-id': lastId } },
      (e) => e.length >= 2,
    );
    expect(resumed.events.map((e) => e.data.data.body)).to.deep.equal(['two', 'three']);
    expect(resumed.events.every((e) => Number(e.id) > Number(lastId))).to.equal(true);
  });

  it('keeps a bounded buffer: an old Last-Event-ID replays only what is left', async () => {
    fx = await restFixture({ rest: { sse: { bufferSize: 4, heartbeatMs: 200 } } });
    await fx.link('bot');
    for (let i = 0; i < 5; i++) {
      await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: `m${i}` },
        headers: { prefer: 'wait=5' },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { events } = await readEvents(
      `${fx.url}/api/v1/events`,
      { token: ADMIN_TOKEN, headers: { 'last-event-id': '0' } },
      () => false,
      400,
    );
    expect(events.length).to.equal(4);
    expect(Number(events[0].id)).to.equal(fx.server.hub.lastSeq - 3);
  });

  it('limits the number of open streams (429)', async () => {
    fx = await restFixture({ rest: { sse: { maxStreams: 1, heartbeatMs: 200 } } });
    const holder = readEvents(`${fx.url}/api/v1/events`, { token: ADMIN_TOKEN }, () => false, 600);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await fx.request('GET', '/api/v1/events');
    expect(second.status).to.equal(429);
    expect(second.json).to.include({ code: 'TOO_MANY_REQUESTS' });
    await holder;
  });
});
