// Chat modes over REST (docs/handoff.md): read and set a chat's mode under /api/v1/chats/{chatId},
// list them; through real HTTP on loopback, every exchange checked against the served OpenAPI
// document (rest-harness.ts), behind the token, the token's client scopes applied.
import { expect } from 'chai';
import { definePlugin, type Sdk } from '../../../src/index.js';
import {
  BOT_ID,
  CONTACT,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

/** Answers every message with "echo: <text>" (what a mode gates). */
const echo = definePlugin({
  name: 'echo',
  setup(ctx) {
    ctx.on('message', async ({ message }) => {
      await message.reply(`echo: ${message.body}`);
    });
  },
});

function problemCode(res: TestResponse): string | undefined {
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  return (res.json as { code?: string }).code;
}

describe('REST: chat modes', function () {
  this.timeout(30_000);
  let fx: RestFixture;
  let sdk: Sdk;
  const phone = () => fx.sdk.simulator.phone(CONTACT);
  const echoed = (body: string) => (m: { author: string; body: string }) =>
    m.author === BOT_ID && m.body === `echo: ${body}`;

  before(async () => {
    fx = await restFixture({ clients: ['bot', 'other'] });
    sdk = fx.sdk;
    sdk.use(echo);
    await sdk.start();
    await fx.link('bot');
  });
  after(async () => fx?.close());

  it('reads bot for a chat never switched, with no conversation ever started', async () => {
    const res = await fx.request('GET', `/api/v1/chats/${CONTACT}/mode?client=bot`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ client: 'bot', chatId: `${phone().lid}`, mode: 'bot' });
  });

  it('sets human, then closed, then bot: the bot is silent outside bot; list and counts follow', async () => {
    const modes: string[] = [];
    const stop = sdk.events.observe('chat.mode', ({ args: [change] }) =>
      modes.push(`${change.previous}→${change.mode}`),
    );
    const reasons: (string | undefined)[] = [];
    const stopReasons = sdk.events.observe('chat.mode', ({ args: [change] }) =>
      reasons.push(change.reason),
    );
    const human = await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode`, {
      json: { mode: 'human', reason: 'wants to speak to the owner' },
    });
    expect(human.status, human.text).to.equal(200);
    expect(human.json).to.deep.include({
      client: 'bot',
      chatId: phone().lid,
      mode: 'human',
      reason: 'wants to speak to the owner',
    });
    const read = await fx.request('GET', `/api/v1/chats/${phone().lid}/mode`);
    expect(read.json).to.deep.include({ mode: 'human', reason: 'wants to speak to the owner' });

    await phone().send(BOT_ID, 'are you there?');
    const closed = await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode?client=bot`, {
      json: { mode: 'closed' },
    });
    expect((closed.json as { mode: string }).mode).to.equal('closed');
    // a mode set without a reason keeps none of the one before
    expect(closed.json).to.not.have.property('reason');
    expect(reasons).to.deep.equal(['wants to speak to the owner', undefined]);
    stopReasons();
    await phone().send(BOT_ID, 'hello?');

    const list = await fx.request('GET', '/api/v1/chat-modes');
    expect(list.status).to.equal(200);
    expect(list.json).to.deep.include({ counts: { bot: 0, human: 0, closed: 1 } });

    await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode`, { json: { mode: 'bot' } });
    await phone().send(BOT_ID, 'now?');
    await phone().waitForMessage(echoed('now?'));
    await sdk.plugins.idle();
    // nothing was answered while the chat was human or closed
    const answers = phone()
      .inbox.filter((m) => m.author === BOT_ID)
      .map((m) => m.body);
    expect(answers).to.deep.equal(['echo: now?']);
    expect(modes).to.deep.equal(['bot→human', 'human→closed', 'closed→bot']);
    stop();
    const after = await fx.request('GET', '/api/v1/chat-modes?client=bot');
    expect(after.json).to.deep.include({ counts: { bot: 1, human: 0, closed: 0 } });
    const metrics = (await fx.request('GET', '/metrics')).text;
    expect(metrics).to.include('wakit_chats_by_mode{client="bot",mode="bot"} 1');
    for (const mode of ['bot', 'human', 'closed']) {
      expect(metrics).to.include(`wakit_chat_mode_switches_total{mode="${mode}"} 1`);
    }
  });

  it('refuses a bad mode, a bad chat id, no token, another client and an unknown client', async () => {
    const bad = await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode`, {
      json: { mode: 'asleep' },
    });
    expect(bad.status).to.equal(400);
    expect(problemCode(bad)).to.equal('VALIDATION_FAILED');
    const longReason = await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode`, {
      json: { mode: 'human', reason: 'x'.repeat(501) },
    });
    expect(longReason.status).to.equal(400);
    expect(problemCode(longReason)).to.equal('VALIDATION_FAILED');
    const badChat = await fx.request('GET', '/api/v1/chats/not-a-chat/mode');
    expect(badChat.status).to.equal(400);
    const anonymous = await fx.request('GET', `/api/v1/chats/${CONTACT}/mode`, { token: null });
    expect(anonymous.status).to.equal(401);
    const scoped = await fx.request('PUT', `/api/v1/chats/${CONTACT}/mode?client=bot`, {
      token: SCOPED_TOKEN,
      json: { mode: 'closed' },
    });
    expect(scoped.status).to.equal(403);
    expect(problemCode(scoped)).to.equal('FORBIDDEN');
    const scopedList = await fx.request('GET', '/api/v1/chat-modes', { token: SCOPED_TOKEN });
    expect((scopedList.json as { chats: unknown[] }).chats).to.deep.equal([]);
    const unknown = await fx.request('GET', `/api/v1/chats/${CONTACT}/mode?client=nobody`);
    expect(unknown.status).to.equal(404);
    expect(problemCode(unknown)).to.equal('CLIENT_NOT_FOUND');
    expect((await sdk.chats.mode('bot', CONTACT)).mode).to.equal('bot');
  });
});
