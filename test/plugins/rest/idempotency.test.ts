import { expect } from 'chai';
import {
  CONTACT,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

interface Accepted {
  id: string;
}

describe('REST + SDK: idempotency keys', () => {
  let fx: RestFixture;
  beforeEach(async () => {
    fx = await restFixture();
    await fx.link('bot');
  });
  afterEach(async () => {
    await fx?.close();
  });

  const post = (json: unknown, key?: string, token?: string) =>
    fx.request('POST', '/api/v1/messages', {
      json,
      ...(token === undefined ? {} : { token }),
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  /** Messages the contact got with this body, once a later sentinel (same FIFO) has arrived. */
  async function countAtPhone(body: string, sentinel: string, client = 'bot'): Promise<number> {
    await fx.sdk.client(client).sendTextMessage({ to: CONTACT, text: sentinel });
    const phone = fx.sdk.simulator.phone(CONTACT);
    await phone.waitForMessage((m) => m.body === sentinel);
    return phone.inbox.filter((m) => m.body === body).length;
  }

  it('same key + same body: same id, 202 again, one send only', async () => {
    const first = await post({ chatId: CONTACT, content: 'once' }, 'key-1');
    const second = await post({ chatId: CONTACT, content: 'once' }, 'key-1');
    expect([first.status, second.status]).to.deep.equal([202, 202]);
    expect((second.json as Accepted).id).to.equal((first.json as Accepted).id);
    expect(await countAtPhone('once', 'sentinel-1')).to.equal(1);
  });

  it('same key + different body: 422 IDEMPOTENCY_KEY_REUSED as problem+json', async () => {
    expect((await post({ chatId: CONTACT, content: 'a' }, 'key-2')).status).to.equal(202);
    const res = await post({ chatId: CONTACT, content: 'b' }, 'key-2');
    expect(res.status).to.equal(422);
    expect(res.headers.get('content-type')).to.contain('application/problem+json');
    expect((res.json as { code: string }).code).to.equal('IDEMPOTENCY_KEY_REUSED');
    expect(await countAtPhone('b', 'sentinel-2')).to.equal(0);
  });

  it('two concurrent identical requests never make two sends', async () => {
    const [a, b] = await Promise.all([
      post({ chatId: CONTACT, content: 'race' }, 'key-3'),
      post({ chatId: CONTACT, content: 'race' }, 'key-3'),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).to.satisfy(
      (s: number[]) => (s[0] === 202 && s[1] === 202) || (s[0] === 202 && s[1] === 409),
    );
    if (a.status === 202 && b.status === 202)
      expect((a.json as Accepted).id).to.equal((b.json as Accepted).id);
    else
      expect(((a.status === 409 ? a : b).json as { code: string }).code).to.equal(
        'IDEMPOTENCY_KEY_IN_USE',
      );
    expect(await countAtPhone('race', 'sentinel-3')).to.equal(1);
  });

  it('keys are per token: the scoped token reusing a key is a new send', async () => {
    await fx.link('other');
    const admin = await post({ client: 'other', chatId: CONTACT, content: 'pt' }, 'key-4');
    const scoped = await post(
      { client: 'other', chatId: CONTACT, content: 'pt' },
      'key-4',
      SCOPED_TOKEN,
    );
    expect([admin.status, scoped.status]).to.deep.equal([202, 202]);
    expect((scoped.json as Accepted).id).to.not.equal((admin.json as Accepted).id);
    expect(await countAtPhone('pt', 'sentinel-4', 'other')).to.equal(2);
  });

  it('a header over 255 characters is 400', async () => {
    const res = await post({ chatId: CONTACT, content: 'x' }, 'k'.repeat(256));
    expect(res.status).to.equal(400);
    expect(await countAtPhone('x', 'sentinel-5')).to.equal(0);
  });

  it('SDK: sendTextMessage twice with one idempotencyKey → same trackingId, one message', async () => {
    const bot = fx.sdk.client('bot');
    const one = await bot.sendTextMessage({
      to: CONTACT,
      text: 'sdk',
      idempotencyKey: 'k6',
    });
    const two = await bot.sendTextMessage({
      to: CONTACT,
      text: 'sdk',
      idempotencyKey: 'k6',
    });
    expect((two as { trackingId: string }).trackingId).to.equal(
      (one as { trackingId: string }).trackingId,
    );
    expect(await countAtPhone('sdk', 'sentinel-6')).to.equal(1);
  });
});
