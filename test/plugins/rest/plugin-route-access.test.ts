/**
 * What the plugin route model gave the simulator's routes, for any plugin: `allClients` (a token
 * for all clients only), `req.client(name)` (the client a token may act on, else 403/404), and
 * schemas named with `namedSchema` as components of the OpenAPI document.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { createSdk, definePlugin, type Sdk } from '../../../src/index.js';
import { namedSchema } from '../../../src/entries/http.js';
import restPlugin from '../../../plugins/rest/index.js';
import { freePort } from '../../faults/child-server.js';

const ADMIN = 'admin-token-0123456789abcdef0123456789';
const SCOPED = 'scoped-token-0123456789abcdef0123456789';

const NoteOfClient = namedSchema(
  'NotesClientState',
  z.object({ client: z.string(), state: z.string() }).strict(),
);

const notesPlugin = definePlugin({
  name: 'notes',
  setup(ctx) {
    ctx.http.route({
      method: 'POST',
      path: '/state',
      summary: 'The state of a client the token may act on',
      body: z.object({ client: z.string().optional() }).strict(),
      responses: { 200: { description: 'Its state', schema: NoteOfClient } },
      errors: [403, 404],
      handler: (req) => {
        const client = req.client(req.body.client);
        return { body: { client: client.name, state: client.state } };
      },
    });
    ctx.http.route({
      method: 'GET',
      path: '/everyone',
      summary: 'Only for a token of all clients',
      allClients: true,
      responses: { 200: { description: 'Every client', schema: z.array(z.string()) } },
      errors: [403],
      handler: () => ({ body: ctx.clients.list().map((c) => c.name) }),
    });
  },
});

describe('REST: plugin routes: allClients, req.client and named schemas', () => {
  let dir: string;
  let sdk: Sdk | undefined;
  let base: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-route-access-'));
    const port = await freePort();
    sdk = createSdk(
      { engine: { type: 'simulator' }, auth: { type: 'local', dataPath: dir }, clients: [] },
      { logger: pino({ level: 'silent' }) },
    );
    sdk.createClient({ name: 'bot' });
    sdk.createClient({ name: 'other' });
    sdk.use(restPlugin, {
      port,
      tokens: [
        { token: ADMIN, clients: ['*'] },
        { token: SCOPED, clients: ['bot'] },
      ],
      defaultClient: 'bot',
    });
    sdk.use(notesPlugin);
    await sdk.start();
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    await sdk?.stop({ drainTimeoutMs: 100 });
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  const call = async (method: string, route: string, token: string, json?: unknown) => {
    const res = await fetch(`${base}/api/v1/plugins/notes${route}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it('req.client: the named or default client, once the token may act on it', async () => {
    expect(await call('POST', '/state', SCOPED, {})).to.deep.include({
      status: 200,
      json: { client: 'bot', state: sdk?.client('bot').state },
    });
    const forbidden = await call('POST', '/state', SCOPED, { client: 'other' });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.json.code).to.equal('FORBIDDEN');
    expect((await call('POST', '/state', ADMIN, { client: 'other' })).json.client).to.equal(
      'other',
    );
    const missing = await call('POST', '/state', ADMIN, { client: 'ghost' });
    expect(missing.status).to.equal(404);
    expect(missing.json.code).to.equal('CLIENT_NOT_FOUND');
  });

  it('allClients: a token for some clients only is FORBIDDEN', async () => {
    const scoped = await call('GET', '/everyone', SCOPED);
    expect(scoped.status).to.equal(403);
    expect(scoped.json.code).to.equal('FORBIDDEN');
    expect(await call('GET', '/everyone', ADMIN)).to.deep.include({
      status: 200,
      json: ['bot', 'other'],
    });
  });

  it('a schema named with namedSchema is a component the operation refers to', async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.components.schemas.NotesClientState).to.deep.include({ type: 'object' });
    expect(doc.paths['/api/v1/plugins/notes/state']?.post?.responses['200']).to.deep.include({
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/NotesClientState' } },
      },
    });
  });
});
