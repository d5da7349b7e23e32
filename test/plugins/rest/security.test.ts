import net from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { pino } from 'pino';
import { TokenAuth } from '../../../plugins/rest/middleware/auth.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  SCOPED_TOKEN,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

function rawRequest(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(payload));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve(data);
    });
  });
}

/** Fills `{param}` segments with values that exist. */
function concrete(path: string): string {
  return path.replace('{name}', 'bot').replace('{id}', 'x').replace('{number}', CONTACT);
}

describe('REST: security', () => {
  let fx: RestFixture;
  const lines: string[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    fx = await restFixture({ logger: pino({ level: 'trace' }, sink) });
    await fx.link('bot');
  });
  after(async () => {
    await fx.close();
  });

  it('requires a valid bearer token on every route but healthz, readyz, openapi and the dashboard files', async function () {
    this.timeout(30_000); // every operation, each checked against the document (compiled on first use)
    const open = new Set([
      '/healthz',
      '/readyz',
      '/api/v1/openapi.json',
      '/',
      '/dashboard/app.js',
      '/dashboard/style.css',
      '/api/docs',
      '/api/docs/swagger-ui.css',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/init.js',
      '/api/docs/errors',
    ]);
    const routes = fx.server.routes;
    expect(routes.length).to.be.at.least(25);
    for (const route of routes) {
      const path = concrete(route.path);
      if (open.has(route.path)) {
        expect(route.auth, route.path).to.equal(false);
        const res = await fx.request(route.method, path, { token: null });
        expect(res.status, route.path).to.be.oneOf([200, 503]);
        continue;
      }
      for (const authorization of [
        undefined,
        'Basic YWRtaW46YWRtaW4=',
        'Bearer',
        `Bearer ${ADMIN_TOKEN}x`,
        `bearer${ADMIN_TOKEN}`,
        `Bearer ${'a'.repeat(2000)}`,
      ]) {
        const res = await fx.request(route.method, path, {
          token: null,
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(
          res.status,
          `${route.method} ${route.path} with ${authorization?.slice(0, 20)}`,
        ).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.json).to.include({ code: 'UNAUTHORIZED', status: 401 });
      }
    }
  });

  it('compares tokens by digest: any length, no throw, only exact matches', () => {
    const auth = new TokenAuth(
      [
        { token: ADMIN_TOKEN, clients: ['*'] },
        { token: SCOPED_TOKEN, clients: ['other'] },
      ],
      false,
    );
    expect(auth.authenticate(`Bearer ${ADMIN_TOKEN}`).clients).to.equal('*');
    expect([...(auth.authenticate(`Bearer ${SCOPED_TOKEN}`).clients as Set<string>)]).to.deep.equal(
      ['other'],
    );
    for (const wrong of [
      'x',
      ADMIN_TOKEN.slice(0, -1),
      `${ADMIN_TOKEN.slice(0, -1)}X`,
      ADMIN_TOKEN.toUpperCase(),
      `${ADMIN_TOKEN} `.repeat(3),
    ]) {
      expect(() => auth.authenticate(`Bearer ${wrong}`), wrong).to.throw(/token/);
    }
  });

  it('answers a valid token the same the second time, and never lets a near miss ride on it', () => {
    const auth = new TokenAuth(
      [
        { token: ADMIN_TOKEN, clients: ['*'] },
        { token: SCOPED_TOKEN, clients: ['other'] },
      ],
      false,
    );
    for (let round = 0; round < 3; round++) {
      expect(auth.authenticate(`Bearer ${ADMIN_TOKEN}`)).to.include({
        tokenIndex: 0,
        clients: '*',
      });
      const scoped = auth.authenticate(`bearer ${SCOPED_TOKEN}`);
      expect(scoped.tokenIndex).to.equal(1);
      expect([...(scoped.clients as Set<string>)]).to.deep.equal(['other']);
      for (const wrong of [
        ADMIN_TOKEN.slice(0, -1),
        `${ADMIN_TOKEN}x`,
        SCOPED_TOKEN.toUpperCase(),
      ]) {
        expect(() => auth.authenticate(`Bearer ${wrong}`), wrong).to.throw(/token/);
      }
    }
    // Many spellings of one valid header (more than are remembered) all keep working.
    for (let spaces = 0; spaces < 100; spaces++) {
      const header = `${' '.repeat(spaces)}Bearer ${ADMIN_TOKEN}`;
      expect(auth.authenticate(header).tokenIndex).to.equal(0);
    }
    expect(() => auth.authenticate(`Bearer ${SCOPED_TOKEN}x`)).to.throw(/token/);
  });

  it('keeps scoped tokens to their clients: list, info, QR, logout, messages, SSE, metrics, simulator', async () => {
    const list = await fx.request('GET', '/api/v1/clients', { token: SCOPED_TOKEN });
    expect(
      (list.json as { name: string; status: string }[]).map(({ name, status }) => ({
        name,
        status,
      })),
    ).to.deep.equal([{ name: 'other', status: 'STOPPED' }]);
    const forbidden: [string, string][] = [
      ['GET', '/api/v1/client/info'],
      ['GET', '/api/v1/client/qr'],
      ['POST', '/api/v1/client/initialize'],
      ['POST', '/api/v1/client/logout'],
      ['GET', '/api/v1/clients/bot/info'],
      ['GET', '/api/v1/clients/bot/qr?format=png'],
      ['POST', '/api/v1/clients/bot/logout'],
      ['POST', '/api/v1/clients/bot/initialize'],
      ['GET', '/api/v1/events?client=bot'],
      ['GET', '/api/v1/events?client=other,bot'],
      ['GET', '/metrics'],
      ['GET', `/api/v1/simulator/phones/${CONTACT}/inbox`],
    ];
    for (const [method, path] of forbidden) {
      const res = await fx.request(method, path, { token: SCOPED_TOKEN });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.json).to.include({ code: 'FORBIDDEN' });
    }
    expect(fx.sdk.client('bot').state).to.equal('READY');
    expect(
      (await fx.request('GET', '/api/v1/clients/other/info', { token: SCOPED_TOKEN })).status,
    ).to.equal(200);

    // Unfiltered SSE shows only the token's clients.
    const stream = readEvents(
      `${fx.url}/api/v1/events?types=message.create`,
      { token: SCOPED_TOKEN },
      (e) => e.length > 0,
      600,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'bot only' },
      headers: { prefer: 'wait=5' },
    });
    const { events } = await stream;
    expect(events.filter((e) => e.data.client === 'bot')).to.deep.equal([]);
  });

  it('logs every request once, without the token or the message body', async () => {
    lines.length = 0;
    const secret = 'a very private message text';
    await fx.request('POST', '/api/v1/messages', { json: { chatId: CONTACT, content: secret } });
    await fx.request('GET', '/api/v1/clients', { token: 'wrong-token-wrong-token-wrong' });
    const all = lines.join('');
    expect(all).to.not.include(ADMIN_TOKEN);
    expect(all).to.not.include('wrong-token-wrong-token-wrong');
    expect(all).to.not.include(secret);
    const http = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => String(l.msg).startsWith('http '));
    expect(http).to.have.length(2);
    expect(http[0]).to.include({
      method: 'POST',
      path: '/api/v1/messages',
      status: 202,
      client: 'bot',
      level: 30,
    });
    expect(http[0]).to.have.property('ms').that.is.a('number');
    expect(http[1]).to.include({ status: 401 });
  });

  it("a media URL our policy refuses is the caller's error: 422 MEDIA_URL_REFUSED, logged at warn without a stack", async () => {
    lines.length = 0;
    const res = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: { type: 'image', url: 'http://[2002:7f00:1::]/a.png' } },
      headers: { prefer: 'wait=5' },
    });
    expect(res.status).to.equal(422);
    expect(res.json).to.include({ code: 'MEDIA_URL_REFUSED', status: 422 });
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.filter((l) => Number(l.level) >= 50)).to.deep.equal([]);
    const warned = logged.filter((l) => l.level === 40 && l.code === 'MEDIA_URL_REFUSED');
    expect(warned).to.have.length(1);
    expect(JSON.stringify(warned[0])).to.not.match(/\n\s+at |"stack"/);
  });

  it('answers 50+ kinds of bad request with a 4xx problem, never a 5xx, and keeps serving', async () => {
    const msg = '/api/v1/messages';
    const json = (body: unknown) => ({
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const cases: {
      name: string;
      method: string;
      path: string;
      token?: string | null;
      body?: string | Buffer;
      headers?: Record<string, string>;
      expect?: number;
    }[] = [
      { name: 'no content type', method: 'POST', path: msg, body: '{}', expect: 415 },
      {
        name: 'text/plain',
        method: 'POST',
        path: msg,
        body: '{}',
        headers: { 'content-type': 'text/plain' },
        expect: 415,
      },
      {
        name: 'form',
        method: 'POST',
        path: msg,
        body: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        expect: 415,
      },
      {
        name: 'multipart',
        method: 'POST',
        path: msg,
        body: '--x--',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        expect: 415,
      },
      {
        name: 'xml',
        method: 'POST',
        path: msg,
        body: '<a/>',
        headers: { 'content-type': 'application/xml' },
        expect: 415,
      },
      {
        name: 'initialize with a text body',
        method: 'POST',
        path: '/api/v1/client/initialize',
        body: 'go',
        headers: { 'content-type': 'text/plain' },
        expect: 415,
      },
      {
        name: 'unknown content encoding',
        method: 'POST',
        path: msg,
        body: '{}',
        headers: { 'content-type': 'application/json', 'content-encoding': 'br2' },
        expect: 415,
      },
      {
        name: 'malformed JSON',
        method: 'POST',
        path: msg,
        body: '{',
        headers: { 'content-type': 'application/json' },
        expect: 400,
      },
      {
        name: 'truncated JSON',
        method: 'POST',
        path: msg,
        body: '{"chatId":',
        headers: { 'content-type': 'application/json' },
        expect: 400,
      },
      { name: 'JSON string', method: 'POST', path: msg, ...json('hi'), expect: 400 },
      { name: 'JSON number', method: 'POST', path: msg, ...json(42), expect: 400 },
      { name: 'JSON null', method: 'POST', path: msg, ...json(null), expect: 400 },
      { name: 'JSON array', method: 'POST', path: msg, ...json([]), expect: 400 },
      {
        name: 'bad gzip',
        method: 'POST',
        path: msg,
        body: 'not gzip',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        expect: 400,
      },
      {
        name: 'gzip of garbage JSON',
        method: 'POST',
        path: msg,
        body: gzipSync('{oops'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        expect: 400,
      },
      {
        name: 'empty JSON body',
        method: 'POST',
        path: msg,
        body: '',
        headers: { 'content-type': 'application/json' },
        expect: 400,
      },
      { name: 'empty object', method: 'POST', path: msg, ...json({}), expect: 400 },
      {
        name: 'unknown field',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x', extra: 1 }),
        expect: 400,
      },
      {
        name: '__proto__ field',
        method: 'POST',
        path: msg,
        body: `{"chatId":"${CONTACT}","content":"x","__proto__":{"admin":true}}`,
        headers: { 'content-type': 'application/json' },
        expect: 400,
      },
      {
        name: 'chatId number',
        method: 'POST',
        path: msg,
        ...json({ chatId: 1, content: 'x' }),
        expect: 400,
      },
      {
        name: 'chatId empty',
        method: 'POST',
        path: msg,
        ...json({ chatId: '', content: 'x' }),
        expect: 400,
      },
      {
        name: 'chatId garbage',
        method: 'POST',
        path: msg,
        ...json({ chatId: 'DROP TABLE', content: 'x' }),
        expect: 400,
      },
      {
        name: 'chatId too long',
        method: 'POST',
        path: msg,
        ...json({ chatId: '1'.repeat(500), content: 'x' }),
        expect: 400,
      },
      {
        name: 'content number',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 5 }),
        expect: 400,
      },
      {
        name: 'content null',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: null }),
        expect: 400,
      },
      {
        name: 'content empty',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: '' }),
        expect: 400,
      },
      {
        name: 'content whitespace',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: '   ' }),
        expect: 400,
      },
      {
        name: 'content no type',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { url: 'https://e.com/a.png' } }),
        expect: 400,
      },
      {
        name: 'content type gif',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'gif', url: 'https://e.com/a.gif' } }),
        expect: 400,
      },
      {
        name: 'ftp url',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', url: 'ftp://e.com/a.png' } }),
        expect: 400,
      },
      {
        name: 'javascript url',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', url: 'javascript:alert(1)' } }),
        expect: 400,
      },
      {
        name: 'file url',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', url: 'file:///etc/passwd' } }),
        expect: 400,
      },
      {
        name: 'path source',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', path: '../../etc/passwd' } }),
        expect: 400,
      },
      {
        name: 'data not base64',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: { type: 'image', data: '!!!', mimetype: 'image/png' },
        }),
        expect: 400,
      },
      {
        name: 'data without mimetype',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', data: 'AAAA' } }),
        expect: 400,
      },
      {
        name: 'bad mimetype',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', data: 'AAAA', mimetype: 'png' } }),
        expect: 400,
      },
      {
        name: 'sticker caption',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: { type: 'sticker', url: 'https://e.com/a.webp', caption: 'x' },
        }),
        expect: 400,
      },
      {
        name: 'document without filename',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'document', url: 'https://e.com/a.pdf' } }),
        expect: 400,
      },
      {
        name: 'filename on image',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: { type: 'image', url: 'https://e.com/a.png', filename: 'a.png' },
        }),
        expect: 400,
      },
      {
        name: 'unknown option',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x', options: { bold: true } }),
        expect: 400,
      },
      {
        name: 'mentions not array',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x', options: { mentions: 'all' } }),
        expect: 400,
      },
      {
        name: 'deeply nested',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: 'x',
          options: { mentions: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown },
        }),
        expect: 400,
      },
      {
        name: 'bad client name',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x', client: '../etc' }),
        expect: 400,
      },
      {
        name: 'unknown client',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x', client: 'ghost' }),
        expect: 404,
      },
      {
        name: 'oversized body',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: 'x'.repeat(1_100_000) }),
        expect: 413,
      },
      {
        name: 'body on initialize',
        method: 'POST',
        path: '/api/v1/client/initialize',
        ...json({ force: true }),
        expect: 400,
      },
      {
        name: 'pairing code letters',
        method: 'POST',
        path: '/api/v1/client/pairing-code',
        ...json({ phoneNumber: 'call me' }),
        expect: 400,
      },
      {
        name: 'pairing code no body',
        method: 'POST',
        path: '/api/v1/client/pairing-code',
        expect: 400,
      },
      { name: 'QR format gif', method: 'GET', path: '/api/v1/client/qr?format=gif', expect: 400 },
      {
        name: 'QR format repeated',
        method: 'GET',
        path: '/api/v1/client/qr?format=png&format=svg',
        expect: 400,
      },
      { name: 'unknown query', method: 'GET', path: '/api/v1/client/info?debug=1', expect: 400 },
      {
        name: 'client name with space',
        method: 'GET',
        path: '/api/v1/clients/bad%20name/info',
        expect: 400,
      },
      {
        name: 'client name too long',
        method: 'GET',
        path: `/api/v1/clients/${'a'.repeat(65)}/info`,
        expect: 400,
      },
      {
        name: 'encoded traversal',
        method: 'GET',
        path: '/api/v1/clients/..%2F..%2Fetc/info',
        expect: 400,
      },
      { name: 'malformed percent encoding', method: 'GET', path: '/api/v1/clients/%E0%A4%A/info' },
      {
        name: 'message id too long',
        method: 'GET',
        path: `/api/v1/messages/${'x'.repeat(300)}`,
        expect: 400,
      },
      { name: 'unknown route', method: 'GET', path: '/api/v1/nope', expect: 404 },
      {
        name: 'unknown client route',
        method: 'GET',
        path: '/api/v1/clients/bot/secrets',
        expect: 404,
      },
      { name: 'DELETE messages', method: 'DELETE', path: msg, expect: 405 },
      { name: 'PUT info', method: 'PUT', path: '/api/v1/client/info', expect: 405 },
      { name: 'POST healthz', method: 'POST', path: '/healthz', expect: 405 },
      { name: 'PATCH clients', method: 'PATCH', path: '/api/v1/clients', expect: 405 },
      { name: 'SSE unknown type', method: 'GET', path: '/api/v1/events?types=nope', expect: 400 },
      { name: 'SSE bad client', method: 'GET', path: '/api/v1/events?client=../x', expect: 400 },
      {
        name: 'SSE bad Last-Event-ID',
        method: 'GET',
        path: '/api/v1/events',
        headers: { 'last-event-id': 'abc' },
        expect: 400,
      },
      { name: 'SSE unknown query', method: 'GET', path: '/api/v1/events?after=0', expect: 400 },
      {
        name: 'SSE since not a number',
        method: 'GET',
        path: '/api/v1/events?since=x',
        expect: 400,
      },
      {
        name: 'SSE client __proto__',
        method: 'GET',
        path: '/api/v1/events?client=__proto__',
        expect: 404,
      },
      {
        name: 'SSE client constructor',
        method: 'GET',
        path: '/api/v1/events?client=bot,constructor',
        expect: 404,
      },
      {
        name: 'JSON declared latin1',
        method: 'POST',
        path: msg,
        body: Buffer.from(`{"chatId":"${CONTACT}","content":"caf\u00e9"}`, 'latin1'),
        headers: { 'content-type': 'application/json; charset=latin1' },
        expect: 415,
      },
      {
        name: 'JSON declared utf-16',
        method: 'POST',
        path: msg,
        body: Buffer.from(`{"chatId":"${CONTACT}","content":"x"}`, 'utf16le'),
        headers: { 'content-type': 'application/json; charset="UTF-16"' },
        expect: 415,
      },
      {
        name: 'media URL: 6to4 of loopback',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: { type: 'image', url: 'http://[2002:7f00:1::]/a.png' },
        }),
        headers: { 'content-type': 'application/json', prefer: 'wait=5' },
        expect: 422,
      },
      {
        name: 'media URL: IPv4-compatible loopback',
        method: 'POST',
        path: msg,
        ...json({ chatId: CONTACT, content: { type: 'image', url: 'http://[::127.0.0.1]/a.png' } }),
        headers: { 'content-type': 'application/json', prefer: 'wait=5' },
        expect: 422,
      },
      {
        name: 'media URL: cloud metadata',
        method: 'POST',
        path: msg,
        ...json({
          chatId: CONTACT,
          content: { type: 'image', url: 'http://169.254.169.254/x.png' },
        }),
        headers: { 'content-type': 'application/json', prefer: 'wait=5' },
        expect: 422,
      },
      {
        name: '40,000 unknown keys',
        method: 'POST',
        path: msg,
        ...json(
          Object.fromEntries([
            ['chatId', CONTACT],
            ['content', 'x'],
            ...Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 1]),
          ]),
        ),
        expect: 400,
      },
      {
        name: 'simulator bad number',
        method: 'GET',
        path: '/api/v1/simulator/phones/abc/inbox',
        expect: 400,
      },
      {
        name: 'simulator empty text',
        method: 'POST',
        path: `/api/v1/simulator/phones/${CONTACT}/messages`,
        ...json({ text: '' }),
        expect: 400,
      },
      { name: 'no token', method: 'GET', path: '/api/v1/clients', token: null, expect: 401 },
      {
        name: 'wrong token',
        method: 'GET',
        path: '/api/v1/clients',
        token: 'x'.repeat(30),
        expect: 401,
      },
      {
        name: 'non-ASCII token',
        method: 'GET',
        path: '/api/v1/clients',
        token: null,
        headers: { authorization: 'Bearer caf\u00e9-token-0123456789' },
        expect: 401,
      },
      {
        name: 'scoped token',
        method: 'GET',
        path: '/api/v1/clients/bot/info',
        token: SCOPED_TOKEN,
        expect: 403,
      },
    ];
    expect(cases.length).to.be.at.least(50);
    for (const c of cases) {
      const res = await fx.request(c.method, c.path, {
        token: c.token,
        body: c.body,
        headers: c.headers,
      });
      expect(res.status, c.name).to.be.within(400, 499);
      if (c.expect) expect(res.status, c.name).to.equal(c.expect);
      expect(res.headers.get('content-type'), c.name).to.match(/^application\/problem\+json/);
      const problem = res.json as Record<string, unknown>;
      expect(problem, c.name).to.include.keys('type', 'title', 'status', 'detail', 'code');
      expect(problem.status, c.name).to.equal(res.status);
      expect(res.text, c.name).to.not.match(/\n\s+at |node_modules|\.ts:\d+/);
      // what a request is told stays small, however much it sent
      expect(res.text.length, c.name).to.be.below(20_000);
    }

    const raw = [
      'GARBAGE\r\n\r\n',
      'GET /api/v1/clients HTTP/1.1\r\nConnection: close\r\n\r\n',
      `GET /api/v1/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'GET /api/v1/clients HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n',
      `POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n{}`,
    ];
    for (const payload of raw) {
      const answer = await rawRequest(fx.url, payload);
      expect(answer, payload.slice(0, 30)).to.match(/^HTTP\/1\.1 4\d\d /);
      expect(answer, `${JSON.stringify(payload.slice(0, 60))} ${answer}`).to.match(
        /application\/problem\+json/,
      );
    }

    expect((await fx.request('GET', '/healthz', { token: null })).status).to.equal(200);
    const ok = await fx.request('POST', msg, {
      json: { chatId: CONTACT, content: 'still serving' },
    });
    expect(ok.status).to.equal(202);
    expect((await fx.request('GET', '/api/v1/client/info')).json).to.include({ status: 'READY' });
  });

  it('enforces CORS only for listed origins', async () => {
    const cors = await restFixture({ rest: { cors: ['https://app.example.com'] } });
    try {
      const pre = await fetch(`${cors.url}/api/v1/messages`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('https://app.example.com');
      expect(pre.headers.get('access-control-allow-headers')).to.match(/Authorization/);
      // plugin routes may use PUT, PATCH and DELETE: browsers must be allowed to preflight them
      const put = await fetch(`${cors.url}/api/v1/plugins/x/y`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'DELETE' },
      });
      expect(put.status).to.equal(204);
      expect(put.headers.get('access-control-allow-methods')).to.match(/PUT/);
      expect(put.headers.get('access-control-allow-methods')).to.match(/PATCH/);
      expect(put.headers.get('access-control-allow-methods')).to.match(/DELETE/);
      const evil = await fetch(`${cors.url}/api/v1/messages`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
      });
      expect(evil.status).to.equal(403);
      expect(evil.headers.get('access-control-allow-origin')).to.equal(null);
      const plain = await cors.request('GET', '/api/v1/clients', {
        headers: { origin: 'https://evil.example.com' },
      });
      expect(plain.headers.get('access-control-allow-origin')).to.equal(null);
    } finally {
      await cors.close();
    }
    const off = await fx.request('GET', '/api/v1/clients', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(off.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('sets protective headers; the dashboard has a strict CSP', async () => {
    const api = await fx.request('GET', '/api/v1/clients');
    expect(api.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(api.headers.get('cache-control')).to.equal('no-store');
    const page = await fx.request('GET', '/', { token: null });
    expect(page.headers.get('content-security-policy')).to.match(/default-src 'none'/);
    expect(page.headers.get('content-security-policy')).to.match(/frame-ancestors 'none'/);
  });
});
