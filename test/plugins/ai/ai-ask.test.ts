// `ai.ask`: the model as a step inside a conversation, against the local fake model: the answer is
// returned to the conversation (which says it), with the chat's memory; the fallback when the model
// fails; the budget refusal without a call; and the ai plugin's own handler never sees the
// conversation's messages.
import { expect } from 'chai';
import { createAiPlugin, type AiOptionsInput } from '../../../plugins/ai/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { defineConversation, definePlugin, type Sdk } from '../../../src/index.js';
import { linkedClient, simulatorSdk } from '../../helpers/sdk-fixtures.js';
import { ALICE, ALICE_ID, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel, type Step } from './fake-model.js';

describe('ai plugin: ai.ask inside a conversation (local fake model)', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  /** The helpdesk conversation (asks the model once) and the ai plugin, on `sdk`. */
  function install(sdk: Sdk, options: Partial<AiOptionsInput> = {}) {
    const ai = createAiPlugin();
    sdk.use(
      definePlugin({
        name: 'helpdesk',
        setup(ctx) {
          ctx.conversations.define(
            defineConversation({
              name: 'question',
              trigger: { command: 'ask' },
              async run(conv) {
                const question = await conv.text('What is your question?');
                await conv.say(
                  await ai.ask(conv, question, { systemPrompt: 'Answer baking questions.' }),
                );
                const more = await conv.confirm('Anything else?');
                await conv.say(more ? 'Ask away with !ask.' : 'Bye!');
              },
            }),
          );
        },
      }),
    );
    sdk.use(ai, { baseURL: model.baseURL, model: 'fake-model', systemPrompt: 'S', ...options });
  }

  async function start(script: Step[], options: Partial<AiOptionsInput> = {}) {
    model = await fakeModel(script);
    fx = await pluginFixture();
    install(fx.sdk, options);
    await fx.start();
    return testChat(fx.sdk, ALICE);
  }

  it('returns the model answer to the conversation, with the chat memory, and remembers the turn', async () => {
    const alice = await start([{ text: 'About 40 minutes.' }, { text: 'Hello again.' }]);
    await alice.send('!ask');
    await alice.expectReply('What is your question?');
    await alice.send('How long do I bake bread?');
    await alice.expectReply('About 40 minutes.');
    await alice.expectReply('Anything else?');
    await alice.send('no');
    await alice.expectReply('Bye!');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
    expect(model.requests[0]?.messages).to.deep.equal([
      { role: 'system', content: 'Answer baking questions.' },
      { role: 'user', content: 'How long do I bake bread?' },
    ]);
    expect(model.requests[0]?.tools, 'no handoff inside a conversation').to.equal(undefined);
    // outside the conversation the plugin answers, and remembers what was asked inside
    await alice.send('hi');
    await alice.expectReply('Hello again.');
    expect(model.requests[1]?.messages.map((m) => m.content)).to.deep.equal([
      'S',
      'How long do I bake bread?',
      'About 40 minutes.',
      'hi',
    ]);
  });

  it('a failing model: the conversation gets the fallback text and goes on', async () => {
    const alice = await start([{ status: 500 }], { fallbackMessage: 'No answer now, sorry.' });
    await alice.send('!ask');
    await alice.expectReply('What is your question?');
    await alice.send('Why?');
    await alice.expectReply('No answer now, sorry.');
    await alice.expectReply('Anything else?');
    expect(fx.errors.map((e) => e.error.code)).to.deep.equal(['INTERNAL']);
  });

  it('a chat over its budget: the budget message, no model call', async () => {
    const alice = await start([{ text: 'first', tokens: 500 }, { text: 'never' }], {
      chatTokensPerDay: 100,
      budgetMessage: 'Budget used up.',
    });
    await alice.send('hello');
    await alice.expectReply('first');
    await alice.send('!ask');
    await alice.expectReply('What is your question?');
    await alice.send('Why?');
    await alice.expectReply('Budget used up.');
    expect(model.requests).to.have.length(1);
    expect((await fx.sdk.chats.mode('bot', ALICE_ID)).mode).to.equal('bot');
  });

  it('a restart replays the conversation: the journaled answer, no second model call, nothing sent twice', async () => {
    const alice = await start([{ text: 'About 40 minutes.' }, { text: 'never' }]);
    await alice.send('!ask');
    await alice.expectReply('What is your question?');
    await alice.send('How long do I bake bread?');
    await alice.expectReply('About 40 minutes.');
    await alice.expectReply('Anything else?');
    await alice.expectNoReply();
    await fx.sdk.stop({ drainTimeoutMs: 1_000 });

    const again = simulatorSdk(fx.dir, {}, fx.dir);
    try {
      install(again);
      await again.start();
      again.simulator.phone(ALICE, { pushname: 'Alice' });
      await linkedClient(again, 'bot');
      const later = testChat(again, ALICE);
      await later.send('no');
      await later.expectReply('Bye!');
      await later.expectNoReply();
      expect(model.requests, 'the model was asked once').to.have.length(1);
      const said = later.replies.map((m) => m.body);
      expect(said).to.deep.equal(['Bye!']);
    } finally {
      await again.stop({ drainTimeoutMs: 1_000 });
    }
  });

  it('refuses before the plugin is set up', async () => {
    const ai = createAiPlugin();
    const conv = {
      client: 'bot',
      chatId: ALICE_ID,
      external: <T>(fn: () => T) => Promise.resolve(fn()),
    };
    await ai.ask(conv, 'hi').then(
      () => expect.fail('ask before setup must reject'),
      (error: { code?: string }) => expect(error.code).to.equal('INVALID_STATE'),
    );
  });
});
