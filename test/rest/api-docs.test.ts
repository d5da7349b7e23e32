import { expect } from 'chai';
import { restFixture, type RestFixture } from '../helpers/rest-harness.js';

describe('REST: /api/docs (API reference served locally) and problem type URIs', function () {
  this.timeout(20_000);
  let fx: RestFixture;
  before(async () => {
    fx = await restFixture();
  });
  after(() => fx.close());

  it('serves Swagger UI from node_modules, pointed at our OpenAPI document, with no CDN', async () => {
    const page = await fx.request('GET', '/api/docs', { token: null });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources).to.have.length(3);
    for (const source of sources) {
      expect(source, 'same-origin asset').to.match(/^\/api\/docs\//);
      const asset = await fx.request('GET', source, { token: null });
      expect(asset.status, source).to.equal(200);
      expect(asset.text.length, source).to.be.greaterThan(source.endsWith('init.js') ? 20 : 10_000);
    }
    const init = await fx.request('GET', '/api/docs/init.js', { token: null });
    expect(init.text).to.include("url: '/api/v1/openapi.json'");
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
  });

  it('problem+json types are relative references to /api/docs/errors, which lists the code', async () => {
    const problem = await fx.request('GET', '/api/v1/clients/nobody/info');
    expect(problem.status).to.equal(404);
    const body = problem.json as { type: string; code: string };
    expect(body.type).to.equal('/api/docs/errors#client-not-found');
    const [route, fragment] = body.type.split('#');
    const errors = await fx.request('GET', route ?? '', { token: null });
    expect(errors.status).to.equal(200);
    expect(errors.text).to.include(`\`${body.code}\``);
    expect(fragment).to.equal(body.code.toLowerCase().replaceAll('_', '-'));
  });
});
