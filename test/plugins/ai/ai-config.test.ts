// The ai plugin as a bot author turns it on: by its built-in name in the config, with turns (a
// burst is one model call), and its memory kept across a restart (the chat state's SQLite file).
import { expect } from 'chai';
import { testChat } from '../../../src/entries/testing.js';
import { linkedClient, simulatorSdk } from '../../helpers/sdk-fixtures.js';
import { ALICE, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { fakeModel, type FakeModel } from './fake-model.js';

describe('ai plugin: by name in the config', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(async () => {
    await fx?.cleanup();
    await model?.close();
  });

  const aiConfig = () => ({
    ai: { baseURL: model.baseURL, model: 'fake-model', apiKey: 'k', systemPrompt: 'S' },
  });

  it('answers a burst once, as one turn (conversations.turns)', async () => {
    model = await fakeModel([{ text: 'One answer.' }, { text: 'never' }]);
    fx = await pluginFixture({
      plugins: aiConfig(),
      conversations: { turns: { quietMs: 150, maxMs: 2_000 } },
    });
    await fx.start();
    const alice = testChat(fx.sdk, ALICE);
    const phone = fx.sdk.simulator.phone(ALICE);
    const bot = fx.sdk.client('bot').info().me?.id ?? '';
    // three lines sent at once: well within the quiet window
    await Promise.all(['hi', 'I have a question', 'about my order'].map((t) => phone.send(bot, t)));
    await alice.expectReply('One answer.');
    await alice.expectNoReply();
    expect(model.requests).to.have.length(1);
    const user = model.requests[0]?.messages.at(-1);
    expect(user?.role).to.equal('user');
    expect(
      (typeof user?.content === 'string' ? user.content : '').split('\n').sort(),
    ).to.deep.equal(['about my order', 'hi', 'I have a question'].sort());
  });

  it('keeps its memory across a restart (same data directory)', async () => {
    model = await fakeModel([{ text: 'Noted: blue.' }, { text: 'Blue.' }]);
    fx = await pluginFixture({ plugins: aiConfig() });
    await fx.start();
    const alice = testChat(fx.sdk, ALICE);
    await alice.send('my colour is blue');
    await alice.expectReply('Noted: blue.');
    await alice.expectNoReply();
    await fx.sdk.stop({ drainTimeoutMs: 1_000 });

    const again = simulatorSdk(fx.dir, { plugins: aiConfig() }, fx.dir);
    try {
      await again.start();
      again.simulator.phone(ALICE, { pushname: 'Alice' });
      await linkedClient(again, 'bot');
      const later = testChat(again, ALICE);
      await later.send('what is my colour?');
      await later.expectReply('Blue.');
      expect(model.requests[1]?.messages.map((m) => m.content)).to.deep.equal([
        'S',
        'my colour is blue',
        'Noted: blue.',
        'what is my colour?',
      ]);
    } finally {
      await again.stop({ drainTimeoutMs: 1_000 });
    }
  });
});
