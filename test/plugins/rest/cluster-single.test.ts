import { expect } from 'chai';
import { SCOPED_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: GET /api/v1/cluster on a single server', () => {
  let fx: RestFixture;

  before(async () => {
    fx = await restFixture();
  });
  after(async () => {
    await fx?.close();
  });

  it('answers mode "single": no nodes, every client local with its state', async () => {
    const res = await fx.request('GET', '/api/v1/cluster');
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({
      mode: 'single',
      nodeId: null,
      nodes: [],
      clients: [
        { name: 'bot', node: null, state: 'STOPPED', claimExpiresAt: null },
        { name: 'other', node: null, state: 'STOPPED', claimExpiresAt: null },
      ],
    });
    const scoped = await fx.request('GET', '/api/v1/cluster', { token: SCOPED_TOKEN });
    expect(
      (scoped.json as { clients: { name: string }[] }).clients.map((c) => c.name),
    ).to.deep.equal(['other']);
    const list = await fx.request('GET', '/api/v1/clients');
    expect((list.json as Record<string, unknown>[])[0]).to.not.have.property('node');
  });
});
