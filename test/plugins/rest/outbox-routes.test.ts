import { expect } from 'chai';
import {
  ADMIN_TOKEN,
  CONTACT,
  SCOPED_TOKEN,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

describe('REST: following sends (message.status, listing, back-pressure, draining)', () => {
  let fx: RestFixture;
  afterEach(async () => {
    await fx?.close();
  });

  it('streams message.status over SSE: queued → sending → sent → delivered → read', async () => {
    fx = await restFixture();
    await fx.link('bot');
    const stream = readEvents(
      `${fx.url}/api/v1/events?types=message.status`,
      { token: ADMIN_TOKEN },
      (events) => events.some((e) => (e.data.data as { status: string }).status === 'read'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'follow me' },
    });
    const id = (sent.json as { id: string }).id;
    const statuses = (await stream).events
      .map((e) => e.data.data as { id: string; status: string })
      .filter((d) => d.id === id)
      .map((d) => d.status)
      // one event per change of status or ack: `sent` repeats when the server ack (1) arrives
      .filter((status, i, all) => status !== all[i - 1]);
    expect(statuses).to.deep.equal(['queued', 'sending', 'sent', 'delivered', 'read']);
  });

  it('lists tracked sends newest first with filters and a cursor', async () => {
    fx = await restFixture();
    await fx.link('bot');
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: text },
        headers: { prefer: 'wait=5' },
      });
      ids.push((res.json as { id: string }).id);
    }
    const first = await fx.request('GET', '/api/v1/messages?client=bot&limit=2');
    expect(first.status).to.equal(200);
    const page = first.json as { items: { id: string }[]; next?: string };
    expect(page.items.map((i) => i.id)).to.deep.equal([ids[2], ids[1]]);
    const second = await fx.request('GET', `/api/v1/messages?limit=2&cursor=${page.next!}`);
    expect((second.json as { items: { id: string }[] }).items.map((i) => i.id)).to.deep.equal([
      ids[0],
    ]);
    const failed = await fx.request('GET', '/api/v1/messages?status=failed');
    expect((failed.json as { items: unknown[] }).items).to.deep.equal([]);
    const bad = await fx.request('GET', '/api/v1/messages?since=yesterday');
    expect(bad.status).to.equal(400);
    // a scoped token sees only its clients
    const scoped = await fx.request('GET', '/api/v1/messages?client=bot', { token: SCOPED_TOKEN });
    expect(scoped.status).to.equal(403);
    const mine = await fx.request('GET', '/api/v1/messages', { token: SCOPED_TOKEN });
    expect((mine.json as { items: unknown[] }).items).to.deep.equal([]);
  });

  it('QUEUE_FULL is 429 with a Retry-After header', async () => {
    fx = await restFixture({ config: { queue: { maxSize: 1, minGapMs: 5_000, jitterMs: 0 } } });
    await fx.link('bot');
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(
        await fx.request('POST', '/api/v1/messages', {
          json: { chatId: CONTACT, content: `${i}` },
        }),
      );
    }
    const full = answers.find((a) => a.status === 429);
    expect(full, 'one send is refused').to.not.equal(undefined);
    expect(full!.json).to.include({ code: 'QUEUE_FULL' });
    expect(Number(full!.headers.get('retry-after'))).to.be.at.least(1);
  });

  it('/readyz answers 503 while the SDK drains its queues on stop', async () => {
    fx = await restFixture({
      clients: ['bot'],
      config: { queue: { minGapMs: 10_000, jitterMs: 0 } },
    });
    await fx.link('bot');
    expect((await fx.request('GET', '/readyz', { token: null })).status).to.equal(200);
    for (const text of ['one', 'two']) {
      await fx.request('POST', '/api/v1/messages', { json: { chatId: CONTACT, content: text } });
    }
    const stopping = fx.sdk.stop({ drainTimeoutMs: 1_500 });
    const ready = await fx.request('GET', '/readyz', { token: null });
    expect(ready.status).to.equal(503);
    expect((ready.json as { reasons: string[] }).reasons.join(' ')).to.match(/draining/);
    await stopping;
  });
});
