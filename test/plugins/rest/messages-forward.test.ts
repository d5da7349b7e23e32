/**
 * `POST /api/v1/messages/{id}/forward` on the simulator: by WhatsApp message id or tracking id,
 * queued like a send (status, `message.status`, `Idempotency-Key`, `Prefer: wait`), its answers
 * checked against the served OpenAPI document, and its errors.
 */
import { expect } from 'chai';
import type { BotClient, Message } from '../../../src/index.js';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  CONTACT,
  SCOPED_TOKEN,
  readEvents,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: object }> };
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
      }
    >
  >;
};

const CAROL = '15550003333';
const CAROL_ID = `${CAROL}@c.us`;
const ROUTE = '/api/v1/messages/{id}/forward';

describe('REST: forwarding a message', function () {
  this.timeout(15_000);
  let fx: RestFixture;
  let doc: Doc;
  let client: BotClient;

  function conforms(res: TestResponse, status: number): void {
    expect(res.status, res.text).to.equal(status);
    const response = documentedResponse(doc, 'post', ROUTE, status);
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const schema = response?.content?.[type]?.schema;
    expect(schema, `${ROUTE} documents ${status} ${type}`).to.not.equal(undefined);
    expect(validateJson(schema as Record<string, unknown>, res.json, doc)).to.deep.equal([]);
  }

  async function fromContact(text: string): Promise<Message> {
    const received = new Promise<Message>((resolve) => {
      const handler = (message: Message): void => {
        if (message.body !== text) return;
        client.off('message', handler);
        resolve(message);
      };
      client.on('message', handler);
    });
    await fx.sdk.simulator.phone(CONTACT).send(BOT_ID, text);
    return received;
  }

  const forward = (id: string, json: unknown, headers: Record<string, string> = {}) =>
    fx.request('POST', `/api/v1/messages/${encodeURIComponent(id)}/forward`, { json, headers });

  before(async () => {
    fx = await restFixture();
    fx.sdk.simulator.phone(CAROL, { pushname: 'Carol' });
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
    client = await fx.link('bot');
  });
  after(async () => {
    await fx.close();
  });

  it('is in the OpenAPI document with its request body', () => {
    const op = doc.paths[ROUTE]?.post;
    expect(op?.requestBody?.content['application/json']?.schema).to.deep.equal({
      $ref: '#/components/schemas/ForwardRequest',
    });
    expect(Object.keys(op?.responses ?? {})).to.include.members(['201', '202', '400', '404']);
  });

  it('forwards a received message by its WhatsApp id: queued, tracked, message.status on SSE', async () => {
    const message = await fromContact('forward me');
    const stream = readEvents(
      `${fx.url}/api/v1/events?types=message.status`,
      { token: ADMIN_TOKEN },
      (events) => events.some((e) => e.data.data.status === 'sent'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await forward(message.id, { chatId: CAROL });
    conforms(res, 202);
    const { id: trackingId } = res.json as { id: string };
    expect(res.json).to.deep.include({ status: 'queued', client: 'bot', chatId: CAROL_ID });
    expect(res.headers.get('location')).to.equal(`/api/v1/messages/${trackingId}`);
    const got = await fx.sdk.simulator.phone(CAROL).waitForMessage((m) => m.body === 'forward me');
    expect(got).to.include({ isForwarded: true, author: BOT_ID });
    const { events } = await stream;
    expect(events.map((e) => [e.data.data.id, e.data.data.kind])).to.deep.include([
      trackingId,
      'forward',
    ]);
    const status = await fx.request('GET', `/api/v1/messages/${trackingId}`);
    expect(status.json).to.deep.include({ id: trackingId, kind: 'forward', chatId: CAROL_ID });
    expect((status.json as { messageId: string }).messageId).to.match(/^true_15550003333@c\.us_/);
  });

  it('forwards what a send made, by its tracking id, with Prefer: wait and Idempotency-Key', async () => {
    const sent = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'our opening hours' },
      headers: { prefer: 'wait=5' },
    });
    const { id: sendId } = sent.json as { id: string };
    const headers = { prefer: 'wait=5', 'idempotency-key': 'fwd-hours-1' };
    const first = await forward(sendId, { chatId: `+1 555 000 3333` }, headers);
    conforms(first, 201);
    expect(first.json).to.deep.include({ status: 'sent', chatId: CAROL_ID, client: 'bot' });
    const again = await forward(sendId, { chatId: `+1 555 000 3333` }, headers);
    expect(again.status).to.equal(201);
    expect((again.json as { id: string }).id).to.equal((first.json as { id: string }).id);
    const reused = await forward(sendId, { chatId: CONTACT }, headers);
    expect(reused.status).to.equal(422);
    expect(reused.json).to.deep.include({ code: 'IDEMPOTENCY_KEY_REUSED' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const copies = fx.sdk.simulator
      .phone(CAROL)
      .inbox.filter((m) => m.body === 'our opening hours' && m.isForwarded);
    expect(copies).to.have.length(1);
  });

  it('answers clear coded errors', async () => {
    const message = await fromContact('not everywhere');
    const cases: Array<[string, unknown, Record<string, string>, number, string]> = [
      // an unknown tracking id: at once
      ['0b6f3f9e-7a59-4e37-9d55-2f5a4c6a0e11', { chatId: CAROL }, {}, 404, 'MESSAGE_NOT_FOUND'],
      // a WhatsApp id the account does not have: the send fails (seen at once with Prefer: wait)
      [
        `false_${CONTACT}@c.us_3EB0NOSUCHMESSAGE`,
        { chatId: CAROL },
        { prefer: 'wait=5' },
        404,
        'MESSAGE_NOT_FOUND',
      ],
      ['not-a-message-id', { chatId: CAROL }, {}, 400, 'VALIDATION_FAILED'],
      [message.id, { chatId: 'nobody' }, {}, 400, 'INVALID_CHAT_ID'],
      [message.id, { chatId: 'status@broadcast' }, {}, 400, 'INVALID_CHAT_ID'],
      [message.id, {}, {}, 400, 'VALIDATION_FAILED'],
      [message.id, { chatId: CAROL, extra: 1 }, {}, 400, 'VALIDATION_FAILED'],
      [message.id, { chatId: '19999999999' }, { prefer: 'wait=5' }, 404, 'CHAT_NOT_FOUND'],
      [message.id, { chatId: CAROL, client: 'nobody' }, {}, 404, 'CLIENT_NOT_FOUND'],
    ];
    for (const [id, body, headers, status, code] of cases) {
      const res = await forward(id, body, headers);
      expect(res.status, `${id} ${JSON.stringify(body)}: ${res.text}`).to.equal(status);
      expect(res.json, JSON.stringify(body)).to.deep.include({ code });
      conforms(res, status);
    }
    const queued = await forward(`false_${CONTACT}@c.us_3EB0NOSUCHMESSAGE`, { chatId: CAROL });
    expect(queued.status).to.equal(202);
    const { id } = queued.json as { id: string };
    let record: { status?: string; error?: { code: string } } = {};
    for (let i = 0; i < 100 && record.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      record = (await fx.request('GET', `/api/v1/messages/${id}`)).json as typeof record;
    }
    expect(record.status).to.equal('failed');
    expect(record.error?.code).to.equal('MESSAGE_NOT_FOUND');
  });

  it('needs the token, and a scoped token only reaches its own clients', async () => {
    const message = await fromContact('private');
    const anonymous = await fx.request(
      'POST',
      `/api/v1/messages/${encodeURIComponent(message.id)}/forward`,
      { json: { chatId: CAROL }, token: null },
    );
    expect(anonymous.status).to.equal(401);
    const scoped = await fx.request(
      'POST',
      `/api/v1/messages/${encodeURIComponent(message.id)}/forward`,
      { json: { chatId: CAROL, client: 'bot' }, token: SCOPED_TOKEN },
    );
    expect(scoped.status).to.equal(403);
  });
});
