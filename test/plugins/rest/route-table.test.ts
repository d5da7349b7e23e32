import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Context } from 'koa';
import { pino } from 'pino';
import { z } from 'zod';
import { createSdk, type Sdk } from '../../../src/index.js';
import { createRestServer } from '../../../plugins/rest/index.js';
import { restHostOf } from '../../helpers/rest-host.js';
import { ADMIN_TOKEN, restFixture, CONTACT, type RestFixture } from '../../helpers/rest-harness.js';

/**
 * Requests reach their routes through the route table (one @koa/router per path prefix) the way
 * one router for all routes served them: paths exactly as declared (another case or a trailing
 * slash is 404), 404 outside every route, 405 with `Allow` for a known path with another method
 * and for OPTIONS, HEAD wherever GET is served.
 */
describe('REST: route matching', () => {
  let fx: RestFixture;

  before(async () => {
    fx = await restFixture({ clients: ['bot'] });
    await fx.link('bot');
  });
  after(() => fx.close());

  it('serves each route from its prefix, with parameters, only as declared: another case or a trailing slash is 404', async () => {
    const json = { chatId: CONTACT, content: 'hi' };
    expect((await fx.request('POST', '/api/v1/messages/', { json })).status).to.equal(404);
    expect((await fx.request('POST', '/API/v1/messages', { json })).status).to.equal(404);
    const sent = await fx.request('POST', '/api/v1/messages', { json });
    expect(sent.status).to.equal(202);
    const { id } = sent.json as { id: string };
    expect((await fx.request('GET', `/api/v1/messages/${id}`)).status).to.equal(200);
    expect((await fx.request('HEAD', `/api/v1/messages/${id}`)).status).to.equal(200);
    for (const variant of [`/API/V1/Messages/${id}`, `/api/v1/messages/${id}/`]) {
      const res = await fx.request('GET', variant);
      expect(res.status, variant).to.equal(404);
      expect(res.json, variant).to.deep.include({ code: 'NOT_FOUND' });
    }
    expect((await fx.request('GET', '/api/v1/clients/bot/info')).status).to.equal(200);
    expect((await fx.request('GET', '/api/v1/clients/bot/Info')).status).to.equal(404);
    expect((await fx.request('GET', '/healthz', { token: null })).status).to.equal(200);
    expect((await fx.request('GET', '/HEALTHZ', { token: null })).status).to.equal(404);
    expect((await fx.request('GET', '/healthz/', { token: null })).status).to.equal(404);
  });

  it('refuses a query parameter where a route takes none, and a repeated one', async () => {
    const body = { json: { chatId: CONTACT, content: 'hi' } };
    const extra = await fx.request('POST', '/api/v1/messages?x=1', body);
    expect(extra.status).to.equal(400);
    expect(extra.json).to.deep.include({ code: 'VALIDATION_FAILED' });
    expect((extra.json as { errors: unknown[] }).errors).to.deep.equal([
      { path: 'query.x', message: 'unknown parameter' },
    ]);
    expect((await fx.request('POST', '/api/v1/messages?', body)).status).to.equal(202);
    const repeated = await fx.request('GET', '/api/v1/messages?status=sent&status=read');
    expect(repeated.status).to.equal(400);
    expect((repeated.json as { errors: unknown[] }).errors).to.deep.equal([
      { path: 'query.status', message: 'must be given once' },
    ]);
    expect((await fx.request('GET', '/api/v1/messages?status=sent')).status).to.equal(200);
  });

  it('answers 404 outside every route and 405 with Allow for a known path', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/messages/a/b/c', '/api', '/api/v1', '/x/y/z/w']) {
      const res = await fx.request('GET', path);
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('content-type'), path).to.match(/problem\+json/);
    }
    const wrong = await fx.request('PUT', '/api/v1/messages');
    expect(wrong.status).to.equal(405);
    expect(wrong.headers.get('allow')).to.include('POST');
    const options = await fx.request('OPTIONS', '/api/v1/clients/bot/info', { token: null });
    expect(options.status).to.equal(405);
    expect(options.json).to.deep.include({ code: 'METHOD_NOT_ALLOWED' });
    expect(options.headers.get('allow')).to.include('GET');
    expect(options.headers.get('allow')).to.include('HEAD');
  });
});

describe('REST: routes with a parameter in their first segments', () => {
  let dir: string;
  let sdk: Sdk;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-route-table-'));
    sdk = createSdk(
      { engine: { type: 'simulator' }, auth: { type: 'local', dataPath: dir }, clients: ['bot'] },
      { logger: pino({ level: 'silent' }) },
    );
  });
  after(async () => {
    await sdk.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('are served after the routes of the prefix, which keep their answers', async () => {
    const server = await createRestServer({
      sdk: restHostOf(sdk),
      logger: pino({ level: 'silent' }),
      options: { port: 0, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] },
      routes: [
        {
          method: 'GET',
          path: '/{tenant}/items',
          operationId: 'tenantItems',
          summary: 'items of a tenant',
          tag: 'test',
          auth: false,
          params: z.object({ tenant: z.string() }),
          responses: { 200: { description: 'ok' } },
          handler(ctx, { params }) {
            ctx.body = { tenant: (params as { tenant: string }).tenant };
          },
        },
      ],
    });
    await server.listen();
    try {
      const items = await fetch(`${server.url}/acme/items`);
      expect(items.status).to.equal(200);
      expect(await items.json()).to.deep.equal({ tenant: 'acme' });
      expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
      expect((await fetch(`${server.url}/acme/other`)).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('serve a path both a parameter and a fixed route take with the one declared first, as @koa/router does', async () => {
    const route = (path: string, name: string) => ({
      method: 'GET' as const,
      path,
      operationId: name,
      summary: name,
      tag: 'test',
      auth: false,
      ...(path.includes('{') ? { params: z.object({ id: z.string() }) } : {}),
      responses: { 200: { description: 'ok' } },
      handler(ctx: Context) {
        ctx.body = { route: name, params: (ctx as Context & { params?: unknown }).params };
      },
    });
    const server = await createRestServer({
      sdk: restHostOf(sdk),
      logger: pino({ level: 'silent' }),
      options: { port: 0, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] },
      routes: [
        route('/api/v1/things/{id}', 'thing'),
        route('/api/v1/things/special', 'special'),
        route('/api/v1/widgets/latest', 'latest'),
        route('/api/v1/widgets/{id}', 'widget'),
      ],
    });
    await server.listen();
    const get = async (path: string, init?: RequestInit) => {
      const res = await fetch(`${server.url}${path}`, init);
      return [
        res.status,
        res.status === 200 && init?.method !== 'HEAD' ? await res.json() : undefined,
      ];
    };
    try {
      expect(await get('/api/v1/things/special')).to.deep.equal([
        200,
        { route: 'thing', params: { id: 'special' } },
      ]);
      expect(await get('/api/v1/widgets/latest')).to.deep.equal([
        200,
        { route: 'latest', params: {} },
      ]);
      expect(await get('/API/v1/widgets/latest/')).to.deep.equal([404, undefined]);
      expect(await get('/api/v1/widgets/7')).to.deep.equal([
        200,
        { route: 'widget', params: { id: '7' } },
      ]);
      expect((await get('/api/v1/widgets/latest', { method: 'HEAD' }))[0]).to.equal(200);
      expect((await get('/api/v1/widgets/latest', { method: 'POST' }))[0]).to.equal(405);
    } finally {
      await server.close();
    }
  });
});
