// The ai plugin against a local OpenAI-compatible server (test/plugins/ai/fake-model.ts): answers,
// memory, silence in human chats, fallback on failure and timeout, budgets, the handoff tool, a
// bot's own tool, the order of commands before it. No test reaches the internet.
import { expect } from 'chai';
import { createAiPlugin, defineAiTool, type AiOptionsInput } from '../../../plugins/ai/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { definePlugin, z } from '../../../src/index.js';
import type { AiTool } from '../../../plugins/ai/index.js';
import {
  ALICE,
  ALICE_ID,
  eventually,
  pluginFixture,
  type PluginFixture,
} from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel, type Step } from './fake-model.js';

const asText = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content);

describe('ai plugin (local fake model)', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  async function start(
    script: Step[],
    options: Partial<AiOptionsInput> = {},
    setup: { tools?: AiTool[]; before?: (fx: PluginFixture) => void } = {},
  ) {
    model = await fakeModel(script);
    fx = await pluginFixture();
    setup.before?.(fx);
    fx.sdk.use(createAiPlugin({ tools: setup.tools ?? [] }), {
      baseURL: model.baseURL,
      model: 'fake-model',
      apiKey: 'test-key',
      systemPrompt: 'Be brief.',
      ...options,
    });
    await fx.start();
    return testChat(fx.sdk, ALICE);
  }

  const userTexts = (i: number) =>
    (model.requests[i]?.messages ?? []).map((m) => `${m.role}: ${asText(m.content)}`);

  it('answers a message, and the next call carries the previous turn', async () => {
    const alice = await start([{ text: 'Hi Alice!' }, { text: 'You said hello.' }]);
    await alice.send('hello');
    await alice.expectReply('Hi Alice!');
    await alice.send('what did I say?');
    await alice.expectReply('You said hello.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(2);
    expect(model.requests[0]?.model).to.equal('fake-model');
    expect(userTexts(0)).to.deep.equal(['system: Be brief.', 'user: hello']);
    expect(userTexts(1)).to.deep.equal([
      'system: Be brief.',
      'user: hello',
      'assistant: Hi Alice!',
      'user: what did I say?',
    ]);
  });

  it('keeps at most maxTurnsInMemory turns, and the operator erases them', async () => {
    const alice = await start([{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'a4' }], {
      maxTurnsInMemory: 1,
    });
    for (const [say, answer] of [
      ['q1', 'a1'],
      ['q2', 'a2'],
      ['q3', 'a3'],
    ]) {
      await alice.send(say);
      await alice.expectReply(answer);
    }
    expect(userTexts(2)).to.deep.equal([
      'system: Be brief.',
      'user: q2',
      'assistant: a2',
      'user: q3',
    ]);
    await alice.expectNoReply(); // the turn's memory is written after its answer went out
    expect(await fx.sdk.conversations.eraseState('bot', ALICE_ID)).to.be.greaterThan(0);
    await alice.send('q4');
    await alice.expectReply('a4');
    expect(userTexts(3)).to.deep.equal(['system: Be brief.', 'user: q4']);
  });

  it('says nothing in a chat in human mode, and calls no model', async () => {
    const alice = await start([{ text: 'never sent' }]);
    await fx.sdk.chats.setMode('bot', ALICE_ID, 'human');
    await alice.send('hello?');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(0);
  });

  it('a chat taken by a person while the model thinks gets no answer', async () => {
    let release = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const alice = await start([{ text: 'too late', hold }]);
    await alice.send('hello');
    await eventually(() => model.requests.length === 1);
    await fx.sdk.chats.setMode('bot', ALICE_ID, 'human');
    release();
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
  });

  it('a failing model gets the fallback message, once, and the error is reported', async () => {
    const alice = await start([{ status: 500 }]);
    await alice.send('hello');
    await alice.expectReply('Sorry, I cannot answer right now. Please try again in a moment.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
    expect(fx.errors.map((e) => e.error.code)).to.deep.equal(['INTERNAL']);
    expect(alice.replies.map((m) => m.body).join()).not.to.match(/Error|at /);
  });

  it('a model that does not answer in time: fallback at the deadline, one message', async () => {
    const alice = await start([{ hang: true }], {
      turnDeadlineMs: 200,
      fallbackMessage: 'Too slow, sorry.',
    });
    await alice.send('hello');
    await alice.expectReply('Too slow, sorry.');
    await alice.expectNoReply();
    expect(fx.errors.map((e) => e.error.code)).to.deep.equal(['TIMEOUT']);
  });

  it('a chat over its token budget gets the budget message and no model call', async () => {
    const alice = await start([{ text: 'first', tokens: 120 }, { text: 'never' }], {
      chatTokensPerDay: 100,
      budgetMessage: 'Budget used up.',
    });
    await alice.send('one');
    await alice.expectReply('first');
    await alice.send('two');
    await alice.expectReply('Budget used up.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
    const [state] = await fx.sdk.conversations.readState('bot', ALICE_ID);
    expect((state?.value as { ai: { tokens: number } }).ai.tokens).to.equal(120);
  });

  it('the client budget stops every chat of the client', async () => {
    const alice = await start([{ text: 'first', tokens: 50 }], { clientTokensPerDay: 40 });
    await alice.send('one');
    await alice.expectReply('first');
    const bob = testChat(fx.sdk, '15550002222');
    await bob.send('hi');
    await bob.expectReply(/^I have answered a lot today/);
    expect(model.requests).to.have.length(1);
  });

  it('the handoff tool gives the chat to a person, with the reason kept; then silence', async () => {
    const alice = await start([
      { tools: [{ name: 'handoff', args: { reason: 'asks for a refund' } }] },
      { text: 'never' },
    ]);
    await alice.send('I want my money back');
    await alice.expectReply('I am passing you to a person, who will answer here.');
    await alice.expectNoReply();
    // the reason is the mode's: REST, the dashboard and the chat.mode event show it
    expect(await fx.sdk.chats.mode('bot', ALICE_ID)).to.deep.include({
      mode: 'human',
      reason: 'asks for a refund',
    });
    const [state] = await fx.sdk.conversations.readState('bot', ALICE_ID);
    expect((state?.value as { ai: { handoff: { reason: string } } }).ai.handoff.reason).to.equal(
      'asks for a refund',
    );
    await alice.send('hello?');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
    const offered = model.requests[0]?.tools?.map((t) => t.type === 'function' && t.function.name);
    expect(offered).to.deep.equal(['handoff']);
  });

  it("runs a bot's own tool, sends its result back, and bounds the tool rounds", async () => {
    const calls: unknown[] = [];
    const lookup = defineAiTool({
      name: 'order_status',
      description: 'Status of an order',
      parameters: z.object({ order: z.number().int() }),
      run: ({ order }) => {
        calls.push(order);
        return { order, status: 'shipped' };
      },
    });
    const alice = await start(
      [
        { tools: [{ name: 'order_status', args: { order: 42 } }] },
        { tools: [{ name: 'order_status', args: { order: 'x' } }] },
        { text: 'Order 42 has shipped.' },
      ],
      { maxToolRounds: 2 },
      { tools: [lookup] },
    );
    await alice.send('where is order 42?');
    await alice.expectReply('Order 42 has shipped.');
    expect(calls).to.deep.equal([42]);
    expect(model.requests).to.have.length(3);
    const second = model.requests[1]?.messages ?? [];
    expect(second.at(-1)).to.deep.include({
      role: 'tool',
      content: '{"order":42,"status":"shipped"}',
    });
    const third = model.requests[2];
    expect(asText(third?.messages.at(-1)?.content)).to.match(/^error: invalid arguments/);
    expect(third?.tools, 'the call after the last round offers no tools').to.equal(undefined);
  });

  it('sends at most maxMessagesPerTurn messages: the rest is joined into the last', async () => {
    const alice = await start(
      [
        { text: 'Let me check.', tools: [{ name: 'handoff_not_here', args: {} }] },
        { text: 'Done: nothing found.' },
      ],
      { maxMessagesPerTurn: 1 },
    );
    await alice.send('check please');
    await alice.expectReply('Let me check.\n\nDone: nothing found.');
    await alice.expectNoReply();
    expect(asText(model.requests[1]?.messages.at(-1)?.content)).to.equal(
      'error: no tool named handoff_not_here',
    );
  });

  it('commands claim their messages before it; media without text gets the polite answer', async () => {
    const alice = await start(
      [{ text: 'never' }],
      {},
      {
        before: (f) =>
          f.sdk.use(
            definePlugin({
              name: 'pinger',
              setup(ctx) {
                ctx.command('ping', (cmd) => cmd.reply('pong'));
              },
            }),
          ),
      },
    );
    await alice.send('!ping');
    await alice.expectReply('pong');
    await alice.send({
      type: 'image',
      data: Buffer.from('x').toString('base64'),
      mimetype: 'image/png',
    });
    await alice.expectReply('Sorry, I can only read text messages for now.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(0);
  });
});
