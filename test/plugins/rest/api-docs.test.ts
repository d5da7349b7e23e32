import { expect } from 'chai';
import { ERROR_CODES } from '../../../src/index.js';
import { restFixture, type RestFixture } from '../../helpers/rest-harness.js';

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
    expect(errors.headers.get('content-type')).to.match(/^text\/html/);
    expect(errors.text).to.include(`<section id="${fragment}">`);
    expect(fragment).to.equal(body.code.toLowerCase().replaceAll('_', '-'));
  });

  it('/api/docs/errors is a page with an anchor, a meaning and what to do for every code, and no internal notes', async () => {
    const page = await fx.request('GET', '/api/docs/errors', { token: null });
    const ids = [...page.text.matchAll(/<section id="([a-z-]+)">/g)].map((m) => m[1]);
    const codes = Object.keys(ERROR_CODES);
    expect(ids).to.deep.equal(codes.map((code) => code.toLowerCase().replaceAll('_', '-')));
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      const fragment = code.toLowerCase().replaceAll('_', '-');
      const section =
        page.text.split(`<section id="${fragment}">`)[1]?.split('</section>')[0] ?? '';
      expect(section, code).to.include(`<code>${code}</code>`);
      expect(section, code).to.include(`HTTP ${entry.status}`);
      expect(section, code).to.include('<strong>When:</strong>');
      expect(section, code).to.include('<strong>What to do:</strong>');
    }
    for (const note of ['spec scenario', 'src/errors', 'a test keeps', '.md)', '](']) {
      expect(page.text, note).to.not.include(note);
    }
  });

  it('every problem type fragment the server answers with resolves on the page', async () => {
    const page = await fx.request('GET', '/api/docs/errors', { token: null });
    const problems = [
      await fx.request('GET', '/api/v1/clients/nobody/info'),
      await fx.request('GET', '/api/v1/clients', { token: null }),
      await fx.request('POST', '/api/v1/messages', { json: {} }),
      await fx.request('POST', '/api/v1/messages', {
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      await fx.request('PUT', '/api/v1/messages'),
      await fx.request('GET', '/api/v1/nope'),
    ];
    const types = new Set(problems.map((res) => (res.json as { type: string }).type));
    expect(types.size).to.equal(problems.length);
    for (const type of types) {
      const [route, fragment] = type.split('#');
      expect(route).to.equal('/api/docs/errors');
      expect(page.text, type).to.include(`id="${fragment}"`);
    }
  });
});
