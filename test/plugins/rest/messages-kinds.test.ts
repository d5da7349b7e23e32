/**
 * REST: locations, contact cards and polls through `POST /api/v1/messages`, the simulator phone
 * sending them and voting, `poll.vote` on SSE; real responses checked against the OpenAPI document.
 */
import { expect } from 'chai';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  CONTACT,
  CONTACT_ID,
  readEvents,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, Record<string, unknown>> };
};

describe('REST: locations, contacts and polls', function () {
  this.timeout(15_000);
  let fx: RestFixture;
  let doc: Doc;

  function conforms(method: string, template: string, res: TestResponse): void {
    const response = documentedResponse(doc, method, template, res.status)!;
    expect(response, `${method} ${template} documents ${res.status}`).to.not.equal(undefined);
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const schema = response.content?.[type]?.schema;
    expect(schema, `${method} ${template} ${res.status} documents ${type}`).to.not.equal(undefined);
    const errors = validateJson(schema as Record<string, unknown>, res.json, doc);
    expect(errors, JSON.stringify(res.json)?.slice(0, 300)).to.deep.equal([]);
  }

  before(async () => {
    fx = await restFixture();
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
    await fx.link('bot');
  });
  after(() => fx.close());

  const send = (content: unknown, options?: unknown, wait = true) =>
    fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT_ID, content, ...(options ? { options } : {}) },
      headers: wait ? { prefer: 'wait=5' } : {},
    });

  it('sends a location, a poll and contact cards; the phone gets their data', async () => {
    const phone = fx.sdk.simulator.phone(CONTACT);
    const place = await send({
      type: 'location',
      latitude: 40.6892,
      longitude: -74.0445,
      name: 'Liberty',
    });
    expect(place.status, place.text).to.equal(201);
    conforms('post', '/api/v1/messages', place);
    const placeId = (place.json as { messageId: string }).messageId;
    expect((await phone.waitForMessage((m) => m.id === placeId)).location).to.deep.equal({
      latitude: 40.6892,
      longitude: -74.0445,
      name: 'Liberty',
    });

    const poll = await send(
      { type: 'poll', question: 'Ready?', options: ['Yes', 'No'], allowMultipleAnswers: true },
      undefined,
      false,
    );
    expect(poll.status, poll.text).to.equal(202);
    conforms('post', '/api/v1/messages', poll);
    const status = await fx.request('GET', `/api/v1/messages/${(poll.json as { id: string }).id}`);
    conforms('get', '/api/v1/messages/{id}', status);
    expect((status.json as { kind: string }).kind).to.equal('poll');
    const received = await phone.waitForMessage((m) => m.type === 'poll_creation');
    expect(received.poll).to.deep.equal({
      question: 'Ready?',
      options: ['Yes', 'No'],
      allowMultipleAnswers: true,
    });

    const cards = await send({
      type: 'contact',
      contacts: [{ id: BOT_ID }, { vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Zed\nEND:VCARD' }],
    });
    expect(cards.status, cards.text).to.equal(201);
    const cardsId = (cards.json as { messageId: string }).messageId;
    const multi = await phone.waitForMessage((m) => m.id === cardsId);
    expect(multi.type).to.equal('multi_vcard');
    expect(multi.vcards?.[1]).to.contain('FN:Zed');
  });

  it('media may reply (options.quotedMessageId); other options stay text-only', async () => {
    const incoming = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/messages`, {
      json: { text: 'photo?' },
    });
    conforms('post', '/api/v1/simulator/phones/{number}/messages', incoming);
    const quoted = (incoming.json as { id: string }).id;
    const image = {
      type: 'image',
      data: Buffer.from('png').toString('base64'),
      mimetype: 'image/png',
    };
    const ok = await send(image, { quotedMessageId: quoted });
    expect(ok.status, ok.text).to.equal(201);
    const id = (ok.json as { messageId: string }).messageId;
    const got = await fx.sdk.simulator.phone(CONTACT).waitForMessage((m) => m.id === id);
    expect(got.quotedMessageId).to.equal(quoted);
    const bad = await send(image, { mentions: [CONTACT_ID] });
    expect(bad.status).to.equal(400);
    conforms('post', '/api/v1/messages', bad);
    expect(
      (bad.json as { errors: Array<{ path: string }> }).errors.map((e) => e.path),
    ).to.deep.equal(['options.mentions']);
  });

  it('refuses polls with 1 or 13 options, and locations out of range, with the paths', async () => {
    for (const count of [1, 13]) {
      const options = Array.from({ length: count }, (_, i) => `o${i}`);
      const res = await send({ type: 'poll', question: 'q', options });
      expect(res.status).to.equal(400);
      conforms('post', '/api/v1/messages', res);
      const problem = res.json as { code: string; errors: Array<{ path: string }> };
      expect(problem.code).to.equal('VALIDATION_FAILED');
      expect(problem.errors.map((e) => e.path)).to.deep.equal(['content.options']);
    }
    const far = await send({ type: 'location', latitude: -91, longitude: 0 });
    expect(
      (far.json as { errors: Array<{ path: string }> }).errors.map((e) => e.path),
    ).to.deep.equal(['content.latitude']);
  });

  it('the OpenAPI request schema takes the new kinds (and describes the options limits)', () => {
    const request = doc.components.schemas.SendMessageRequest;
    const ok = (content: unknown) => validateJson(request, { chatId: CONTACT_ID, content }, doc);
    expect(ok({ type: 'location', latitude: 1, longitude: 2, name: 'x' })).to.deep.equal([]);
    expect(ok({ type: 'poll', question: 'q', options: ['a', 'b'] })).to.deep.equal([]);
    expect(
      ok({ type: 'contact', contacts: [{ id: '1555' }, { vcard: 'BEGIN:VCARD' }] }),
    ).to.deep.equal([]);
    expect(ok({ type: 'poll', question: 'q', options: ['a'] })).to.not.deep.equal([]);
    expect(ok({ type: 'location', latitude: 100, longitude: 2 })).to.not.deep.equal([]);
  });

  it('the simulated phone shares a location, a poll and a card, and votes: SSE carries them', async () => {
    const url = `${fx.url}/api/v1/events?client=bot&types=message,poll.vote`;
    const stream = readEvents(url, { token: ADMIN_TOKEN }, (events) =>
      events.some((e) => e.event === 'poll.vote'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const phone = `/api/v1/simulator/phones/${CONTACT}/messages`;
    for (const json of [
      { location: { latitude: 10, longitude: 20, address: 'Somewhere 1' } },
      { poll: { question: 'Pick', options: ['A', 'B'] } },
      { contacts: [{ id: BOT_ID }] },
    ]) {
      const res = await fx.request('POST', phone, { json });
      expect(res.status, res.text).to.equal(201);
    }
    const both = await fx.request('POST', phone, {
      json: { text: 'x', location: { latitude: 0, longitude: 0 } },
    });
    expect(both.status).to.equal(400);

    const sent = await send({ type: 'poll', question: 'Vote', options: ['Up', 'Down'] });
    const pollId = (sent.json as { messageId: string }).messageId;
    const voted = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/votes`, {
      json: { messageId: pollId, options: ['Down'] },
    });
    expect(voted.status, voted.text).to.equal(200);
    conforms('post', '/api/v1/simulator/phones/{number}/votes', voted);
    const wrong = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/votes`, {
      json: { messageId: pollId, options: ['Sideways'] },
    });
    expect(wrong.status).to.equal(400);
    conforms('post', '/api/v1/simulator/phones/{number}/votes', wrong);
    const unknown = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/votes`, {
      json: { messageId: 'true_1_NOPE', options: [] },
    });
    expect(unknown.status).to.equal(404);

    const { events } = await stream;
    type Received = {
      type: string;
      location?: unknown;
      poll?: { options: string[] };
      contacts?: Array<{ id?: string }>;
    };
    const messages = events
      .filter((e) => e.event === 'message')
      .map((e) => e.data.data as unknown as Received);
    expect(messages.find((m) => m.type === 'location')?.location).to.deep.equal({
      latitude: 10,
      longitude: 20,
      address: 'Somewhere 1',
    });
    expect(messages.find((m) => m.type === 'poll_creation')?.poll?.options).to.deep.equal([
      'A',
      'B',
    ]);
    expect(messages.find((m) => m.type === 'vcard')?.contacts?.[0]?.id).to.equal(BOT_ID);
    const vote = events.find((e) => e.event === 'poll.vote')!.data.data;
    expect(vote).to.deep.include({
      pollMessageId: pollId,
      voter: CONTACT_ID,
      chatId: CONTACT_ID,
      selectedOptions: ['Down'],
    });

    const inbox = await fx.request('GET', `/api/v1/simulator/phones/${CONTACT}/inbox`);
    conforms('get', '/api/v1/simulator/phones/{number}/inbox', inbox);
    const polls = (inbox.json as Array<{ type: string; poll?: { question: string } }>).filter(
      (m) => m.type === 'poll_creation',
    );
    expect(polls.map((m) => m.poll?.question)).to.include('Vote');
  });
});
