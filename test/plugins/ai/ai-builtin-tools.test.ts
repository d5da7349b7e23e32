// The ai plugin's built-in tools against the local fake model: schedule_message (a scheduled send
// to the chat: listed, then sent when the virtual clock reaches it; past and too-far times refused
// to the model; a cap per turn), start_conversation (the next message goes to the conversation),
// look_up_chat, and that none is offered unless the config turns it on.
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestSdk, defineConversation, definePlugin, type Sdk } from '../../../src/index.js';
import { testChat, VirtualClock } from '../../../src/entries/testing.js';
import { tempDir } from '../../helpers/sdk-fixtures.js';
import { ALICE } from '../plugin-helpers.js';
import { createAiPlugin } from '../../../plugins/ai/index.js';
import { fakeModel, type FakeModel, type Step } from './fake-model.js';

const NOW = Date.UTC(2026, 0, 1, 9, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const asText = (content: unknown) =>
  typeof content === 'string' ? content : JSON.stringify(content);

describe('ai plugin: built-in tools (local fake model, virtual clock)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  let model: FakeModel | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await sdk?.stop();
    sdk = undefined;
    await model?.close();
    await cleanup?.();
  });

  async function start(script: Step[], tools: Record<string, unknown>) {
    model = await fakeModel(script);
    const temp = await tempDir('wakit-ai-tools-');
    cleanup = temp.cleanup;
    const file = path.join(temp.dir, 'bot.config.json');
    await writeFile(
      file,
      JSON.stringify({
        engine: { type: 'whatsapp-web.js' },
        auth: { type: 'local' },
        clients: ['bot'],
      }),
    );
    const clock = new VirtualClock(NOW);
    sdk = await createTestSdk(file, { phone: '15550000001', clock });
    // from code, not by name in the config: under mocha a plugin the config loads gets its own copy
    // of wakit's modules, and a send it prepares is not one the client recognises (a test artefact)
    sdk.use(
      definePlugin({
        name: 'shop',
        setup(ctx) {
          ctx.conversations.define(
            defineConversation({
              name: 'booking',
              async run(conv) {
                const day = await conv.text('Which day would you like?');
                await conv.say(`Booked for ${day}.`);
              },
            }),
          );
        },
      }),
    );
    sdk.use(createAiPlugin(), {
      baseURL: model.baseURL,
      model: 'fake-model',
      systemPrompt: 'S',
      tools,
    });
    await sdk.start();
    await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    return { alice: testChat(sdk, ALICE, { clock }), clock, sdk };
  }

  const offered = (i: number) =>
    (model?.requests[i]?.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : ''));
  const toolResult = (i: number) => {
    const last = model?.requests[i]?.messages.at(-1);
    return last?.role === 'tool' ? asText(last.content) : undefined;
  };

  it('schedule_message: the send is scheduled (listed), then sent when the clock reaches it', async () => {
    const at = NOW + 2 * HOUR;
    const { alice, clock, sdk } = await start(
      [
        {
          tools: [
            { name: 'schedule_message', args: { text: 'Reminder: dentist', sendAt: iso(at) } },
          ],
        },
        { text: 'I will remind you at 11:00.' },
      ],
      { schedule: { policy: 'allow' } },
    );
    await alice.send('remind me of the dentist at 11');
    await alice.expectReply('I will remind you at 11:00.');
    await alice.expectNoReply();
    expect(offered(0)).to.deep.equal(['handoff', 'schedule_message']);
    const result = JSON.parse(toolResult(1) ?? '{}') as { scheduled: boolean; id: string };
    expect(result.scheduled).to.equal(true);
    const page = await sdk.sends.list({ status: 'scheduled', limit: 10 });
    expect(page.items.map((s) => [s.id, s.chatId, s.sendAt])).to.deep.equal([
      [result.id, `${ALICE}@c.us`, iso(at)],
    ]);
    await clock.advance(2 * HOUR - 60_000);
    await alice.expectNoReply();
    await clock.advance(60_000);
    await alice.expectReply('Reminder: dentist');
    await alice.expectNoReply();
    expect((await sdk.sends.list({ status: 'scheduled', limit: 10 })).items).to.have.length(0);
  });

  it('schedule_message refuses a past time, a time too far ahead, and more than maxPerTurn', async () => {
    const { alice, sdk } = await start(
      [
        {
          tools: [
            { name: 'schedule_message', args: { text: 'past', sendAt: iso(NOW - HOUR) } },
            { name: 'schedule_message', args: { text: 'far', sendAt: iso(NOW + 3 * HOUR) } },
            { name: 'schedule_message', args: { text: 'ok', sendAt: iso(NOW + HOUR) } },
            { name: 'schedule_message', args: { text: 'extra', sendAt: iso(NOW + HOUR) } },
          ],
        },
        { text: 'Done.' },
      ],
      { schedule: { policy: 'allow', maxPerTurn: 1, maxAheadMs: 2 * HOUR } },
    );
    await alice.send('schedule things');
    await alice.expectReply('Done.');
    const results = (model?.requests[1]?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => asText(m.content));
    expect(results).to.have.length(4);
    expect(results[0]).to.match(/^refused: .* is not in the future \(now is 2026-01-01T09:00/);
    expect(results[1]).to.match(/^refused: .* is too far ahead/);
    expect(results[2]).to.match(/"scheduled":true/);
    expect(results[3]).to.match(/^refused: at most 1 scheduled message/);
    const page = await sdk.sends.list({ status: 'scheduled', limit: 10 });
    expect(page.items).to.have.length(1);
  });

  it('start_conversation: the conversation starts, the model says nothing more, the next message goes to it', async () => {
    const { alice } = await start(
      [{ tools: [{ name: 'start_conversation', args: { name: 'booking' } }] }, { text: 'never' }],
      {
        startConversation: {
          policy: 'allow',
          conversations: [{ name: 'booking', description: 'books a table' }],
        },
      },
    );
    await alice.send('I want to book a table');
    await alice.expectReply('Which day would you like?');
    await alice.expectNoReply();
    expect(model?.requests).to.have.length(1);
    const tool = model?.requests[0]?.tools?.find(
      (t) => t.type === 'function' && t.function.name === 'start_conversation',
    );
    expect(JSON.stringify(tool)).to.include('"enum":["booking"]');
    await alice.send('Friday');
    await alice.expectReply('Booked for Friday.');
    await alice.expectNoReply();
    expect(model?.requests).to.have.length(1);
  });

  it('look_up_chat tells the mode, whether a group, the names and the time', async () => {
    const { alice } = await start(
      [{ tools: [{ name: 'look_up_chat', args: {} }] }, { text: 'Hi!' }],
      { lookUpChat: true },
    );
    await alice.send('hello');
    await alice.expectReply('Hi!');
    const found = JSON.parse(toolResult(1) ?? '{}') as Record<string, unknown>;
    expect(found).to.include({ isGroup: false, mode: 'bot', now: iso(NOW) });
    expect(offered(0)).to.deep.equal(['handoff', 'look_up_chat']);
  });

  it('offers none of them unless the config turns them on', async () => {
    const { alice } = await start([{ text: 'Hi!' }], {
      startConversation: { conversations: [{ name: 'booking', description: 'books' }] },
    });
    await alice.send('hello');
    await alice.expectReply('Hi!');
    expect(offered(0)).to.deep.equal(['handoff']);
  });
});
