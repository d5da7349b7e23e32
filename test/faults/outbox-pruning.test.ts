import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createSdk, type Sdk, type WakitConfigInput } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import { CONTACT, CONTACT_ID } from './child-server.js';
// `sdk.simulator` before start (docs/simulator.md)
import '../../src/entries/simulator.js';

/** A pino logger whose lines a test takes one by one (`next`), waiting when none is there yet. */
function capturingLogger() {
  const lines: { msg: string; removed?: number }[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(text) as { msg: string; removed?: number });
      }
      wake?.();
      done();
    },
  });
  return {
    logger: pino({ level: 'debug' }, stream),
    /** The next line (after the ones taken before) matching `match`. */
    async next(match: RegExp, timeoutMs = 30_000): Promise<{ removed?: number }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (taken < lines.length) {
          const line = lines[taken++];
          if (match.test(line.msg)) return line;
        }
        if (Date.now() > deadline) throw new Error(`no log line ${match} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
  };
}

describe('faults: outbox retention (pruning by the SDK, across a restart)', function () {
  this.timeout(120_000);
  let dataPath: string;
  let sdk: Sdk | undefined;
  beforeEach(async () => {
    dataPath = await mkdtemp(path.join(os.tmpdir(), 'wakit-fault-prune-'));
  });
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 0 });
    sdk = undefined;
    await rm(dataPath, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  function make(queue: WakitConfigInput['queue'], logger = pino({ level: 'silent' })): Sdk {
    const instance = createSdk(
      {
        engine: { type: 'simulator', autoScanMs: 10, autoScanPhone: '15550000001', ackDelayMs: 5 },
        auth: { type: 'local', dataPath },
        clients: ['bot'],
        queue: { jitterMs: 0, perChatGapMs: 0, ...queue },
      },
      { logger },
    );
    instance.simulator.phone(CONTACT);
    return instance;
  }

  it('prunes finished sends at start and in the background, never the waiting ones', async () => {
    sdk = make({ minGapMs: 60_000 });
    await sdk.start();
    const bot = sdk.client('bot');
    await bot.waitUntilReady({ timeoutMs: 30_000 });
    const handles = [];
    for (let n = 0; n < 4; n++)
      handles.push(await bot.enqueue(prepareContent(CONTACT_ID, `p${n}`)));
    await handles[0].result;
    await sdk.stop({ drainTimeoutMs: 0 }); // p1..p3 wait in the outbox
    const ids = handles.map((h) => h.trackingId);

    const log = capturingLogger();
    sdk = make(
      { minGapMs: 0, retention: { maxCount: 0, maxAgeMs: 0, pruneIntervalMs: 1_000 } },
      log.logger,
    );
    const atStart = log.next(/finished sends pruned/);
    await sdk.start();
    expect((await atStart).removed, 'p0 (sent) goes at start').to.equal(1);
    expect(await sdk.sends.get(ids[0])).to.equal(undefined);
    // The waiting ones were kept, recovered and sent.
    await sdk.client('bot').waitUntilReady({ timeoutMs: 30_000 });
    await sdk.simulator.phone(CONTACT).waitForMessage((m) => m.body === 'p3', 30_000);
    expect(sdk.simulator.phone(CONTACT).inbox.map((m) => m.body)).to.deep.equal(['p1', 'p2', 'p3']);
    // p1..p3 once finished, by the background pruner (in one run, or more on a slow machine).
    let removed = 0;
    while (removed < 3) removed += (await log.next(/finished sends pruned/)).removed ?? 0;
    expect(removed).to.equal(3);
    expect((await sdk.sends.list({ limit: 10 })).items).to.deep.equal([]);
  });
});
