import { expect } from 'chai';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  CONTACT,
  readEvents,
  ADMIN_TOKEN,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

/** Every route of SPEC-REST.md (the `*` row expanded). */
const SPEC_ROUTES: [string, string][] = [
  ['post', '/api/v1/client/initialize'],
  ['get', '/api/v1/client/qr'],
  ['get', '/api/v1/client/info'],
  ['post', '/api/v1/client/logout'],
  ['post', '/api/v1/client/pairing-code'],
  ['post', '/api/v1/messages'],
  ['get', '/api/v1/messages/{id}'],
  ['get', '/api/v1/clients'],
  ['post', '/api/v1/clients/{name}/initialize'],
  ['get', '/api/v1/clients/{name}/qr'],
  ['get', '/api/v1/clients/{name}/info'],
  ['post', '/api/v1/clients/{name}/logout'],
  ['post', '/api/v1/clients/{name}/pairing-code'],
  ['post', '/api/v1/clients/{name}/messages'],
  ['get', '/api/v1/events'],
  ['get', '/healthz'],
  ['get', '/readyz'],
  ['get', '/metrics'],
  ['get', '/'],
  ['get', '/api/v1/openapi.json'],
];

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
        security?: unknown[];
        operationId: string;
      }
    >
  >;
  components: Record<string, unknown>;
};

