/**
 * Outbound queue benchmark (issue 2): 100,000 sends with pacing disabled and an engine that answers
 * at once. Reports the enqueue rate, the completion rate (against raw p-queue as a baseline
 * measured in the same run), the heap held by 100,000 queued sends, and lost sends (must be 0).
 * Standalone: `npx tsx bench/queue.ts`.
 */
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import PQueue from 'p-queue';
import { queueSchema } from '../src/config/schema.js';
import { OutboundQueue } from '../src/queue/index.js';
import type { QueueJob } from '../src/queue/index.js';

const SENDS = 100_000;
const CHATS = 1_000;

/** `global.gc` when node runs with --expose-gc, else obtained at run time; a no-op if neither works. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return () => {};
  }
}

function heapMB(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** Baseline: the same number of immediate tasks through a bare p-queue (concurrency 1). */
async function pQueueBaseline(): Promise<number> {
  const pq = new PQueue({ concurrency: 1, autoStart: false });
  const task = (): Promise<void> => Promise.resolve();
  for (let i = 0; i < SENDS; i++) pq.add(task).catch(() => {});
  const start = performance.now();
  pq.start();
  await pq.onIdle();
  return SENDS / ((performance.now() - start) / 1000);
}

export async function benchQueue(): Promise<Record<string, number | string>> {
  const gc = collector();
  const chats = Array.from(
    { length: CHATS },
    (_, i) => `4915100${String(i).padStart(5, '0')}@c.us`,
  );
  let ran = 0;
  const run: QueueJob['run'] = () => Promise.resolve({ id: `m${++ran}` });

  const queue = new OutboundQueue({
    client: 'bench',
    config: queueSchema.parse({ minGapMs: 0, jitterMs: 0, perChatGapMs: 0, maxSize: SENDS }),
  });
  const heapBefore = heapMB(gc);
  queue.pause();
  const ids: string[] = new Array<string>(SENDS);
  const enqueueStart = performance.now();
  for (let i = 0; i < SENDS; i++) {
    ids[i] = queue.enqueue({ chatId: chats[i % CHATS], kind: 'text', run }).trackingId;
  }
  const enqueueMs = performance.now() - enqueueStart;
  // What 100,000 queued sends cost when the caller keeps only tracking ids (the REST case).
  const heapQueued = heapMB(gc) - heapBefore;

  let resolved = 0;
  let rejected = 0;
  const handles = ids.map((id) => queue.get(id));
  if (handles.some((record) => record?.status !== 'queued'))
    throw new Error('a send left the queue early');

  // The SDK case: every caller also holds the result promise.
  const queue2 = new OutboundQueue({
    client: 'bench2',
    config: queueSchema.parse({ minGapMs: 0, jitterMs: 0, perChatGapMs: 0, maxSize: SENDS }),
  });
  queue2.pause();
  const heapBefore2 = heapMB(gc);
  const results: Promise<unknown>[] = new Array<Promise<unknown>>(SENDS);
  for (let i = 0; i < SENDS; i++) {
    results[i] = queue2.enqueue({ chatId: chats[i % CHATS], kind: 'text', run }).result.then(
      () => void resolved++,
      () => void rejected++,
    );
  }
  const heapQueuedWithResults = heapMB(gc) - heapBefore2;
  queue2.close();
  await Promise.all(results);
  const closedOk = rejected === SENDS;
  resolved = rejected = 0;

  const completionStart = performance.now();
  queue.resume();
  const drained = await queue.drain(120_000);
  const completionMs = performance.now() - completionStart;
  const sent = SENDS - drained.remaining;
  const lost = SENDS - ran - drained.remaining + (closedOk ? 0 : 1);
  const finishedSent = ids.filter((id) => queue.get(id)?.status === 'sent').length;
  queue.close();

  const baseline = await pQueueBaseline();
  const completionRate = sent / (completionMs / 1000);
  return {
    sends: SENDS,
    chats: CHATS,
    enqueueOpsPerSec: Math.round(SENDS / (enqueueMs / 1000)),
    completionOpsPerSec: Math.round(completionRate),
    baselinePQueueOpsPerSec: Math.round(baseline),
    completionVsPQueue: round(completionRate / baseline, 2),
    heapQueuedMB: round(heapQueued),
    heapQueuedWithResultsMB: round(heapQueuedWithResults),
    trackedAfter: finishedSent,
    lost,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchQueue());
}
