import { mkdtemp, rm } from 'node:fs/promises';
import { restHostOf } from '../../helpers/rest-host.js';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { createSdk, definePlugin, isWakitError, type Sdk } from '../../../src/index.js';
import restPlugin, { createRestServer, restOptionsSchema } from '../../../plugins/rest/index.js';
import { ADMIN_TOKEN, SCOPED_TOKEN, readEvents } from '../../helpers/rest-harness.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function sdkWith(dir: string, plugins: Record<string, unknown> = {}): Sdk {
  return createSdk(
    {
      engine: { type: 'simulator', ackDelayMs: 5 },
      auth: { type: 'local', dataPath: dir },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      clients: ['bot', 'other'],
      plugins,
    },
    { logger: pino({ level: 'silent' }) },
  );
}

const silent = pino({ level: 'silent' });

describe('REST: the plugin', () => {
  let dir: string;
  let sdk: Sdk | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-rest-plugin-'));
  });
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 100 });
    sdk = undefined;
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  it('is the built-in "rest" plugin: listens during sdk.start() and closes in sdk.stop()', async () => {
    const port = await freePort();
    sdk = sdkWith(dir, { rest: { port, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] } });
    await sdk.start();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/clients`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).to.equal(200);
    const clients = (await res.json()) as { name: string }[];
    expect(clients.map((c) => c.name)).to.deep.equal(['bot', 'other']);
    await sdk.stop();
    const refused = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });

  it('serves the routes other plugins add under /api/v1/plugins/<plugin>, behind the token', async () => {
    const port = await freePort();
    sdk = sdkWith(dir);
    sdk.use(restPlugin, {
      port,
      tokens: [
        { token: ADMIN_TOKEN, clients: ['*'] },
        { token: SCOPED_TOKEN, clients: ['other'] },
      ],
    });
    sdk.use(
      definePlugin({
        name: 'stats',
        options: z.object({}).strict().default({}),
        setup(ctx) {
          ctx.http.route({
            method: 'POST',
            path: '/echo/:word',
            handler: (req) => ({
              status: 201,
              body: {
                word: req.params.word,
                body: req.body,
                client: req.clientName,
                auth: req.headers.authorization ?? null,
              },
            }),
          });
          ctx.http.route({
            method: 'GET',
            path: '/public',
            auth: false,
            handler: () => ({ body: 'hi' }),
          });
        },
      }),
    );
    await sdk.start();
    const base = `http://127.0.0.1:${port}/api/v1/plugins/stats`;
    const ok = await fetch(`${base}/echo/hello?client=bot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(ok.status).to.equal(201);
    expect(await ok.json()).to.deep.equal({
      word: 'hello',
      body: { a: 1 },
      client: 'bot',
      auth: null,
    });
    expect((await fetch(`${base}/echo/hello`, { method: 'POST' })).status).to.equal(401);
    const forbidden = await fetch(`${base}/echo/x?client=bot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SCOPED_TOKEN}` },
    });
    expect(forbidden.status).to.equal(403);
    const wrongMethod = await fetch(`${base}/echo/x`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('POST');
    const publicRoute = await fetch(`${base}/public`);
    expect(publicRoute.status).to.equal(200);
    expect(await publicRoute.text()).to.equal('hi');
    const none = await fetch(`${base}/nothing`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(none.status).to.equal(404);
    expect(none.headers.get('content-type')).to.match(/problem\+json/);
  });

  it('refuses to start without a token unless insecure on a loopback host', async () => {
    sdk = sdkWith(dir);
    const attempt = (options: unknown) =>
      createRestServer({
        sdk: restHostOf(sdk!),
        logger: silent,
        options: restOptionsSchema.parse(options),
      }).then(
        async (server) => {
          await server.close();
          return 'started';
        },
        (error: unknown) => (isWakitError(error, 'CONFIG_INVALID') ? 'refused' : String(error)),
      );
    expect(await attempt({ port: 0 })).to.equal('refused');
    expect(await attempt({ port: 0, insecure: true, host: '0.0.0.0' })).to.equal('refused');
    expect(await attempt({ port: 0, insecure: true, host: '192.168.1.10' })).to.equal('refused');
    expect(await attempt({ port: 0, insecure: true, host: '127.0.0.1' })).to.equal('started');
    expect(await attempt({ port: 0, insecure: true, host: '::1' })).to.equal('started');
    expect(() => restOptionsSchema.parse({ tokens: [{ token: 'short' }] })).to.throw(
      /32 characters/,
    );
    expect(() => restOptionsSchema.parse({ tokens: [], unknown: 1 })).to.throw();
  });

  it('insecure mode on loopback serves without a token', async () => {
    sdk = sdkWith(dir);
    const server = await createRestServer({
      sdk: restHostOf(sdk),
      logger: silent,
      options: { port: 0, insecure: true },
    });
    await server.listen();
    try {
      const res = await fetch(`${server.url}/api/v1/clients`);
      expect(res.status).to.equal(200);
    } finally {
      await server.close();
    }
  });

  it('closes gracefully: in-flight requests finish, SSE streams end, new connections are refused', async () => {
    sdk = sdkWith(dir);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const server = await createRestServer({
      sdk: restHostOf(sdk),
      logger: silent,
      options: {
        port: 0,
        tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }],
        sse: { heartbeatMs: 50 },
      },
      routes: [
        {
          method: 'GET',
          path: '/slow',
          operationId: 'slow',
          summary: 'slow',
          tag: 'test',
          auth: false,
          responses: { 200: { description: 'ok' } },
          async handler(ctx) {
            entered();
            await gate;
            ctx.body = { done: true };
          },
        },
      ],
    });
    await server.listen();
    const url = server.url;
    const stream = readEvents(`${url}/api/v1/events`, { token: ADMIN_TOKEN }, () => false, 10_000);
    const slow = fetch(`${url}/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await inside;
    const closed = server.close();
    setTimeout(release, 100);
    const [slowResult, streamResult] = await Promise.all([slow, stream, closed]);
    expect(slowResult).to.deep.equal({ status: 200, body: { done: true } });
    expect(streamResult.status).to.equal(200);
    const after = await fetch(`${url}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).to.equal('refused');
  });
});
