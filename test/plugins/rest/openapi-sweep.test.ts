import { request as httpRequest } from 'node:http';
import { Socket } from 'node:net';
import { expect } from 'chai';
import { ContractChecker, type Exchange } from '../../helpers/openapi-contract.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  CONTACT_ID,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

/**
 * The cross-cutting answers, sent to every operation of the served OpenAPI document: each answer
 * must be one its operation documents (status, body, headers), and requests the document refuses
 * must be refused. Requests go out on raw HTTP (`Expect` and oversized headers cannot go through
 * fetch), each on its own connection.
 */
const BODY_LIMIT = 1_024;

type Doc = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter> };
};
type Parameter = {
  name: string;
  in: string;
  schema?: { pattern?: string; minLength?: number; maxLength?: number };
};
type Operation = {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: unknown;
  security?: unknown[];
};

interface Raw {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function raw(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // Node frames a DELETE body only with an explicit length
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const options = { method, headers: { ...headers, ...length }, agent: false };
    const req = httpRequest(`${base}${url}`, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          text,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Values for path parameters: the first one a parameter's schema takes is used. */
const SAMPLES = [
  'bot',
  CONTACT_ID,
  CONTACT,
  '120363000000000001@g.us',
  'false_15550001111@c.us_ABCDEF',
];

/** Where the first HTTP answer in `text` ends (it has a Content-Length), or -1 before that. */
function answerEnd(text: string): number {
  const head = text.indexOf('\r\n\r\n');
  if (head < 0) return -1;
  const length = /^content-length:\s*(\d+)/im.exec(text.slice(0, head))?.[1];
  const end = head + 4 + Number(length ?? 0);
  return text.length >= end ? end : -1;
}

function pathParams(op: Operation): Parameter[] {
  return (op.parameters ?? []).filter((p): p is Parameter => 'in' in p && p.in === 'path');
}

function sample(param: Parameter): string {
  const { pattern, minLength = 0, maxLength = Infinity } = param.schema ?? {};
  const fits = (value: string) =>
    value.length >= minLength &&
    value.length <= maxLength &&
    (!pattern || new RegExp(pattern, 'u').test(value));
  return SAMPLES.find(fits) ?? 'x';
}

function fill(path: string, op: Operation, values: Record<string, string> = {}): string {
  const params = new Map(pathParams(op).map((p) => [p.name, p]));
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = params.get(name);
    return encodeURIComponent(values[name] ?? (param ? sample(param) : 'x'));
  });
}

/** A value the parameter's schema refuses, if it has a constraint. */
function outOfPattern(param: Parameter): string | undefined {
  if (param.schema?.pattern) return '!!';
  if (param.schema?.maxLength) return 'x'.repeat(param.schema.maxLength + 1);
  return undefined;
}

describe('REST: OpenAPI sweep of the cross-cutting answers over every operation', function () {
  this.timeout(120_000);
  let fx: RestFixture;
  let doc: Doc;
  let checker: ContractChecker;
  let swept = 0;
  let failures = 0;
  const mismatches: string[] = [];
  const unexpected: string[] = [];

  /** Sends one case and checks the answer against the document. */
  async function send(
    base: string,
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Raw> {
    const res = await raw(base, method, url, headers, body);
    swept++;
    const exchange: Exchange = {
      method,
      url,
      requestHeaders: headers,
      ...(body !== undefined ? { requestBody: body } : {}),
      status: res.status,
      responseHeaders: res.headers,
      text: res.text,
    };
    mismatches.push(...checker.check(exchange));
    return res;
  }

  afterEach(() => {
    failures += mismatches.length;
  });

  function expectStatus(what: string, res: Raw, status: number): void {
    if (res.status !== status)
      unexpected.push(`${what}: ${res.status}, not ${status}: ${res.text.slice(0, 200)}`);
  }

  function operations(): [string, string, Operation][] {
    return Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]): [string, string, Operation] => [
        method.toUpperCase(),
        path,
        op,
      ]),
    );
  }

  beforeEach(() => {
    mismatches.length = 0;
    unexpected.length = 0;
  });
  before(async () => {
    // the sweep sends about a thousand requests at once: the per-token rate limit (its own case
    // below) must not answer them first, however fast the machine is
    fx = await restFixture({ rest: { bodyLimit: BODY_LIMIT, rateLimit: false } });
    doc = (await (await fetch(`${fx.url}/api/v1/openapi.json`)).json()) as Doc;
    checker = await ContractChecker.for(doc);
  });
  after(async () => {
    await fx.close();
    console.log(
      `  OpenAPI sweep: ${operations().length} operations, ${swept} cases swept, ${failures + unexpected.length} undocumented answers or refusals`,
    );
  });

  it('answers every case with what the operation documents', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const [method, path, op] of operations()) {
      const what = `${method} ${path}`;
      const url = fill(path, op);
      const protectedOp = op.security === undefined;
      const bodyless = method !== 'GET' && method !== 'HEAD';
      expectStatus(
        `${what} undeclared query`,
        await send(fx.url, method, `${url}?undeclared=1`, admin),
        400,
      );
      for (const param of pathParams(op)) {
        const bad = outOfPattern(param);
        if (bad === undefined) continue;
        const res = await send(fx.url, method, fill(path, op, { [param.name]: bad }), admin);
        // refused: 400, or the state the server checks first (409 CLIENT_NOT_READY)
        if (res.status < 400 || res.status >= 500)
          unexpected.push(`${what} ${param.name} out of pattern: ${res.status}`);
      }
      if (bodyless) {
        const json = { ...admin, 'content-type': 'application/json' };
        if (!op.requestBody) {
          const res = await send(fx.url, method, url, json, '{"unexpected":1}');
          expectStatus(`${what} body where none is taken`, res, 400);
        }
        const big = JSON.stringify({ x: 'y'.repeat(BODY_LIMIT) });
        expectStatus(`${what} oversize body`, await send(fx.url, method, url, json, big), 413);
        const text = { ...admin, 'content-type': 'text/plain' };
        expectStatus(`${what} text body`, await send(fx.url, method, url, text, 'hello'), 415);
      }
      const expectation = { ...admin, expect: 'x-wakit-never' };
      expectStatus(`${what} Expect`, await send(fx.url, method, url, expectation), 417);
      const huge = { ...admin, 'x-huge': 'h'.repeat(20_000) };
      expectStatus(`${what} huge header`, await send(fx.url, method, url, huge), 431);
      if (protectedOp) {
        const anonymous = await send(fx.url, method, url, {});
        expectStatus(`${what} no token`, anonymous, 401);
        const scoped = { authorization: `Bearer ${SCOPED_TOKEN}` };
        const query = op.parameters?.some((p) => 'name' in p && p.name === 'client')
          ? '?client=bot'
          : '';
        const res = await send(fx.url, method, `${url}${query}`, scoped);
        // (a body the operation needs is checked before the client is)
        const namesBot = (path.includes('{name}') || query !== '') && !op.requestBody;
        if (namesBot || path === '/metrics') expectStatus(`${what} scoped token`, res, 403);
      }
    }
    expect(unexpected, unexpected.join('\n')).to.deep.equal([]);
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
  });

  it('refuses, in the document as on the server, what the server refuses', async () => {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const image = { type: 'image', url: 'https://example.com/cat.png' };
    const sending = (body: unknown): [string, string, unknown] => [
      'POST',
      '/api/v1/messages',
      body,
    ];
    const refused: [string, string, unknown?][] = [
      sending({ chatId: CONTACT_ID, content: { ...image, data: 'aGk=', mimetype: 'image/png' } }),
      sending({ chatId: CONTACT_ID, content: { type: 'image', data: 'aGk=' } }),
      sending({ chatId: CONTACT_ID, content: { type: 'image' } }),
      sending({ chatId: CONTACT_ID, content: { type: 'image', url: 'ftp://example.com/cat.png' } }),
      sending({ chatId: CONTACT_ID, content: image, options: { linkPreview: true } }),
      sending({ chatId: CONTACT_ID, content: '   ' }),
      sending({ chatId: 'not a chat', content: 'hi' }),
      sending({
        chatId: CONTACT_ID,
        content: 'hi',
        options: { mentions: ['120363000000000001@g.us'] },
      }),
      [
        'POST',
        '/api/v1/clients',
        { name: 'shop', webhooks: [{ url: 'ftp://example.com/h', secret: 's'.repeat(16) }] },
      ],
      ['PATCH', '/api/v1/groups/120363000000000001@g.us', {}],
      ['GET', '/api/v1/messages?since=yesterday'],
      ['GET', '/api/v1/events?types=bogus'],
      ['GET', '/api/v1/chats/status@broadcast'],
      ['POST', '/api/v1/messages/not-a-message-id/reaction', { emoji: '👍' }],
      ['POST', `/api/v1/messages/false_${CONTACT_ID}_ABC/reaction`, { emoji: 'ab' }],
    ];
    /** What the document finds wrong with a request (its answer is not needed for that). */
    const documentErrors = (method: string, url: string, json?: string): string[] => {
      const [path = '', query = ''] = url.split('?');
      const operation = checker.operation(method, path);
      expect(operation, url).to.not.equal(undefined);
      const request = { method, url, requestHeaders: admin, status: 0, responseHeaders: {} };
      const exchange: Exchange = { ...request, text: '', ...(json ? { requestBody: json } : {}) };
      return checker.requestErrors(operation!, exchange, path, query);
    };
    for (const [method, url, body] of refused) {
      const json = body === undefined ? undefined : JSON.stringify(body);
      const what = `${method} ${url} ${json ?? ''}`;
      expect(documentErrors(method, url, json), what).to.not.deep.equal([]);
      const res = await send(fx.url, method, url, admin, json);
      expect(res.status, `${what}: ${res.text}`).to.equal(400);
    }
    // The specification's own media request is valid in the document (mimetype with url).
    const spec = {
      chatId: '15550001111@c.us',
      content: { ...image, mimetype: 'image/png', caption: 'hi' },
    };
    expect(documentErrors('POST', '/api/v1/messages', JSON.stringify(spec))).to.deep.equal([]);
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
  });

  it('answers 429 with Retry-After on every operation once a token is over its rate', async () => {
    const limited = await restFixture({
      rest: { rateLimit: { requestsPerSecond: 0.001, burst: 1 } },
    });
    try {
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      await raw(limited.url, 'GET', '/api/v1/clients', admin);
      for (const [method, path, op] of operations()) {
        const res = await send(limited.url, method, fill(path, op), admin);
        expectStatus(`${method} ${path} rate limited`, res, 429);
        if (!res.headers['retry-after']) unexpected.push(`${method} ${path}: no Retry-After`);
      }
    } finally {
      await limited.close();
    }
    expect(unexpected, unexpected.join('\n')).to.deep.equal([]);
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
  });

  it('answers 503 SHUTTING_DOWN with Connection: close on every operation once closing', async () => {
    const closing = await restFixture();
    const { port } = new URL(closing.url);
    // Each connection is first served a /healthz (so the server has taken it), then the request of
    // an operation is begun before the close (the connection is then not idle) and ended after.
    const pending = operations().map(([method, path, op]) => {
      const socket = new Socket();
      let text = '';
      let served: () => void = () => undefined;
      const healthy = new Promise<void>((resolve) => (served = resolve));
      const answer = new Promise<string>((resolve, reject) => {
        socket.setEncoding('latin1'); // a character per byte, as Content-Length counts
        let first = true;
        socket.on('data', (chunk: string) => {
          text += chunk;
          const end = first ? answerEnd(text) : -1;
          if (end >= 0) {
            first = false;
            text = text.slice(end);
            served();
          }
        });
        socket.on('end', () => resolve(text));
        socket.on('error', (error) => reject(new Error(`${method} ${path}: ${error.message}`)));
      });
      answer.catch(() => undefined); // awaited below, in order
      socket.connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      );
      return { method, path, url: fill(path, op), socket, answer, healthy };
    });
    for (const p of pending) {
      await p.healthy;
      p.socket.write(
        `${p.method} ${p.url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = closing.close();
    for (const p of pending) p.socket.write('\r\n');
    for (const p of pending) {
      const text = await p.answer;
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      const headers = Object.fromEntries(
        lines.map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      swept++;
      mismatches.push(
        ...checker.check({
          method: p.method,
          url: p.url,
          requestHeaders: { authorization: `Bearer ${ADMIN_TOKEN}` },
          status,
          responseHeaders: headers,
          text: p.method === 'HEAD' ? '' : body,
        }),
      );
      expectStatus(`${p.method} ${p.path} closing`, { status, headers, text: body }, 503);
      if (headers.connection !== 'close')
        unexpected.push(`${p.method} ${p.path}: no Connection: close`);
    }
    await closed;
    expect(unexpected, unexpected.join('\n')).to.deep.equal([]);
    expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
  });
});
