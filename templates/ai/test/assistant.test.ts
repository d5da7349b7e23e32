// The assistant (plugins/assistant.ts) on the simulator, its model a scripted local server
// (test/fake-model.ts): no phone, no network, no model. A virtual clock closes the turn windows
// (`conversations.turns` in bot.config.json): no sleeps.
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSdk, type Sdk } from 'wakitjs';
import { testChat, VirtualClock } from 'wakitjs/testing';
import { fakeModel, type FakeModel, type Step } from './fake-model.ts';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT = '15550000001';
const QUIET_MS = 3_000; // conversations.turns.quietMs in bot.config.json
let sdk: Sdk | undefined;
let model: FakeModel | undefined;

async function start(script: Step[]) {
  model = await fakeModel(script);
  const clock = new VirtualClock();
  sdk = await createTestSdk(path.join(projectDir, 'bot.config.json'), {
    phone: BOT,
    clock,
    // the same assistant, its endpoint the local fake instead of Ollama or OpenAI
    plugins: { './plugins/assistant.ts': { baseURL: model.baseURL } },
  });
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
  return { sdk, model, clock };
}

afterEach(async () => {
  await sdk?.stop();
  await model?.close();
});

test('a burst is one turn: one model call, one answer', async () => {
  const { sdk, model, clock } = await start([{ text: 'Hello Alice! What would you like?' }]);
  const alice = testChat(sdk, '15550001111', { clock });
  await alice.send('hi');
  await alice.send('I have a question');
  await alice.advance(QUIET_MS);
  await alice.expectReply('Hello Alice! What would you like?');
  assert.equal(model.requests.length, 1);
  const [request] = model.requests;
  assert.equal(request?.model, 'llama3.1');
  assert.equal(request?.messages[0]?.role, 'system');
  assert.match(request?.messages[0]?.content ?? '', /Ana's Bakery/);
  assert.deepEqual(request?.messages.at(-1), { role: 'user', content: 'hi\nI have a question' });
});

test('opening_hours: the model calls the tool, reads the hours, then answers', async () => {
  const { sdk, model, clock } = await start([
    { tools: [{ name: 'opening_hours', args: { day: 'saturday' } }] },
    { text: 'On Saturday we are open from 8 to 13.' },
  ]);
  const bob = testChat(sdk, '15550002222', { clock });
  await bob.send('are you open on saturday?');
  await bob.advance(QUIET_MS);
  await bob.expectReply('On Saturday we are open from 8 to 13.');
  await bob.expectNoReply();
  assert.equal(model.requests.length, 2);
  const offered = model.requests[0]?.tools?.map((t) => t.function.name) ?? [];
  assert.ok(offered.includes('opening_hours') && offered.includes('handoff'), String(offered));
  // the second call carries the tool's result
  const result = model.requests[1]?.messages.find((m) => m.role === 'tool');
  assert.deepEqual(JSON.parse(result?.content ?? 'null'), {
    day: 'saturday',
    hours: '08:00-13:00',
  });
});

test('handoff: the model hands the chat to a person; the bot is silent after', async () => {
  const { sdk, model, clock } = await start([
    { tools: [{ name: 'handoff', args: { reason: 'asks for a refund' } }] },
  ]);
  const carol = testChat(sdk, '15550003333', { clock });
  await carol.send('I want my money back, let me talk to someone');
  await carol.advance(QUIET_MS);
  await carol.expectReply('I am passing you to a person, who will answer here.');
  assert.equal((await sdk.chats.mode('bot', carol.id)).mode, 'human');
  // the person writes again: no answer and no model call, until someone sets the chat back to bot
  await carol.send('hello?');
  await carol.advance(QUIET_MS);
  await carol.expectNoReply();
  assert.equal(model.requests.length, 1);
});

test('the model fails: the person gets the fallback message, once', async () => {
  const { sdk, model, clock } = await start([]); // no scripted answer: the server says 500
  const dan = testChat(sdk, '15550004444', { clock });
  await dan.send('hello');
  await dan.advance(QUIET_MS);
  await dan.expectReply('Sorry, I cannot answer right now. Please try again in a moment.');
  await dan.expectNoReply();
  assert.equal(model.requests.length, 1);
});
