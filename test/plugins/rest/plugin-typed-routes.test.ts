/**
 * One route model: a plugin route declared with zod schemas (`responses`, `params`, `query`,
 * `body`) is validated like the REST plugin's own routes, its handler gets the parsed values, and
 * it is in the OpenAPI document under the plugin's tag, where the contract checker holds it to
 * what it declared. The loose form (no schemas) keeps working, outside the document.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { createSdk, definePlugin, type Sdk } from '../../../src/index.js';
import restPlugin from '../../../plugins/rest/index.js';
import { ADMIN_TOKEN } from '../../helpers/rest-harness.js';
import { ContractChecker } from '../../helpers/openapi-contract.js';
import { freePort } from '../../faults/child-server.js';

const Count = z.object({ name: z.string(), times: z.number().int() }).strict();

const statsPlugin = definePlugin({
  name: 'stats',
  options: z.object({}).strict().default({}),
  setup(ctx) {
    ctx.http.route({
      method: 'POST',
      path: '/counts/:name',
      summary: 'Count a name',
      operationId: 'statsCount',
      params: z.object({ name: z.string().regex(/^[a-z]+$/) }).strict(),
      query: z.object({ times: z.coerce.number().int().min(1).max(5).default(1) }).strict(),
      body: z.object({ note: z.string().max(10) }).strict(),
      responses: { 201: { description: 'Counted', schema: Count } },
      handler: (req) => ({
        status: 201,
        // the parsed values: `times` is a number (coerced and defaulted by the schema)
        body: { name: req.params.name, times: req.query.times },
      }),
    });
    ctx.http.route({
      method: 'GET',
      path: '/broken',
      responses: { 200: { description: 'A count', schema: Count } },
      handler: () => ({ body: { name: 'x', times: 'many' } }),
    });
    ctx.http.route({ method: 'GET', path: '/loose', handler: (req) => ({ body: req.query }) });
  },
});

describe('REST: schema-typed plugin routes (one route model)', () => {
  let dir: string;
  let sdk: Sdk | undefined;
  let base: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-typed-routes-'));
    const port = await freePort();
    sdk = createSdk(
      {
        engine: { type: 'simulator' },
        auth: { type: 'local', dataPath: dir },
        clients: ['bot'],
      },
      { logger: pino({ level: 'silent' }) },
    );
    sdk.use(restPlugin, { port, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] });
    sdk.use(statsPlugin);
    await sdk.start();
    base = `http://127.0.0.1:${port}`;
  });
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 100 });
    sdk = undefined;
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

  it('validates params, query and body with the schemas and hands the handler parsed values', async () => {
    const ok = await post('/api/v1/plugins/stats/counts/alice?times=3', { note: 'hi' });
    expect(ok.status).to.equal(201);
    expect(await ok.json()).to.deep.equal({ name: 'alice', times: 3 });
    const defaulted = await post('/api/v1/plugins/stats/counts/bob', { note: '' });
    expect(await defaulted.json()).to.deep.equal({ name: 'bob', times: 1 });

    for (const [url, body, where] of [
      ['/api/v1/plugins/stats/counts/Alice', { note: 'hi' }, 'path.name'],
      ['/api/v1/plugins/stats/counts/alice?times=9', { note: 'hi' }, 'query.times'],
      ['/api/v1/plugins/stats/counts/alice', { note: 'far too long' }, 'note'],
      ['/api/v1/plugins/stats/counts/alice', { other: 1 }, ''],
    ] as const) {
      const refused = await post(url, body);
      expect(refused.status, url).to.equal(400);
      expect(refused.headers.get('content-type')).to.match(/problem\+json/);
      const problem = (await refused.json()) as { code: string; errors: { path: string }[] };
      expect(problem.code).to.equal('VALIDATION_FAILED');
      expect(problem.errors.map((i) => i.path)).to.include(where);
    }
    const missing = await fetch(`${base}/api/v1/plugins/stats/counts/alice`, {
      method: 'POST',
      headers: { authorization: auth.authorization },
    });
    expect(missing.status).to.equal(400);
    expect(await post('/api/v1/plugins/stats/counts/alice', {}).then((r) => r.status)).to.equal(
      400,
    );
    const anonymous = await fetch(`${base}/api/v1/plugins/stats/counts/alice`, { method: 'POST' });
    expect(anonymous.status).to.equal(401);
  });

  it('lists schema-typed routes in the OpenAPI document under the plugin tag; loose ones not', async () => {
    const doc = (await fetch(`${base}/api/v1/openapi.json`, { headers: auth }).then((r) =>
      r.json(),
    )) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const counted = doc.paths['/api/v1/plugins/stats/counts/{name}']?.post;
    expect(counted).to.include({ operationId: 'statsCount', summary: 'Count a name' });
    expect(counted?.tags).to.deep.equal(['stats']);
    expect(Object.keys(counted?.responses as object)).to.include.members(['201', '400', '401']);
    const parameters = (counted?.parameters as { name: string; in: string }[]).map(
      (p) => `${p.in}.${p.name}`,
    );
    expect(parameters).to.deep.equal(['path.name', 'query.times']);
    expect(doc.paths['/api/v1/plugins/stats/broken']?.get?.operationId).to.equal(
      'stats_get_broken',
    );
    expect(doc.paths).not.to.have.property('/api/v1/plugins/stats/loose');
    // the loose form still works
    const loose = await fetch(`${base}/api/v1/plugins/stats/loose?a=1`, { headers: auth });
    expect(await loose.json()).to.deep.equal({ a: '1' });
  });

  it('the contract checker checks schema-typed plugin routes (and still skips loose ones)', async () => {
    const doc = (await fetch(`${base}/api/v1/openapi.json`, { headers: auth }).then((r) =>
      r.json(),
    )) as Record<string, unknown>;
    const contract = await ContractChecker.for(doc);
    const exchange = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: auth,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return contract.check({
        method,
        url,
        requestHeaders: auth,
        ...(body ? { requestBody: JSON.stringify(body) } : {}),
        status: res.status,
        responseHeaders: Object.fromEntries(res.headers),
        text: await res.text(),
      });
    };
    expect(
      await exchange('POST', '/api/v1/plugins/stats/counts/alice?times=2', { note: 'x' }),
    ).to.deep.equal([]);
    // a handler that answers against its own schema breaks the contract
    const broken = await exchange('GET', '/api/v1/plugins/stats/broken');
    expect(broken.join('\n')).to.match(/times/);
    expect(await exchange('GET', '/api/v1/plugins/stats/loose')).to.deep.equal([]);
  });
});
