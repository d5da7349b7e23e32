/**
 * REST: chats, contacts, numbers and calls on the simulator, every real response checked against
 * the OpenAPI document; tokens and client-scoped tokens; the `call` event on SSE.
 */
import { expect } from 'chai';
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

const BOB = '15550002222';

describe('REST: chats, contacts and calls', () => {
  let fx: RestFixture;
  let doc: Doc;

  /** Validates a real response against the document's schema for its route and status. */
  function conforms(method: string, template: string, res: TestResponse, status: number): void {
    expect(res.status, `${method} ${template}: ${res.text.slice(0, 300)}`).to.equal(status);
    const op = doc.paths[template]?.[method];
    expect(op, `${method} ${template} documented`).to.not.equal(undefined);
    const media = documentedResponse(doc, method, template, res.status)?.content?.[
      (res.headers.get('content-type') ?? '').split(';')[0]
    ];
    expect(media, `${method} ${template} documents ${res.status}`).to.not.equal(undefined);
    const errors = validateJson(media!.schema as Record<string, unknown>, res.json, doc);
    expect(errors, `${method} ${template}: ${res.text.slice(0, 300)}`).to.deep.equal([]);
  }

  async function phoneWrites(from: string, text: string, to = BOT_ID): Promise<void> {
    const client = fx.sdk.client('bot');
    const arrived = new Promise<void>((resolve) => {
      const listener = (m: { body: string }) => {
        if (m.body !== text) return;
        client.off('message', listener);
        resolve();
      };
      client.on('message', listener);
    });
    const res = await fx.request('POST', `/api/v1/simulator/phones/${from}/messages`, {
      json: { text, to },
    });
    expect(res.status).to.equal(201);
    await arrived;
  }

  before(async () => {
    fx = await restFixture();
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
    await fx.link('bot');
    fx.sdk.simulator.phone(BOB, { pushname: 'Bob' });
    await phoneWrites(CONTACT, 'first from alice');
    await phoneWrites(BOB, 'hello from bob');
    await phoneWrites(CONTACT, 'second from alice');
  });

  after(async () => {
    await fx.close();
  });

  it('GET /api/v1/chats pages with cursors; unreadOnly; the default client', async () => {
    const first = await fx.request('GET', '/api/v1/chats?limit=1');
    conforms('get', '/api/v1/chats', first, 200);
    const page1 = first.json as { items: Array<{ id: string }>; nextCursor: string | null };
    expect(page1.items).to.have.length(1);
    expect(page1.nextCursor).to.be.a('string');
    const second = await fx.request(
      'GET',
      `/api/v1/chats?client=bot&limit=1&cursor=${page1.nextCursor}`,
    );
    conforms('get', '/api/v1/chats', second, 200);
    const page2 = second.json as { items: Array<{ id: string }>; nextCursor: string | null };
    expect(page2.nextCursor).to.equal(null);
    expect([...page1.items, ...page2.items].map((c) => c.id).sort()).to.deep.equal(
      [CONTACT_ID, `${BOB}@c.us`].sort(),
    );
    const unread = await fx.request('GET', '/api/v1/chats?unreadOnly=true');
    conforms('get', '/api/v1/chats', unread, 200);
    expect((unread.json as { items: unknown[] }).items).to.have.length(2);
    const bad = await fx.request('GET', '/api/v1/chats?cursor=bm9wZQ');
    expect(bad.status).to.equal(400);
    expect((bad.json as { code: string }).code).to.equal('VALIDATION_FAILED');
    const tooMany = await fx.request('GET', '/api/v1/chats?limit=501');
    expect(tooMany.status).to.equal(400);
  });

  it('GET /api/v1/chats/{chatId} and its messages, newest first, paging with before', async () => {
    const chat = await fx.request('GET', `/api/v1/chats/${CONTACT}`);
    conforms('get', '/api/v1/chats/{chatId}', chat, 200);
    expect(chat.json).to.deep.include({ id: CONTACT_ID, name: 'Alice', unreadCount: 2 });
    // marking the chat seen clears its unread count, as on WhatsApp
    const seen = await fx.request('POST', `/api/v1/chats/${CONTACT}/seen`, {
      headers: { prefer: 'wait=5' },
    });
    expect(seen.status, seen.text).to.equal(201);
    const read = await fx.request('GET', `/api/v1/chats/${CONTACT}`);
    conforms('get', '/api/v1/chats/{chatId}', read, 200);
    expect(read.json).to.deep.include({ id: CONTACT_ID, unreadCount: 0 });
    const latest = await fx.request('GET', `/api/v1/chats/${CONTACT_ID}/messages?limit=1`);
    conforms('get', '/api/v1/chats/{chatId}/messages', latest, 200);
    const page = latest.json as { items: Array<{ body: string; id: string }>; nextBefore: string };
    expect(page.items.map((m) => m.body)).to.deep.equal(['second from alice']);
    expect(page.nextBefore).to.equal(page.items[0].id);
    const older = await fx.request(
      'GET',
      `/api/v1/chats/${CONTACT_ID}/messages?limit=5&before=${encodeURIComponent(page.nextBefore)}`,
    );
    conforms('get', '/api/v1/chats/{chatId}/messages', older, 200);
    expect(older.json).to.deep.include({ nextBefore: null });
    expect(
      (older.json as { items: Array<{ body: string }> }).items.map((m) => m.body),
    ).to.deep.equal(['first from alice']);
    const missing = await fx.request('GET', '/api/v1/chats/15550007777/messages');
    expect(missing.status).to.equal(404);
    expect((missing.json as { code: string }).code).to.equal('CHAT_NOT_FOUND');
    const invalid = await fx.request('GET', '/api/v1/chats/status@broadcast');
    expect(invalid.status).to.equal(400);
    expect((invalid.json as { code: string }).code).to.equal('INVALID_CHAT_ID');
  });

  it('contacts: paged list, one contact, numbers, pictures, block and unblock', async () => {
    fx.sdk.simulator.phone(CONTACT).setProfilePicture('https://pps.example/alice.jpg');
    const list = await fx.request('GET', '/api/v1/contacts?limit=1');
    conforms('get', '/api/v1/contacts', list, 200);
    const page = list.json as { items: Array<{ id: string }>; nextCursor: string };
    expect(page.items.map((c) => c.id)).to.deep.equal([CONTACT_ID]);
    const next = await fx.request('GET', `/api/v1/contacts?limit=1&cursor=${page.nextCursor}`);
    conforms('get', '/api/v1/contacts', next, 200);
    expect(next.json).to.deep.equal({
      items: [
        {
          id: `${BOB}@c.us`,
          number: BOB,
          lid: fx.sdk.simulator.phone(BOB).lid,
          pushname: 'Bob',
          isMyContact: false,
          isBlocked: false,
          isBusiness: false,
        },
      ],
      nextCursor: null,
    });
    const one = await fx.request('GET', `/api/v1/contacts/${CONTACT_ID}`);
    conforms('get', '/api/v1/contacts/{id}', one, 200);
    expect(one.json).to.deep.include({ id: CONTACT_ID, pushname: 'Alice' });
    const unknown = await fx.request('GET', '/api/v1/contacts/19990009999');
    expect(unknown.status).to.equal(404);

    const picture = await fx.request('GET', `/api/v1/contacts/${CONTACT}/profile-picture`);
    conforms('get', '/api/v1/contacts/{id}/profile-picture', picture, 200);
    expect(picture.json).to.deep.equal({ id: CONTACT_ID, url: 'https://pps.example/alice.jpg' });
    const none = await fx.request('GET', `/api/v1/contacts/${BOB}/profile-picture`);
    expect(none.json).to.deep.equal({ id: `${BOB}@c.us`, url: null });

    const registered = await fx.request('GET', `/api/v1/numbers/${CONTACT}`);
    conforms('get', '/api/v1/numbers/{phone}', registered, 200);
    expect(registered.json).to.deep.equal({ phone: CONTACT, registered: true, id: CONTACT_ID });
    const absent = await fx.request('GET', '/api/v1/numbers/19990009999');
    expect(absent.json).to.deep.equal({ phone: '19990009999', registered: false, id: null });

    const blocked = await fx.request('POST', `/api/v1/contacts/${BOB}/block`);
    conforms('post', '/api/v1/contacts/{id}/block', blocked, 200);
    expect(blocked.json).to.deep.equal({ id: `${BOB}@c.us`, blocked: true });
    expect((await fx.request('GET', `/api/v1/contacts/${BOB}`)).json).to.deep.include({
      isBlocked: true,
    });
    const unblocked = await fx.request('POST', `/api/v1/contacts/${BOB}/unblock`);
    conforms('post', '/api/v1/contacts/{id}/unblock', unblocked, 200);
    expect(unblocked.json).to.deep.equal({ id: `${BOB}@c.us`, blocked: false });
  });

  it('calls: the simulator phone calls, SSE streams call, POST reject rejects it', async () => {
    const placed = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/calls`, {
      json: { video: true },
    });
    conforms('post', '/api/v1/simulator/phones/{number}/calls', placed, 201);
    const { id } = placed.json as { id: string };
    expect(placed.json).to.deep.equal({ id, to: BOT_ID, state: 'ringing' });
    // since=0: what the buffer holds, so the stream cannot miss the event.
    const { events } = await readEvents(
      `${fx.url}/api/v1/events?types=call&since=0`,
      { token: ADMIN_TOKEN },
      (seen) => seen.length >= 1,
    );
    expect(events[0]?.event).to.equal('call');
    expect((events[0]?.data as { data: unknown }).data).to.deep.include({
      id,
      from: CONTACT_ID,
      video: true,
      group: false,
    });
    const rejected = await fx.request('POST', `/api/v1/calls/${id}/reject?client=bot`);
    conforms('post', '/api/v1/calls/{id}/reject', rejected, 200);
    expect(rejected.json).to.deep.equal({ id, status: 'rejected' });
    const again = await fx.request('POST', `/api/v1/calls/${id}/reject`);
    expect(again.status).to.equal(404);
    expect((again.json as { code: string }).code).to.equal('CALL_NOT_FOUND');
  });

  it('needs a token; a token scoped to other clients is FORBIDDEN; not READY is 409', async () => {
    for (const route of ['/api/v1/chats', '/api/v1/contacts', `/api/v1/numbers/${CONTACT}`]) {
      const res = await fx.request('GET', route, { token: null });
      expect(res.status, route).to.equal(401);
    }
    expect((await fx.request('POST', '/api/v1/calls/ABC/reject', { token: null })).status).to.equal(
      401,
    );
    const scoped = await fx.request('GET', '/api/v1/chats?client=bot', { token: SCOPED_TOKEN });
    expect(scoped.status).to.equal(403);
    expect((scoped.json as { code: string }).code).to.equal('FORBIDDEN');
    const blocked = await fx.request('POST', `/api/v1/contacts/${CONTACT}/block?client=bot`, {
      token: SCOPED_TOKEN,
    });
    expect(blocked.status).to.equal(403);
    const notReady = await fx.request('GET', '/api/v1/chats?client=other', {
      token: SCOPED_TOKEN,
    });
    expect(notReady.status).to.equal(409);
    expect((notReady.json as { code: string }).code).to.equal('CLIENT_NOT_READY');
    const simCall = await fx.request('POST', `/api/v1/simulator/phones/${CONTACT}/calls`, {
      token: SCOPED_TOKEN,
      json: {},
    });
    expect(simCall.status).to.equal(403);
  });
});
