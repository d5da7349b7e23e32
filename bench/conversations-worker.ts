/**
 * The measured work of bench/conversations.ts, in a process of its own:
 *
 *   node --import tsx --expose-gc bench/conversations-worker.ts <mode>
 *
 * `mode`: command, conversation, length or resume (what each measures: bench/conversations.ts).
 * Sends what it measured (a record of numbers) over IPC, or prints it as JSON without IPC.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createSdk, defineConversation, definePlugin, type Sdk } from '../src/index.js';
import { fingerprint } from '../src/conversations/conversation-run.js';
import { SqliteConversationStore } from '../src/conversations/store/sqlite-conversation-store.js';
import { deriveLid } from '../src/engines/simulator/ids.js';
import type { SimPhone } from '../src/engines/simulator/types.js';
// `sdk.simulator` (docs/simulator.md)
import '../src/entries/simulator.js';
import { median } from './stats.js';

const BOT = '15550000001';
const BOT_ID = `${BOT}@c.us`;
const LOAD_CHATS = 32;
const LOAD_WARMUP = 40;
const LOAD_STEPS = 80;
const ALONE_STEPS = 300;
const LENGTH_CHATS = 25;
const LENGTH_WAVES = 10;
const RESUME = 10_000;

type Mode = 'command' | 'conversation' | 'length' | 'resume';
type Result = Record<string, number>;

/** What the bots reported (the worker fails when there is any). */
const failures: string[] = [];

const botPlugin = definePlugin({
  name: 'bench-echo',
  setup(ctx) {
    ctx.command('echo', (cmd) => cmd.reply(`echo ${cmd.rawArgs}`));
    ctx.conversations.define(
      defineConversation({
        name: 'echo',
        trigger: { command: 'talk' },
        async run(conv) {
          for (;;) {
            const text = await conv.text();
            await conv.say(`echo ${text}`);
          }
        },
      }),
    );
  },
});

async function startBot(dir: string): Promise<Sdk> {
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
  sdk.on('error', (e) => failures.push(`${e.source} ${e.error.code}: ${e.error.message}`));
  sdk.use(botPlugin);
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 30_000 });
  return sdk;
}

const phoneNumber = (i: number): string => String(15551000000 + i);

/** One exchange: the phone sends `text`, resolves with the ms until `expected` reached it. */
async function exchange(phone: SimPhone, text: string, expected: string): Promise<number> {
  const reply = phone.waitForMessage((m) => m.body === expected, 30_000);
  const started = performance.now();
  await phone.send(BOT_ID, text);
  await reply;
  return performance.now() - started;
}

/** Step `s` of chat `c`: a command, or an answer to the chat's conversation. */
function step(mode: Mode, phone: SimPhone, c: number, s: number): Promise<number> {
  const text = `c${c} s${s}`;
  return exchange(phone, mode === 'command' ? `!echo ${text}` : text, `echo ${text}`);
}

/** Starts the conversation of each phone's chat; resolves when each waits for its first text. */
async function openConversations(sdk: Sdk, phones: SimPhone[]): Promise<void> {
  const before = (await sdk.conversations.list()).length;
  for (const phone of phones) await phone.send(BOT_ID, '!talk');
  await sdk.plugins.idle();
  const open = (await sdk.conversations.list()).length - before;
  if (open !== phones.length)
    throw new Error(`${open} conversations opened, ${phones.length} expected`);
}

function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

const p99 = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)];

async function load(mode: Mode, sdk: Sdk): Promise<Result> {
  const phones = Array.from({ length: LOAD_CHATS }, (_, c) => sdk.simulator.phone(phoneNumber(c)));
  if (mode === 'conversation') await openConversations(sdk, phones);
  await sdk.plugins.idle();
  const run = async (from: number, to: number, latencies: number[]) =>
    Promise.all(
      phones.map(async (phone, c) => {
        for (let s = from; s < to; s++) latencies.push(await step(mode, phone, c, s));
      }),
    );
  await run(0, LOAD_WARMUP, []);
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run(LOAD_WARMUP, LOAD_WARMUP + LOAD_STEPS, latencies);
  const seconds = (performance.now() - started) / 1000;
  const cpuPerStep = cpuMicros(cpu) / latencies.length;
  const alone = sdk.simulator.phone(phoneNumber(LOAD_CHATS));
  if (mode === 'conversation') await openConversations(sdk, [alone]);
  const aloneLatencies: number[] = [];
  for (let s = 0; s < ALONE_STEPS; s++) aloneLatencies.push(await step(mode, alone, -1, s));
  return {
    rate: latencies.length / seconds,
    cpu: cpuPerStep,
    p99: p99(latencies),
    aloneP99: p99(aloneLatencies.slice(50)),
    aloneP50: median(aloneLatencies.slice(50)),
  };
}

/**
 * The cost of a step by the conversation's length, at one age of the process (its heap, its
 * SQLite files): long conversations brought to step 200 first, then waves of fresh conversations
 * at steps 2, 3, ... alternated with waves of the long ones at steps 200, 201, ...
 */
