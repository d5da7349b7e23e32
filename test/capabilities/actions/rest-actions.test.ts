/**
 * Message actions and presence over REST on the simulator, every real response validated against
 * the OpenAPI document: react / edit / delete by WhatsApp id or tracking id, presence, errors,
 * the simulator's phone-side routes and the events on SSE.
 */
import { expect } from 'chai';
import type { BotClient, Message } from '../../../src/index.js';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  CONTACT,
  CONTACT_ID,
  SCOPED_TOKEN,
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
};

describe('REST: message actions and presence', function () {
  this.timeout(15_000);
  let fx: RestFixture;
  let doc: Doc;
  let client: BotClient;

  /** Checks a real response against the document, for its route template and status. */
  function conforms(method: string, template: string, res: TestResponse, status: number): void {
    expect(res.status, res.text).to.equal(status);
    const response = documentedResponse(doc, method, template, res.status)!;
    expect(response, `${method} ${template} documents ${res.status}`).to.not.equal(undefined);
    if (res.status === 204) return;
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const schema = response.content?.[type]?.schema;
    expect(schema, `${method} ${template} ${res.status} documents ${type}`).to.not.equal(undefined);
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

  const wait = { headers: { prefer: 'wait=5' } };
  const enc = encodeURIComponent;

  before(async () => {
    fx = await restFixture();
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
    client = await fx.link('bot');
  });
  after(async () => {
    await fx.close();
  });

  it('documents every route', () => {
    for (const [method, path] of [
      ['post', '/api/v1/messages/{id}/reaction'],
      ['patch', '/api/v1/messages/{id}'],
      ['delete', '/api/v1/messages/{id}'],
      ['post', '/api/v1/chats/{chatId}/seen'],
      ['post', '/api/v1/chats/{chatId}/presence'],
      ['put', '/api/v1/presence'],
      ['post', '/api/v1/simulator/phones/{number}/reactions'],
      ['patch', '/api/v1/simulator/phones/{number}/messages/{id}'],
      ['delete', '/api/v1/simulator/phones/{number}/messages/{id}'],
      ['get', '/api/v1/simulator/phones/{number}/actions'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).to.not.equal(undefined);
    }
  });

  it('reacts by WhatsApp id: 202 queued, then 201 with Prefer: wait; the contact sees it', async () => {
    const message = await fromContact('react here');
    const route = `/api/v1/messages/${enc(message.id)}/reaction`;
    const queued = await fx.request('POST', route, { json: { emoji: '👍' } });
    conforms('post', '/api/v1/messages/{id}/reaction', queued, 202);
    expect(queued.json).to.include({ status: 'queued', client: 'bot', chatId: CONTACT_ID });
    const status = await fx.request('GET', queued.headers.get('location')!);
    expect((status.json as { kind: string }).kind).to.equal('reaction');
    const made = await fx.request('POST', route, { json: { emoji: '🎉' }, ...wait });
    conforms('post', '/api/v1/messages/{id}/reaction', made, 201);
    expect(made.json).to.include({ messageId: message.id });
    const phone = fx.sdk.simulator.phone(CONTACT);
    await phone.waitForAction((a) => a.type === 'reaction' && a.emoji === '🎉');
  });

  it('edits and deletes by tracking id (the message that send made)', async () => {
    const sent = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT_ID, content: 'helo' },
      ...wait,
    });
    const trackingId = (sent.json as { id: string }).id;
    const edited = await fx.request('PATCH', `/api/v1/messages/${trackingId}`, {
      json: { text: 'hello' },
      ...wait,
    });
    conforms('patch', '/api/v1/messages/{id}', edited, 201);
    const phone = fx.sdk.simulator.phone(CONTACT);
    expect((await phone.waitForAction((a) => a.type === 'edit')).body).to.equal('hello');
    const deleted = await fx.request(
      'DELETE',
      `/api/v1/messages/${trackingId}?forEveryone=true`,
      wait,
    );
    conforms('delete', '/api/v1/messages/{id}', deleted, 201);
    await phone.waitForAction((a) => a.type === 'revoke');
  });

  it('errors are problems with codes', async () => {
    const theirs = await fromContact('not yours');
    const forbidden = await fx.request('PATCH', `/api/v1/messages/${enc(theirs.id)}`, {
      json: { text: 'mine' },
    });
    conforms('patch', '/api/v1/messages/{id}', forbidden, 403);
    expect((forbidden.json as { code: string }).code).to.equal('PERMISSION_DENIED');

    const unknown = await fx.request(
      'POST',
      `/api/v1/messages/${enc(`false_${CONTACT_ID}_3EB0FFFFFFFFFFFFFFFFFF`)}/reaction`,
      { json: { emoji: '👍' }, ...wait },
    );
    conforms('post', '/api/v1/messages/{id}/reaction', unknown, 404);
    expect((unknown.json as { code: string }).code).to.equal('MESSAGE_NOT_FOUND');

    const badId = await fx.request('POST', '/api/v1/messages/nonsense/reaction', {
      json: { emoji: '👍' },
    });
    conforms('post', '/api/v1/messages/{id}/reaction', badId, 400);
    const badEmoji = await fx.request('POST', `/api/v1/messages/${enc(theirs.id)}/reaction`, {
      json: { emoji: 'like' },
    });
    conforms('post', '/api/v1/messages/{id}/reaction', badEmoji, 400);
    const notSent = await fx.request(
      'DELETE',
      '/api/v1/messages/00000000-0000-4000-8000-000000000000',
    );
    conforms('delete', '/api/v1/messages/{id}', notSent, 404);
    const scoped = await fx.request('POST', `/api/v1/messages/${enc(theirs.id)}/reaction`, {
      json: { emoji: '👍' },
      token: SCOPED_TOKEN,
    });
    conforms('post', '/api/v1/messages/{id}/reaction', scoped, 403);
    expect((scoped.json as { code: string }).code).to.equal('FORBIDDEN');
    const noToken = await fx.request('PUT', '/api/v1/presence', {
      json: { online: true },
      token: null,
    });
    expect(noToken.status).to.equal(401);
  });

  it('presence: seen, typing, online', async () => {
    await fromContact('read me');
    const seen = await fx.request('POST', `/api/v1/chats/${CONTACT_ID}/seen`, wait);
    conforms('post', '/api/v1/chats/{chatId}/seen', seen, 201);
    expect((seen.json as { messageId: string }).messageId).to.equal('');
    const phone = fx.sdk.simulator.phone(CONTACT);
    await phone.waitForAction((a) => a.type === 'seen');
    const typing = await fx.request('POST', `/api/v1/chats/${CONTACT}/presence`, {
      json: { state: 'typing' },
    });
    conforms('post', '/api/v1/chats/{chatId}/presence', typing, 202);
    await phone.waitForAction((a) => a.type === 'chat-state' && a.state === 'typing');
    const bad = await fx.request('POST', `/api/v1/chats/${CONTACT}/presence`, {
      json: { state: 'dancing' },
    });
    conforms('post', '/api/v1/chats/{chatId}/presence', bad, 400);
    const offline = await fx.request('PUT', '/api/v1/presence', {
      json: { online: false },
      ...wait,
    });
    conforms('put', '/api/v1/presence', offline, 201);
    expect(fx.sdk.simulator.linkedPhone('bot')!.online).to.equal(false);
  });

  it('simulator: the phone reacts, edits and deletes; the bot streams the events over SSE', async () => {
    const sent = await client.sendTextMessage({ to: CONTACT_ID, text: 'for the phone' });
    const phone = fx.sdk.simulator.phone(CONTACT);
    const mine = await phone.send(BOT_ID, 'phone says');
    const stream = readEvents(
      `${fx.url}/api/v1/events?types=message.reaction,message.edit,message.revoke`,
      { token: ADMIN_TOKEN },
      (events) => events.length >= 3,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const inbox = phone.inbox.find((m) => m.body === 'for the phone')!;
    const reacted = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/reactions`, {
      json: { messageId: inbox.id, emoji: '❤️' },
    });
    conforms('post', '/api/v1/simulator/phones/{number}/reactions', reacted, 204);
    const edited = await fx.request(
      'PATCH',
      `/api/v1/simulator/phones/${CONTACT}/messages/${enc(mine.id)}`,
      { json: { text: 'phone said' } },
    );
    conforms('patch', '/api/v1/simulator/phones/{number}/messages/{id}', edited, 204);
    const revoked = await fx.request(
      'DELETE',
      `/api/v1/simulator/phones/${CONTACT}/messages/${enc(mine.id)}`,
    );
    conforms('delete', '/api/v1/simulator/phones/{number}/messages/{id}', revoked, 204);
    const { events } = await stream;
    expect(events.map((e) => e.event)).to.deep.equal([
      'message.reaction',
      'message.edit',
      'message.revoke',
    ]);
    expect(events[0].data.data).to.include({
      messageId: sent.id,
      emoji: '❤️',
      senderId: CONTACT_ID,
    });
    expect(events[1].data.data).to.include({ body: 'phone said', previousBody: 'phone says' });

    const someoneElses = await fx.request(
      'PATCH',
      `/api/v1/simulator/phones/${CONTACT}/messages/${enc(sent.id)}`,
      { json: { text: 'hijack' } },
    );
    conforms('patch', '/api/v1/simulator/phones/{number}/messages/{id}', someoneElses, 403);

    const actions = await fx.request('GET', `/api/v1/simulator/phones/${CONTACT}/actions`);
    conforms('get', '/api/v1/simulator/phones/{number}/actions', actions, 200);
    expect((actions.json as { type: string }[]).some((a) => a.type === 'reaction')).to.equal(true);
  });
});
