// The ai plugin as a bot author turns it on: by its built-in name in the config, with turns (a
// burst is one model call), and its memory kept across a restart (the chat state's SQLite file).
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestSdk } from '../../../src/index.js';
import { testChat, VirtualClock } from '../../../src/entries/testing.js';
import { linkedClient, simulatorSdk, tempDir } from '../../helpers/sdk-fixtures.js';
import { ALICE, pluginFixture, type PluginFixture } from '../plugin-helpers.js';
import { cleanUp, fakeModel, type FakeModel } from './fake-model.js';

describe('ai plugin: by name in the config', function () {
  this.timeout(15_000);
  let fx: PluginFixture;
  let model: FakeModel;
  afterEach(() => cleanUp(fx, model));

  const aiConfig = () => ({
    ai: { baseURL: model.baseURL, model: 'fake-model', apiKey: 'k', systemPrompt: 'S' },
  });

  it('answers a burst once, as one turn (conversations.turns, virtual clock)', async () => {
    model = await fakeModel([{ text: 'One answer.' }, { text: 'never' }]);
    const { dir } = await tempDir();
    const file = path.join(dir, 'bot.config.json');
    await writeFile(
      file,
      JSON.stringify({
        engine: { type: 'whatsapp-web.js' },
        auth: { type: 'local' },
        clients: ['bot'],
        conversations: { turns: { quietMs: 3_000, maxMs: 15_000 } },
        plugins: aiConfig(),
      }),
    );
    const clock = new VirtualClock();
    const sdk = await createTestSdk(file, { phone: '15550000001', clock });
    try {
      await sdk.start();
      await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
      const alice = testChat(sdk, ALICE, { clock });
      await alice.send('hi');
      await alice.advance(1_000);
      await alice.send('I have a question');
      await alice.advance(1_000);
      await alice.send('about my order');
      await alice.expectNoReply(); // the window is open: nothing yet, no model call
      expect(model.requests).to.have.length(0);
      await alice.advance(3_000);
      await alice.expectReply('One answer.');
      await alice.expectNoReply();
      expect(model.requests).to.have.length(1);
      expect(model.requests[0]?.messages.at(-1)).to.deep.equal({
        role: 'user',
        content: 'hi\nI have a question\nabout my order',
      });
    } finally {
      await sdk.stop();
    }
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