async function length(sdk: Sdk): Promise<Result> {
  const chats = (from: number) =>
    Array.from({ length: LENGTH_CHATS }, (_, c) => sdk.simulator.phone(phoneNumber(from + c)));
  const wave = async (mode: Mode, phones: SimPhone[], from: number, s: number) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(phones.map((phone, c) => step(mode, phone, from + c, s)));
    return { cpu: cpuMicros(cpu), ms: performance.now() - started };
  };
  // the control: a plain command in a chat as long, so what grows with the chat is told apart
  const long = { conversation: chats(100), command: chats(200) };
  const fresh = { conversation: chats(300), command: chats(400) };
  const from = {
    long: { conversation: 100, command: 200 },
    fresh: { conversation: 300, command: 400 },
  };
  await openConversations(sdk, long.conversation);
  // also the warm-up (the JIT)
  for (let s = 1; s < 200; s++) {
    await Promise.all([
      wave('conversation', long.conversation, 100, s),
      wave('command', long.command, 200, s),
    ]);
  }
  await openConversations(sdk, fresh.conversation);
  await wave('conversation', fresh.conversation, 300, 1);
  await wave('command', fresh.command, 400, 1);
  const sums: Record<string, number> = {};
  const add = (key: string, m: { cpu: number; ms: number }) => {
    sums[`${key}Cpu`] = (sums[`${key}Cpu`] ?? 0) + m.cpu / LENGTH_CHATS / LENGTH_WAVES;
    sums[`${key}Ms`] = (sums[`${key}Ms`] ?? 0) + m.ms / LENGTH_CHATS / LENGTH_WAVES;
  };
  for (let i = 0; i < LENGTH_WAVES; i++) {
    for (const mode of ['conversation', 'command'] as const) {
      add(`${mode}Early`, await wave(mode, fresh[mode], from.fresh[mode], 2 + i));
      add(`${mode}Late`, await wave(mode, long[mode], from.long[mode], 200 + i));
    }
  }
  return sums;
}

/** How many resumed conversations are answered (timed) after the restart: replay on demand. */
const ON_DEMAND = 50;

/**
 * A restart of an SDK on `dir`: ms (and CPU) until READY with every conversation cut off in the
 * middle of a step replayed (the waiting ones resume on demand), the heap, and the first answer
 * of `ON_DEMAND` resumed conversations (each replays its journal then answers).
 */
async function restart(dir: string, count: number): Promise<Result> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const sdk = await startBot(dir);
  const ready = performance.now() - started;
  await sdk.plugins.idle();
  const replayed = performance.now() - started;
  const replayedCpu = cpuMicros(cpu) / 1000;
  gc();
  const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const open = (await sdk.conversations.list('bot')).length;
  if (open !== count) throw new Error(`resume: ${open} conversations open, ${count} expected`);
  let onDemandMs = 0;
  for (let i = 0; i < Math.min(ON_DEMAND, count); i++) {
    const phone = sdk.simulator.phone(String(15552000000 + count - 1 - i));
    onDemandMs += (await exchange(phone, 'again', 'echo again')) / ON_DEMAND;
  }
  await sdk.stop();
  return { ready, replayed, replayedCpu, heapMB, onDemandMs };
}

async function resume(dir: string): Promise<Result> {
  await restart(dir, 0); // the first start in this process loads the modules: not the baseline
  const empty = await restart(dir, 0);
  const store = new SqliteConversationStore(path.join(dir, 'conversations.db'));
  const now = Date.now();
  const hash = fingerprint('echo hello');
  for (let i = 0; i < RESUME; i++) {
    const id = `bench-${i}`;
    // keyed as its messages will be: the person's LID (the simulator derives it from the number)
    const chatId = `${deriveLid(String(15552000000 + i))}@lid`;
    const record = { id, client: 'bot', chatId, member: '', name: 'echo', version: 1 };
    await store.begin({ ...record, startedAt: now, updatedAt: now, steps: 0, wait: {} });
    const reply = { kind: 'message', id: `seed-${i}`, body: 'hello', type: 'chat', from: chatId };
    await store.append(id, 0, { k: 'in', v: { ...reply, at: now } }, {});
    // the reply said, the code waits for the next text (as a live run leaves it)
    await store.append(id, 1, { k: 'say', h: hash, v: `seed-${i}` }, { waiting: true });
  }
  await store.close();
  const full = await restart(dir, RESUME);
  return {
    emptyReady: empty.ready,
    ready: full.ready,
    replayed: full.replayed,
    replayedCpu: full.replayedCpu,
    heapMB: full.heapMB,
    emptyHeapMB: empty.heapMB,
    onDemandMs: full.onDemandMs,
  };
}

async function worker(mode: Mode): Promise<Result> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-conv-'));
  // the simulator's own timers do not hold the process: this does, until the work is done
  const alive = setInterval(() => {}, 1_000);
  try {
    if (mode === 'resume') return await resume(dir);
    const sdk = await startBot(dir);
    try {
      return mode === 'length' ? await length(sdk) : await load(mode, sdk);
    } finally {
      await sdk.stop();
    }
  } finally {
    clearInterval(alive);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

const mode = process.argv[2] as Mode;
if (!['command', 'conversation', 'length', 'resume'].includes(mode)) {
  throw new Error('usage: conversations-worker.ts command|conversation|length|resume');
}
const result = await worker(mode);
if (failures.length > 0) throw new Error(`the bench bot reported: ${failures.join('; ')}`);
if (process.send) process.send(result, () => process.exit(0));
else console.log(JSON.stringify(result));
