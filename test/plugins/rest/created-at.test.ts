// A send's createdAt is one time: the same in GET /messages and GET /messages/{id} (issue 29,
// item 12).
import { expect } from 'chai';
import { CONTACT, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('createdAt of a send', function () {
  this.timeout(20_000);
  let fx: RestFixture | undefined;
  afterEach(async () => {
    await fx?.close();
  });

  it('is the same in the list and in the item', async () => {
    fx = await restFixture({ config: { queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 200 } } });
    await fx.link('bot');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: `m${i}` },
      });
      expect(res.status).to.equal(202);
      ids.push((res.json as { id: string }).id);
    }
    const list = await fx.request('GET', '/api/v1/messages?limit=100');
    const listed = new Map(
      (list.json as { items: { id: string; createdAt: string }[] }).items.map((m) => [
        m.id,
        m.createdAt,
      ]),
    );
    const differing: string[] = [];
    for (const id of ids) {
      const item = await fx.request('GET', `/api/v1/messages/${id}`);
      const createdAt = (item.json as { createdAt: string }).createdAt;
      if (listed.get(id) !== createdAt) differing.push(`${id}: ${listed.get(id)} vs ${createdAt}`);
    }
    expect(differing).to.deep.equal([]);
  });
});
