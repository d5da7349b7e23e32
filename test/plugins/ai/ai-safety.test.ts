// What the ai plugin logs (no message content unless logContent) and what a failing tool does
// (reported; the model reads an error and the person still gets an answer).
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createAiPlugin, defineAiTool, type AiTool } from '../../../plugins/ai/index.js';
import { createSdk, z, type Sdk, type WakitErrorEvent } from '../../../src/index.js';
import { testChat } from '../../../src/entries/testing.js';
import { linkedClient, tempDir } from '../../helpers/sdk-fixtures.js';
import { ALICE } from '../plugin-helpers.js';
import { fakeModel, type FakeModel, type Step } from './fake-model.js';

describe('ai plugin: logs and failing tools', function () {
  this.timeout(15_000);
  let sdk: Sdk | undefined;
  let model: FakeModel | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 1_000 });
    await model?.close();
    await cleanup?.();
  });

  async function start(script: Step[], options: Record<string, unknown>, tools: AiTool[] = []) {
    model = await fakeModel(script);
    const temp = await tempDir('wakit-ai-');
    cleanup = temp.cleanup;
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: { type: 'local', dataPath: temp.dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      },
      { logger },
    );
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    sdk.use(createAiPlugin({ tools }), {
      baseURL: model.baseURL,
      model: 'fake-model',
      ...options,
    });
    await sdk.start();
    sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    await linkedClient(sdk, 'bot');
    return { alice: testChat(sdk, ALICE), lines, errors };
  }

  it('logs the turn without its content by default, with it when logContent is on', async () => {
    const off = await start([{ text: 'the secret answer', tokens: 33 }], {});
    await off.alice.send('my secret question');
    await off.alice.expectReply('the secret answer');
    await off.alice.expectNoReply();
    const turn = off.lines.find((l) => l.includes('ai: turn answered'));
    expect(turn, 'one line per turn').to.be.a('string');
    expect(JSON.parse(turn ?? '{}')).to.include({ tokens: 33, calls: 1 });
    expect(off.lines.join('')).not.to.include('secret');
    await sdk?.stop({ drainTimeoutMs: 1_000 });
    sdk = undefined;
    await model?.close();
    await cleanup?.();

    const on = await start([{ text: 'the secret answer' }], { logContent: true });
    await on.alice.send('my secret question');
    await on.alice.expectReply('the secret answer');
    await on.alice.expectNoReply();
    expect(on.lines.join('')).to.include('my secret question').and.include('the secret answer');
  });

  it('a tool that throws is reported; the model reads an error and answers', async () => {
    const broken = defineAiTool({
      name: 'stock',
      description: 'Items in stock',
      parameters: z.object({ item: z.string() }),
      run: () => {
        throw new Error('database down');
      },
    });
    const { alice, errors } = await start(
      [{ tools: [{ name: 'stock', args: { item: 'tea' } }] }, { text: 'I cannot check now.' }],
      {},
      [broken],
    );
    await alice.send('any tea?');
    await alice.expectReply('I cannot check now.');
    await alice.expectNoReply();
    expect(model?.requests[1]?.messages.at(-1)).to.deep.include({
      role: 'tool',
      content: 'error: the tool failed',
    });
    expect(errors.map((e) => [e.error.code, e.error.details])).to.deep.equal([
      ['INTERNAL', { tool: 'stock' }],
    ]);
  });
});
