// ctx.events.observe: observers see every event, commands and consumed messages included (issue 29,
// item 7); the per-chat counter of docs/plugins.md, as written, counts every message.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { shellBlock } from '../quick-start/shell.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import type * as Wakit from '../../src/index.js';
import type { Sdk, WakitErrorEvent } from '../../src/index.js';

// the plugin file imports the API as an ES module: so does this test (one module instance)
const API = pathToFileURL(path.resolve('src/index.ts')).href;
const { createSdk, definePlugin } = (await import(API)) as typeof Wakit;

const BOT = '15550000001';
const ALICE = '15550001111';

describe('ctx.events.observe (observers see what handlers do not)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await sdk?.stop();
    await cleanup?.();
  });

  async function start(plugins: Record<string, unknown>, setup?: (sdk: Sdk) => void) {
    const made = await tempDir('wakit-observe-');
    cleanup = made.cleanup;
    const doc = await readFile('docs/plugins.md', 'utf8');
    const counter = shellBlock(doc, '### Observers', "name: 'chat-counter'");
    await writeFile(
      path.join(made.dir, 'chat-counter.ts'),
      counter.replace("'wakitjs'", `'${API}'`),
    );
    sdk = createSdk(
      {
        engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT, ackDelayMs: 5 },
        auth: { type: 'local', dataPath: path.join(made.dir, 'sessions') },
        clients: ['bot'],
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
        log: { level: 'silent' },
        plugins,
      },
      { baseDir: made.dir },
    );
    setup?.(sdk);
    await sdk.start();
    await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    return sdk.simulator.phone(ALICE, { pushname: 'Alice' });
  }

  it("the docs' per-chat counter counts commands and messages another plugin consumed (3 of 3)", async () => {
    const alice = await start({
      './chat-counter.ts': true,
      'auto-reply': { rules: [{ match: 'ping', type: 'exact', reply: 'pong' }] },
    });
    await alice.send(`${BOT}@c.us`, 'ping'); // answered (consumed) by auto-reply
    await alice.waitForMessage((m) => m.body === 'pong');
    await alice.send(`${BOT}@c.us`, '!help'); // a command: consumed by the command system
    await alice.waitForMessage((m) => m.body.includes('count'));
    await alice.send(`${BOT}@c.us`, '!count');
    const answer = await alice.waitForMessage((m) => m.body.endsWith('messages in this chat'));
    expect(answer.body).to.equal('3 messages in this chat');
  });

  it('observers run before the chain, cannot consume, and their failures are reported', async () => {
    const seen: string[] = [];
    const errors: WakitErrorEvent[] = [];
    const alice = await start({}, (s) => {
      s.on('error', (e) => errors.push(e));
      s.use(
        definePlugin({
          name: 'watcher',
          setup(ctx) {
            ctx.on('message', (event) => {
              seen.push(`handler:${event.message.body}`); // consumes
            });
            ctx.events.observe('message', ({ message }) => {
              seen.push(`observer:${message.body}`);
              if (message.body === 'boom') throw new Error('observer failed');
            });
            ctx.events.observe(
              'message',
              ({ message }) => void seen.push(`second:${message.body}`),
              {
                clients: ['other'],
              },
            );
          },
        }),
      );
    });
    await alice.send(`${BOT}@c.us`, 'boom');
    await alice.send(`${BOT}@c.us`, 'hi');
    const deadline = Date.now() + 3_000;
    while (seen.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // an observer sees each message as it arrives, before that message's handlers; the chat's
    // handlers run one message at a time (per-chat order), so 'hi' is observed while 'boom' is
    // still being handled
    expect(seen).to.have.members(['observer:boom', 'handler:boom', 'observer:hi', 'handler:hi']);
    for (const body of ['boom', 'hi']) {
      expect(seen.indexOf(`observer:${body}`)).to.be.below(seen.indexOf(`handler:${body}`));
    }
    expect(seen.indexOf('handler:boom')).to.be.below(seen.indexOf('handler:hi'));
    expect(errors.map((e) => [e.plugin, e.event, e.error.message])).to.deep.equal([
      ['watcher', 'message', 'observer failed'],
    ]);
  });
});
