/**
 * The measured work of bench/ai.ts, in a process of its own:
 *
 *   node --import tsx bench/ai-worker.ts <mode> <modelUrl>
 *
 * `mode`: `model` (the baseline: the `openai` client alone asking the instant model server, one
 * call at a time, as the plugin does per turn), `command` (a plain wakit command answering on the
 * simulator: wakit's own cost of a message and a reply) or `ai` (the `ai` plugin answering a turn
 * on the simulator: memory read and written in the SQLite chat state, one model call, the reply).
 * One chat at a time, closed loop: latency p50/p99 and CPU time per exchange (process.cpuUsage()
 * of this process: the bot, the simulated phone and the harness, alike for `command` and `ai`).
 * Sends what it measured over IPC.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { createSdk, definePlugin, type Sdk } from '../src/index.js';
import type { SimPhone } from '../src/engines/simulator/types.js';
import { createAiPlugin } from '../plugins/ai/index.js';
// `sdk.simulator` (docs/simulator.md)
import '../src/entries/simulator.js';
import { median } from './stats.js';

const BOT = '15550000001';
const BOT_ID = `${BOT}@c.us`;
const WARMUP = 100;
const MEASURED = 400;

type Mode = 'model' | 'command' | 'ai';

const p99 = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)];

async function measure(run: (i: number) => Promise<void>): Promise<Record<string, number>> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = WARMUP; i < WARMUP + MEASURED; i++) {
    const started = performance.now();
    await run(i);
    latencies.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  return {
    p50: median(latencies),
    p99: p99(latencies),
    cpu: (used.user + used.system) / MEASURED,
  };
}

async function startBot(dir: string, mode: Mode, baseURL: string): Promise<Sdk> {
  const sdk = createSdk(
    {
      engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT },
      auth: { type: 'local', dataPath: dir },
      clients: ['bot'],
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      conversations: { store: 'sqlite' },
    },
    { logger: pino({ level: 'silent' }) },
  );
  const failures: string[] = [];
  sdk.on('error', (e) => failures.push(`${e.source} ${e.error.code}: ${e.error.message}`));
  if (mode === 'command') {
    sdk.use(
      definePlugin({
        name: 'bench-echo',
        setup: (ctx) => ctx.command('echo', (cmd) => cmd.reply(`echo ${cmd.rawArgs}`)),
      }),
    );
  } else {
    sdk.use(createAiPlugin(), {
      baseURL,
      model: 'bench',
      // memory as a real bot keeps it: each turn sends the last turns and stores this one
      maxTurnsInMemory: 10,
      maxMessagesPerTurn: 1,
    });
  }
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 30_000 });
  if (failures.length > 0) throw new Error(failures.join('\n'));
  return sdk;
}

async function exchange(phone: SimPhone, text: string, expected: string): Promise<void> {
  const reply = phone.waitForMessage((m) => m.body === expected, 30_000);
  await phone.send(BOT_ID, text);
  await reply;
}

async function main(mode: Mode, baseURL: string): Promise<Record<string, number>> {
  if (mode === 'model') {
    const openai = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 });
    return measure(async (i) => {
      await openai.chat.completions.create({
        model: 'bench',
        messages: [{ role: 'user', content: `m${i}` }],
      });
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-ai-'));
  const sdk = await startBot(dir, mode, baseURL);
  try {
    const phone = sdk.simulator.phone('15551000000');
    return await measure((i) =>
      mode === 'command'
        ? exchange(phone, `!echo m${i}`, `echo m${i}`)
        : exchange(phone, `m${i}`, `echo m${i}`),
    );
  } finally {
    await sdk.stop({ drainTimeoutMs: 0 });
    await rm(dir, { recursive: true, force: true });
  }
}

const [mode, baseURL] = process.argv.slice(2) as [Mode, string];
const result = await main(mode, baseURL);
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
process.exit(0);
