/**
 * Outbox benchmark (issue 9): 100,000 sends accepted through the SDK with pacing on, so they all
 * wait, journaled in the SQLite outbox (default durability). Reports the accept rate, the heap the
 * waiting sends hold (goal ≤ 64 MB: only `queue.memoryWindow` of each priority are in memory), the
 * outbox file size, then stops (the sends stay in the outbox) and starts a new SDK on the same data
 * path: time until the client is READY again and the first recovered send went out (goal ≤ 5 s),
 * how many were recovered (must be 100,000) and the heap they hold then.
 * Standalone: `npx tsx bench/outbox.ts` (BENCH_OUTBOX_SENDS to change the count).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../src/index.js';
import { prepareContent } from '../src/entries/contract.js';
// `sdk.simulator` before start (docs/simulator.md)
import '../src/entries/simulator.js';

const SENDS = Number(process.env.BENCH_OUTBOX_SENDS ?? 100_000);
const BOT = '15550000001';
const CHATS = 1_000;

function collector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return () => {};
  }
}

function sdkOn(dir: string): Sdk {
  return createSdk(
    {
      engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT },
      auth: { type: 'local', dataPath: dir },
      clients: ['bot'],
      // pacing on: one send a minute, so every accepted send waits in the outbox
      queue: { minGapMs: 60_000, jitterMs: 0, perChatGapMs: 0, maxSize: SENDS + 10 },
      log: { level: 'warn' },
    },
    { logger: pino({ level: 'warn' }) },
  );
}

export async function benchOutbox(): Promise<Record<string, unknown>> {
  const gc = collector();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-outbox-'));
  try {
    const first = sdkOn(dir);
    for (let i = 0; i < CHATS; i++) first.simulator.phone(String(15550100000 + i));
    await first.start();
    const bot = first.client('bot');
    await bot.waitUntilReady({ timeoutMs: 10_000 });
    let sentBefore = 0;
    bot.on('message.status', (s) => {
      if (s.status === 'sent' && s.ack === undefined) sentBefore++;
    });
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < SENDS; i++) {
      const send = prepareContent(String(15550100000 + (i % CHATS)), `message ${i}`);
      batch.push(bot.enqueue(send, { priority: 'bulk' }));
      if (batch.length === 1_000) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
    const acceptMs = performance.now() - started;
    gc();
    const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    await first.stop({ drainTimeoutMs: 0 });
    const fileMB = (await stat(path.join(dir, 'outbox.db'))).size / 2 ** 20;

    gc();
    const heapBeforeRestart = process.memoryUsage().heapUsed;
    const second = sdkOn(dir);
    for (let i = 0; i < CHATS; i++) second.simulator.phone(String(15550100000 + i));
    const restart = performance.now();
    let sentAfter = 0;
    const firstSend = new Promise<number>((resolve) => {
      second.onClient((client) =>
        client.on('message.status', (s) => {
          if (s.status !== 'sent' || s.ack !== undefined) return;
          sentAfter++;
          resolve(performance.now());
        }),
      );
    });
    await second.start();
    const readyMs = performance.now() - restart;
    const sendingMs = (await firstSend) - restart;
    // recovery goes on in the background: wait until every send is back in the queue
    const queued = (): number => {
      const { pending, running } = second.client('bot').info().queue;
      return pending + running + sentAfter;
    };
    const left = SENDS - sentBefore;
    while (queued() < left && performance.now() - restart < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const allMs = performance.now() - restart;
    const recovered = queued();
    gc();
    const restartHeapMB = (process.memoryUsage().heapUsed - heapBeforeRestart) / 2 ** 20;
    await second.stop({ drainTimeoutMs: 0 });
    return {
      'sends accepted (journaled)': SENDS,
      'accept rate /s': Math.round(SENDS / (acceptMs / 1000)),
      'heap held by the waiting sends MB': Math.round(heapMB * 10) / 10,
      'heap goal ≤ 64 MB': heapMB <= 64 ? 'met' : 'missed',
      'outbox file MB': Math.round(fileMB * 10) / 10,
      'restart: READY after ms': Math.round(readyMs),
      'restart: first recovered send after ms': Math.round(sendingMs),
      'restart goal ≤ 5000 ms': sendingMs <= 5_000 ? 'met' : 'missed',
      'restart: all recovered after ms': Math.round(allMs),
      'left in the outbox at stop': left,
      'recovered (sent + waiting)': recovered,
      'restart: heap held (SDK + waiting sends) MB': Math.round(restartHeapMB * 10) / 10,
    };
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchOutbox());
}