describe('REST: OpenAPI document', () => {
  let fx: RestFixture;
  let doc: Doc;
  let checked = 0;

  /** Validates a real response against the document's schema for its route and status. */
  function conforms(method: string, template: string, res: TestResponse): void {
    const op = doc.paths[template]?.[method];
    expect(op, `${method} ${template} documented`).to.not.equal(undefined);
    const response = documentedResponse(doc, method, template, res.status)!;
    expect(response, `${method} ${template} documents status ${res.status}`).to.not.equal(
      undefined,
    );
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const media = response.content?.[type];
    expect(media, `${method} ${template} ${res.status} documents ${type}`).to.not.equal(undefined);
    if (type.endsWith('json')) {
      const errors = validateJson(media!.schema as Record<string, unknown>, res.json, doc);
      expect(
        errors,
        `${method} ${template} ${res.status}: ${JSON.stringify(res.json)?.slice(0, 300)}`,
      ).to.deep.equal([]);
    }
    checked++;
  }

  before(async () => {
    fx = await restFixture();
    const res = await fx.request('GET', '/api/v1/openapi.json', { token: null });
    expect(res.status).to.equal(200);
    doc = res.json as Doc;
  });
  after(async () => {
    await fx.close();
  });

  it('is OpenAPI 3.1 and contains every route of SPEC-REST.md', () => {
    expect(doc.openapi).to.equal('3.1.0');
    for (const [method, path] of SPEC_ROUTES) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).to.not.equal(undefined);
    }
    expect(doc.paths['/healthz'].get.security).to.deep.equal([]);
    expect(doc.paths['/api/v1/messages'].post.security).to.equal(undefined);
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('describes the routes the server really has (GET ones also as HEAD), and nothing else', () => {
    // its own and the simulator plugin's (schema-typed plugin routes are documented too)
    const plugin = fx.pluginRoutes.routes().map((r) => ({
      method: r.method,
      path: `${r.mount}${r.path}`.replace(/:(\w+)/g, '{$1}'),
    }));
    const served = [...fx.server.routes, ...plugin]
      .flatMap((r) =>
        (r.method === 'GET' ? ['get', 'head'] : [r.method.toLowerCase()]).map(
          (m) => `${m} ${r.path}`,
        ),
      )
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(documented).to.deep.equal(served);
  });

  it('real responses validate against it', async () => {
    conforms('get', '/healthz', await fx.request('GET', '/healthz', { token: null }));
    conforms('get', '/readyz', await fx.request('GET', '/readyz', { token: null }));
    conforms('get', '/api/v1/clients', await fx.request('GET', '/api/v1/clients'));
    conforms('get', '/api/v1/client/info', await fx.request('GET', '/api/v1/client/info'));
    conforms('get', '/api/v1/client/qr', await fx.request('GET', '/api/v1/client/qr'));
    conforms(
      'post',
      '/api/v1/client/pairing-code',
      await fx.request('POST', '/api/v1/client/pairing-code', {
        json: { phoneNumber: '15550000001' },
      }),
    );
    const qrSeen = new Promise<string>((resolve) => fx.sdk.client('bot').once('qr', resolve));
    conforms(
      'post',
      '/api/v1/client/initialize',
      await fx.request('POST', '/api/v1/client/initialize'),
    );
    await qrSeen;
    conforms(
      'post',
      '/api/v1/client/initialize',
      await fx.request('POST', '/api/v1/client/initialize'),
    );
    const qr = await fx.request('GET', '/api/v1/client/qr?format=base64');
    conforms('get', '/api/v1/client/qr', qr);
    conforms('get', '/api/v1/client/qr', await fx.request('GET', '/api/v1/client/qr?format=svg'));
    conforms('get', '/api/v1/client/qr', await fx.request('GET', '/api/v1/client/qr?format=text'));
    conforms(
      'post',
      '/api/v1/client/pairing-code',
      await fx.request('POST', '/api/v1/client/pairing-code', {
        json: { phoneNumber: '15550000001' },
      }),
    );
    await fx.sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    conforms('get', '/api/v1/client/info', await fx.request('GET', '/api/v1/client/info'));
    conforms('get', '/readyz', await fx.request('GET', '/readyz', { token: null }));

    const queued = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'hi' },
    });
    conforms('post', '/api/v1/messages', queued);
    const sent = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'hi' },
      headers: { prefer: 'wait=5' },
    });
    conforms('post', '/api/v1/messages', sent);
    conforms(
      'post',
      '/api/v1/messages',
      await fx.request('POST', '/api/v1/messages', { json: { chatId: 'x' } }),
    );
    conforms(
      'post',
      '/api/v1/messages',
      await fx.request('POST', '/api/v1/messages', {
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
    );
    conforms(
      'post',
      '/api/v1/messages',
      await fx.request('POST', '/api/v1/messages', {
        json: { chatId: '19990009999', content: 'x' },
        headers: { prefer: 'wait=5' },
      }),
    );
    const id = (queued.json as { id: string }).id;
    conforms('get', '/api/v1/messages/{id}', await fx.request('GET', `/api/v1/messages/${id}`));
    conforms('get', '/api/v1/messages/{id}', await fx.request('GET', '/api/v1/messages/nope'));
    conforms(
      'get',
      '/api/v1/clients/{name}/messages/{id}',
      await fx.request('GET', `/api/v1/clients/bot/messages/${id}`),
    );
    conforms(
      'post',
      '/api/v1/clients/{name}/messages',
      await fx.request('POST', '/api/v1/clients/bot/messages', {
        json: { chatId: CONTACT, content: 'x' },
      }),
    );
    conforms(
      'get',
      '/api/v1/clients/{name}/info',
      await fx.request('GET', '/api/v1/clients/other/info'),
    );
    conforms(
      'get',
      '/api/v1/clients/{name}/info',
      await fx.request('GET', '/api/v1/clients/ghost/info'),
    );
    conforms(
      'get',
      '/api/v1/clients/{name}/qr',
      await fx.request('GET', '/api/v1/clients/other/qr'),
    );
    conforms(
      'get',
      '/api/v1/clients/{name}/info',
      await fx.request('GET', '/api/v1/clients/other/info', { token: 'x'.repeat(20) }),
    );
    conforms(
      'post',
      '/api/v1/clients/{name}/initialize',
      await fx.request('POST', '/api/v1/clients/bot/initialize'),
    );
    conforms('get', '/metrics', await fx.request('GET', '/metrics'));
    conforms('get', '/api/v1/openapi.json', await fx.request('GET', '/api/v1/openapi.json'));
    conforms('get', '/', await fx.request('GET', '/', { token: null }));
    conforms(
      'get',
      '/api/v1/simulator/phones/{number}/inbox',
      await fx.request('GET', `/api/v1/simulator/phones/${CONTACT}/inbox`),
    );
    conforms(
      'post',
      '/api/v1/simulator/phones/{number}/messages',
      await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/messages`, {
        json: { text: 'hello bot' },
      }),
    );
    conforms('get', '/api/v1/events', await fx.request('GET', '/api/v1/events?types=bogus'));

    const { events } = await readEvents(
      `${fx.url}/api/v1/events`,
      { token: ADMIN_TOKEN, headers: { 'last-event-id': '0' } },
      (e) => e.length > 5,
    );
    const eventSchema = { $ref: '#/components/schemas/ClientEvent' };
    for (const event of events) {
      expect(validateJson(eventSchema, event.data, doc)).to.deep.equal([]);
    }

    conforms(
      'post',
      '/api/v1/clients/{name}/logout',
      await fx.request('POST', '/api/v1/clients/bot/logout'),
    );
    conforms('post', '/api/v1/client/logout', await fx.request('POST', '/api/v1/client/logout'));
    expect(checked).to.be.at.least(35);
  });

  it('the validator rejects what does not conform', () => {
    const root = doc as unknown as Record<string, unknown>;
    expect(
      validateJson(
        { $ref: '#/components/schemas/ClientSummary' },
        { name: 'a', status: 'READY' },
        root,
      ),
    ).to.deep.equal([]);
    expect(
      validateJson(
        { $ref: '#/components/schemas/ClientSummary' },
        { name: 'a', status: 'NOPE' },
        root,
      ),
    ).to.have.length(1);
    expect(
      validateJson(
        { $ref: '#/components/schemas/ClientSummary' },
        { name: 'a', status: 'READY', x: 1 },
        root,
      ),
    ).to.have.length(1);
    expect(
      validateJson({ $ref: '#/components/schemas/ClientInfo' }, { name: 'a' }, root).length,
    ).to.be.greaterThan(3);
  });
});
