// Conversations over REST (issue 37): start one for a chat (the bot writes first), list, get and end
// it, read and erase the chat's state; through real HTTP on loopback, every exchange checked
// against the served OpenAPI document (rest-harness.ts), the token's client scopes applied.
import { expect } from 'chai';
import { defineConversation, definePlugin, z, type Sdk } from '../../../src/index.js';
import type { SdkConversations } from '../../../src/entries/types.js';
import {
  BOT_ID,
  BOT_PHONE,
  CONTACT,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

const surveyState = z.object({ names: z.array(z.string()).default([]) });

/** A small conversation and a plugin that keeps the `conversations` service it is granted. */
function surveyPlugin(granted: { conversations?: SdkConversations }) {
  return definePlugin({
    name: 'survey',
    privileges: ['conversations'],
    setup(ctx, services) {
      granted.conversations = services.conversations;
      ctx.conversations.define(
        defineConversation({
          name: 'survey',
          state: surveyState,
          async run(conv) {
            const { topic } = (conv.input ?? {}) as { topic?: string };
            const name = await conv.text(`Survey on ${topic ?? 'us'}: your name?`);
            await conv.state.update((s) => ({ names: [...s.names, name] }));
            const happy = await conv.confirm(`Thanks ${name}. Happy with us? (yes/no)`);
            await conv.say(happy ? 'Glad to hear it.' : 'Sorry to hear it.');
          },
        }),
      );
    },
  });
}

async function linkStarted(fx: RestFixture): Promise<void> {
  const client = fx.sdk.client('bot');
  const qr = fx.sdk.events.qr('bot') ?? (await new Promise<string>((r) => client.once('qr', r)));
  fx.sdk.simulator.scan(qr, { phone: BOT_PHONE, pushname: 'Bot' });
  await client.waitUntilReady({ timeoutMs: 5_000 });
}

function problemCode(res: TestResponse): string | undefined {
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  return (res.json as { code?: string }).code;
}

interface Info {
  id: string;
  name: string;
  client: string;
  chatId: string;
  member: string;
  steps: number;
}

describe('REST: conversations and chat state', function () {
  this.timeout(30_000);
  let fx: RestFixture;
  let sdk: Sdk;
  const granted: { conversations?: SdkConversations } = {};
  const phone = () => fx.sdk.simulator.phone(CONTACT);
  const fromBot = (body: string) => (m: { author: string; body: string }) =>
    m.author === BOT_ID && m.body === body;

  before(async () => {
    fx = await restFixture();
    sdk = fx.sdk;
    sdk.use(surveyPlugin(granted));
    await sdk.start();
    await linkStarted(fx);
  });
  after(async () => {
    await fx?.close();
  });
  afterEach(async () => {
    for (const info of await sdk.conversations.list()) await sdk.conversations.end(info.id);
  });

  async function start(input?: unknown): Promise<Info> {
    const res = await fx.request('POST', '/api/v1/clients/bot/conversations', {
      json: { chatId: CONTACT, name: 'survey', ...(input === undefined ? {} : { input }) },
    });
    expect(res.status, res.text).to.equal(201);
    return res.json as Info;
  }

  it('starts a conversation in a chat (the bot writes first), lists, gets and ends it with a message', async () => {
    const started = await start({ topic: 'delivery' });
    // keyed by the person's one id (their LID), as their answers are
    expect(started).to.deep.include({
      name: 'survey',
      client: 'bot',
      chatId: phone().lid,
      member: '',
    });
    await phone().waitForMessage(fromBot('Survey on delivery: your name?'));

    const listed = await fx.request('GET', '/api/v1/conversations');
    expect(listed.status).to.equal(200);
    expect((listed.json as Info[]).map((c) => c.id)).to.deep.equal([started.id]);
    const byClient = await fx.request('GET', '/api/v1/conversations?client=bot');
    expect((byClient.json as Info[]).map((c) => c.id)).to.deep.equal([started.id]);
    // the plugin's `conversations` service is the same view
    expect((await granted.conversations!.list()).map((c) => c.id)).to.deep.equal([started.id]);

    const one = await fx.request('GET', `/api/v1/conversations/${started.id}`);
    expect(one.status).to.equal(200);
    expect(one.json).to.deep.include({ id: started.id, name: 'survey', chatId: started.chatId });

    const again = await fx.request('POST', '/api/v1/clients/bot/conversations', {
      json: { chatId: CONTACT, name: 'survey' },
    });
    expect(again.status).to.equal(409);
    expect(problemCode(again)).to.equal('CONVERSATION_ACTIVE');

    const ended = await fx.request('DELETE', `/api/v1/conversations/${started.id}`, {
      json: { message: 'Closed by support.' },
    });
    expect(ended.status, ended.text).to.equal(204);
    expect(ended.text).to.equal('');
    await phone().waitForMessage(fromBot('Closed by support.'));
    const gone = await fx.request('GET', `/api/v1/conversations/${started.id}`);
    expect(gone.status).to.equal(404);
    expect(problemCode(gone)).to.equal('CONVERSATION_NOT_FOUND');
    expect((await fx.request('GET', '/api/v1/conversations')).json).to.deep.equal([]);
    const twice = await fx.request('DELETE', `/api/v1/conversations/${started.id}`);
    expect(twice.status).to.equal(404);
  });

  it('ends a conversation without a body: nothing more is sent', async () => {
    const started = await start();
    await phone().waitForMessage(fromBot('Survey on us: your name?'));
    const before = phone().inbox.length;
    const ended = await fx.request('DELETE', `/api/v1/conversations/${started.id}`);
    expect(ended.status, ended.text).to.equal(204);
    expect(await sdk.conversations.list()).to.deep.equal([]);
    await sdk.plugins.idle();
    expect(phone().inbox.length).to.equal(before);
  });

  it('the person answers the conversation REST started; its chat state is read, then erased', async () => {
    const started = await start({ topic: 'support' });
    await phone().waitForMessage(fromBot('Survey on support: your name?'));
    await phone().send(BOT_ID, 'Alice');
    await phone().waitForMessage(fromBot('Thanks Alice. Happy with us? (yes/no)'));
    const info = await fx.request('GET', `/api/v1/conversations/${started.id}`);
    expect((info.json as Info).steps).to.be.greaterThan(started.steps);

    const path = `/api/v1/clients/bot/chats/${CONTACT}/state`;
    const state = await fx.request('GET', path);
    expect(state.status, state.text).to.equal(200);
    const { values } = state.json as { values: { value: unknown; updatedAt: string }[] };
    expect(values.map((v) => v.value)).to.deep.equal([{ names: ['Alice'] }]);
    expect(Number.isNaN(Date.parse(values[0].updatedAt))).to.equal(false);
    // one state per person: by LID as by phone number
    const byLid = await fx.request('GET', `/api/v1/clients/bot/chats/${phone().lid}/state`);
    expect(byLid.json).to.deep.equal(state.json);

    await phone().send(BOT_ID, 'yes');
    await phone().waitForMessage(fromBot('Glad to hear it.'));
    await sdk.plugins.idle(); // the answer's handling, to the conversation's end
    expect(await sdk.conversations.list()).to.deep.equal([]);

    const erased = await fx.request('DELETE', path);
    expect(erased.status, erased.text).to.equal(200);
    expect(erased.json).to.deep.equal({ erased: 1 });
    expect((await fx.request('GET', path)).json).to.deep.equal({ values: [] });
    expect((await fx.request('DELETE', path)).json).to.deep.equal({ erased: 0 });
  });

  it("a token sees only its clients' conversations: others are 404, a named client 403", async () => {
    const started = await start();
    const scoped = { token: SCOPED_TOKEN };
    expect((await fx.request('GET', '/api/v1/conversations', scoped)).json).to.deep.equal([]);
    const named = await fx.request('GET', '/api/v1/conversations?client=bot', scoped);
    expect(named.status).to.equal(403);
    const one = await fx.request('GET', `/api/v1/conversations/${started.id}`, scoped);
    expect(one.status).to.equal(404);
    expect(problemCode(one)).to.equal('CONVERSATION_NOT_FOUND');
    const end = await fx.request('DELETE', `/api/v1/conversations/${started.id}`, scoped);
    expect(end.status).to.equal(404);
    expect((await sdk.conversations.list()).map((c) => c.id)).to.deep.equal([started.id]);
    const startOther = await fx.request('POST', '/api/v1/clients/bot/conversations', {
      ...scoped,
      json: { chatId: CONTACT, name: 'survey' },
    });
    expect(startOther.status).to.equal(403);
    const state = await fx.request('GET', `/api/v1/clients/bot/chats/${CONTACT}/state`, scoped);
    expect(state.status).to.equal(403);
    const erase = await fx.request('DELETE', `/api/v1/clients/bot/chats/${CONTACT}/state`, scoped);
    expect(erase.status).to.equal(403);
  });

  it('401 without a token; 404 for an unknown conversation, name or client; 400 for a bad chat', async () => {
    const anonymous = { token: null };
    for (const [method, path] of [
      ['GET', '/api/v1/conversations'],
      ['GET', '/api/v1/conversations/some-id'],
      ['DELETE', '/api/v1/conversations/some-id'],
      ['POST', '/api/v1/clients/bot/conversations'],
      ['GET', `/api/v1/clients/bot/chats/${CONTACT}/state`],
      ['DELETE', `/api/v1/clients/bot/chats/${CONTACT}/state`],
    ] as const) {
      const res = await fx.request(method, path, anonymous);
      expect(res.status, `${method} ${path}`).to.equal(401);
    }
    const unknownId = await fx.request('GET', '/api/v1/conversations/no-such-conversation');
    expect(problemCode(unknownId)).to.equal('CONVERSATION_NOT_FOUND');
    const unknownName = await fx.request('POST', '/api/v1/clients/bot/conversations', {
      json: { chatId: CONTACT, name: 'no-such-dialog' },
    });
    expect(unknownName.status).to.equal(404);
    expect(problemCode(unknownName)).to.equal('CONVERSATION_UNKNOWN');
    const unknownClient = await fx.request('POST', '/api/v1/clients/nobody/conversations', {
      json: { chatId: CONTACT, name: 'survey' },
    });
    expect(unknownClient.status).to.equal(404);
    expect(problemCode(unknownClient)).to.equal('CLIENT_NOT_FOUND');
    const listUnknown = await fx.request('GET', '/api/v1/conversations?client=nobody');
    expect(problemCode(listUnknown)).to.equal('CLIENT_NOT_FOUND');
    const badChat = await fx.request('POST', '/api/v1/clients/bot/conversations', {
      json: { chatId: 'status@broadcast', name: 'survey' },
    });
    expect(badChat.status).to.equal(400);
    const badBody = await fx.request('DELETE', '/api/v1/conversations/some-id', {
      json: { message: 'bye', extra: true },
    });
    expect(badBody.status).to.equal(400);
    expect(await sdk.conversations.list()).to.deep.equal([]);
  });
});
