// The reference dialog of issue 39: a person talks to the model, the model hands the chat to a
// person, the person (the account's phone) answers while the bot is silent, gives the chat back
// with `!bot`, and the model answers again with the whole exchange in its memory. Prints the
// transcript. The model is a local OpenAI-compatible server (fake-model.ts).
import { expect } from 'chai';
import { createAiPlugin } from '../../../plugins/ai/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { ALICE, ALICE_ID, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel } from './fake-model.js';

describe('ai plugin: person ↔ model ↔ handoff ↔ person (the reference dialog)', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  it('the model answers, hands off, stays silent while a person answers, then answers again with the memory', async () => {
    model = await fakeModel([
      { text: 'Our croissants are 2.50 each. How many would you like?' },
      { tools: [{ name: 'handoff', args: { reason: 'a complaint about an order' } }] },
      { text: 'Glad it is sorted, Alice! Six croissants at 2.50 make 15.00.' },
    ]);
    fx = await pluginFixture({ handoff: { auto: true } });
    fx.sdk.use(createAiPlugin(), {
      baseURL: model.baseURL,
      model: 'fake-model',
      systemPrompt: 'You are the bakery.',
    });
    await fx.start();
    const alice = testChat(fx.sdk, ALICE);
    const transcript: string[] = [];
    const person = async (text: string) => {
      transcript.push(`person:   ${text}`);
      await alice.send(text);
    };
    const bot = async (expected: string) => {
      const reply = await alice.expectReply(expected);
      transcript.push(`bot:      ${reply.body}`);
    };
    const mode = async () => (await fx.sdk.chats.mode('bot', ALICE_ID)).mode;

    await person('How much is a croissant?');
    await bot('Our croissants are 2.50 each. How many would you like?');
    await person('Yesterday my order was wrong, I want to talk to someone.');
    await bot('I am passing you to a person, who will answer here.');
    expect(await mode()).to.equal('human');
    transcript.push('          [chat: human, reason "a complaint about an order"]');
    transcript.push('operator: Hi Alice, Sam here. Sorry about that, it is refunded.');
    await alice.fromPhone('Hi Alice, Sam here. Sorry about that, it is refunded.');
    await person('Thank you Sam!');
    await alice.expectNoReply();
    transcript.push('          [the bot is silent: no model call]');
    await alice.fromPhone('!bot');
    transcript.push('operator: !bot');
    await fx.sdk.plugins.idle();
    expect(await mode()).to.equal('bot');
    transcript.push('          [chat: bot]');
    await person('Then six croissants please. What do I owe?');
    await bot('Glad it is sorted, Alice! Six croissants at 2.50 make 15.00.');

    expect(model.requests).to.have.length(3);
    const last = model.requests[2].messages.map(
      (m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`,
    );
    expect(last).to.deep.equal([
      'system: You are the bakery.',
      'user: How much is a croissant?',
      'assistant: Our croissants are 2.50 each. How many would you like?',
      'user: Yesterday my order was wrong, I want to talk to someone.',
      'assistant: I am passing you to a person, who will answer here.',
      'user: Then six croissants please. What do I owe?',
    ]);
    console.log(transcript.map((line) => `      ${line}`).join('\n'));
  });
});
