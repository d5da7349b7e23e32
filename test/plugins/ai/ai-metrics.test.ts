// The ai plugin's counters in the REST plugin's /metrics (the `metrics` privilege): turns by
// outcome (answered, budget refusal, failure, timeout, handoff), tokens, model and tool calls, and
// the turn time, with the client as the only label (no chat, no text).
import { expect } from 'chai';
import net, { type AddressInfo } from 'node:net';
import { createAiPlugin } from '../../../plugins/ai/index.js';
import restPlugin from '../../../plugins/rest/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { ADMIN_TOKEN } from '../../helpers/rest-harness.js';
import { ALICE, BOB, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel } from './fake-model.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `name{labels} value` lines of the exposition, as a map. */
function samples(text: string, prefix: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('ai plugin: counters in /metrics', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  it('counts turns by outcome, tokens, calls and time after turns', async () => {
    model = await fakeModel([
      { text: 'Hi!', tokens: 30 },
      { tools: [{ name: 'handoff', args: { reason: 'asks for a person' } }], tokens: 12 },
      { status: 500 },
      { hang: true },
    ]);
    const port = await freePort();
    fx = await pluginFixture();
    fx.sdk.use(restPlugin, { port, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] });
    fx.sdk.use(createAiPlugin(), {
      baseURL: model.baseURL,
      model: 'fake-model',
      chatTokensPerDay: 35,
      turnDeadlineMs: 1_000,
    });
    await fx.start();
    const scrape = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.status).to.equal(200);
      return res.text();
    };
    expect(await scrape()).not.to.include('wakit_ai_turns_total{');

    const alice = testChat(fx.sdk, ALICE);
    await alice.send('hello');
    await alice.expectReply('Hi!');
    await alice.send('a person please'); // 30 tokens < 35: the model hands off
    await alice.expectReply(/passing you to a person/);
    const bob = testChat(fx.sdk, BOB);
    await bob.send('hi');
    await bob.expectReply(/cannot answer right now/);
    await fx.sdk.chats.setMode('bot', `${ALICE}@c.us`, 'bot');
    await alice.send('again'); // 42 tokens today: over the chat budget, no call
    await alice.expectReply(/answered a lot today/);
    await alice.expectNoReply();
    const carol = testChat(fx.sdk, '15550003333');
    await carol.send('hello?'); // the model hangs: the deadline
    await carol.expectReply(/cannot answer right now/);

    const text = await scrape();
    const turns = samples(text, 'wakit_ai_turns_total');
    expect(Object.fromEntries(turns)).to.deep.equal({
      'wakit_ai_turns_total{client="bot",outcome="answered"}': 1,
      'wakit_ai_turns_total{client="bot",outcome="handoff"}': 1,
      'wakit_ai_turns_total{client="bot",outcome="failed"}': 1,
      'wakit_ai_turns_total{client="bot",outcome="budget"}': 1,
      'wakit_ai_turns_total{client="bot",outcome="timeout"}': 1,
    });
    expect(
      samples(text, 'wakit_ai_tokens_total').get('wakit_ai_tokens_total{client="bot"}'),
    ).to.equal(42);
    expect(
      samples(text, 'wakit_ai_model_calls_total').get('wakit_ai_model_calls_total{client="bot"}'),
    ).to.equal(2);
    expect(
      samples(text, 'wakit_ai_tool_calls_total').get('wakit_ai_tool_calls_total{client="bot"}'),
    ).to.equal(1);
    const seconds = samples(text, 'wakit_ai_turn_seconds');
    expect(seconds.get('wakit_ai_turn_seconds_count{client="bot"}')).to.equal(5);
    expect(seconds.get('wakit_ai_turn_seconds_bucket{client="bot",le="+Inf"}')).to.equal(5);
    // the timed-out turn took the deadline (1 s): not in the 0.5 s bucket, in the 1 s one
    expect(seconds.get('wakit_ai_turn_seconds_bucket{client="bot",le="0.5"}')).to.equal(4);
    expect(text).to.include('# TYPE wakit_ai_turn_seconds histogram');
    expect(text).not.to.match(/hello|a person please/);
  });
});
