/**
 * Conversations benchmark (issue 37), on the simulator engine with pacing off, the conversation
 * store in SQLite (the default) and the outbox in SQLite (the default). Every measurement runs in
 * a child process of its own (`node --import tsx --expose-gc bench/conversations-worker.ts
 * <mode>`); BENCH_ROUNDS rounds (3) are interleaved: command, conversation (the other way round
 * in even rounds), length, resume. Medians with their spread (min–max); ratios are taken within a
 * round, then their median.
 *
 * - `command` (the baseline): a plain command, `ctx.command('echo', cmd => cmd.reply(...))`,
 *   answering `!echo cN sM`. `conversation`: a conversation step, `await conv.text()` then
 *   `conv.say(...)`, answering `cN sM`. Each: 32 chats at once (conversations.concurrency),
 *   closed loop, each exchange from the phone's send until the reply reached the phone; steps/s
 *   on one core (one process), CPU time per step (process.cpuUsage() of the child: wakit, the
 *   simulated phone and the harness, alike for both), p99; then one chat alone: p99.
 * - `length`: 25 chats in long conversations brought to step 200 (also the warm-up), then 25 fresh
 *   ones: waves of the fresh at steps 2–11 alternated with waves of the long at steps 200–209 (one
 *   step per chat per wave), so both are measured at one age of the process: CPU and wall time
 *   per step. The control: the same with a plain command in 25 chats 200 commands long and 25
 *   fresh ones (what grows with the chat's length in the simulator and the client, not in the
 *   conversation); the conversation's own cost is the step minus the command at the same length.
 * - `resume`: 10,000 open conversations (2 journaled steps each, waiting for the next text) in the
 *   SQLite conversation store, then a new SDK on the same data path: time from `sdk.start()` until
 *   the client is READY and until every conversation's code is replayed back to its wait (counted
 *   by the bench's conversation code), the CPU time the process used meanwhile (what the wall time
 *   would be on a core of its own) and the heap they hold. The baseline is the same restart
 *   with no open conversation. Setup writes the journals with the store API
 *   (SqliteConversationStore.begin + append), not through the simulator.
 *
 * Environment: BENCH_ROUNDS (3). Standalone: `npx tsx bench/conversations.ts`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, round, spread } from './stats.js';
import { runWorker } from './worker-process.js';

type Mode = 'command' | 'conversation' | 'length' | 'resume';
type Result = Record<string, number>;
/** Open conversations in the resume measurement (as in conversations-worker.ts). */
const RESUME = 10_000;
const WORKER = path.join(import.meta.dirname, 'conversations-worker.ts');

function inChild(mode: Mode): Promise<Result> {
  return runWorker(WORKER, [mode], ['--expose-gc']);
}

export async function benchConversations(): Promise<Record<string, unknown>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const runs: Record<Mode, Result[]> = { command: [], conversation: [], length: [], resume: [] };
  for (let r = 1; r <= rounds; r++) {
    const order: Mode[] = r % 2 ? ['command', 'conversation'] : ['conversation', 'command'];
    for (const mode of [...order, 'length', 'resume'] as Mode[]) {
      const result = await inChild(mode);
      runs[mode].push(result);
      const text = Object.entries(result).map(([k, v]) => `${k} ${round(v, 1)}`);
      console.log(`round ${r}/${rounds} ${mode}: ${text.join(', ')}`);
    }
  }
  const all = (mode: Mode, key: string): number[] => runs[mode].map((r) => r[key]);
  const ratio = (a: number[], b: number[], goal?: number): string => {
    const ratios = a.map((v, i) => v / b[i]);
    const text = `${spread(ratios, 2)}×`;
    return goal === undefined
      ? text
      : `${text} (goal ≤ ${goal}×: ${median(ratios) <= goal ? 'met' : 'MISSED'})`;
  };
  const conv = (key: string) => all('conversation', key);
  const cmd = (key: string) => all('command', key);
  const replayed = all('resume', 'replayed');
  const count = RESUME.toLocaleString('en');
  const length = (key: string) => all('length', key);
  const resumed = (key: string) => all('resume', key);
  const own = (at: 'Early' | 'Late') =>
    runs.length.map((r) => r[`conversation${at}Cpu`] - r[`command${at}Cpu`]);
  const flat = (late: number[], early: number[]) => {
    const text = ratio(late, early);
    const ratios = late.map((v, i) => v / early[i]);
    return `${text} (goal: flat, ≈ 1×)${median(ratios) > 1.25 ? ': MISSED' : ''}`;
  };
  const rows: [string, string, string, string][] = [
    [
      'steps/s, 32 chats at once, one process (ratio: command rate / step rate)',
      spread(conv('rate')),
      spread(cmd('rate')),
      ratio(cmd('rate'), conv('rate'), 2),
    ],
    [
      'CPU µs per step (process.cpuUsage of the process)',
      spread(conv('cpu')),
      spread(cmd('cpu')),
      ratio(conv('cpu'), cmd('cpu'), 2),
    ],
    [
      'p99 ms per step, 32 chats at once',
      spread(conv('p99'), 2),
      spread(cmd('p99'), 2),
      ratio(conv('p99'), cmd('p99')),
    ],
    [
      'p50 ms per step, one chat alone',
      spread(conv('aloneP50'), 2),
      spread(cmd('aloneP50'), 2),
      ratio(conv('aloneP50'), cmd('aloneP50')),
    ],
    [
      'p99 ms per step, one chat alone',
      spread(conv('aloneP99'), 2),
      spread(cmd('aloneP99'), 2),
      ratio(conv('aloneP99'), cmd('aloneP99')),
    ],
    [
      'CPU µs per conversation step at steps 200–209 (baseline: steps 2–11), 25 chats a wave',
      spread(length('conversationLateCpu')),
      spread(length('conversationEarlyCpu')),
      ratio(length('conversationLateCpu'), length('conversationEarlyCpu')),
    ],
    [
      'control: CPU µs per command in a chat 200 commands long (baseline: 2–11 long)',
      spread(length('commandLateCpu')),
      spread(length('commandEarlyCpu')),
      ratio(length('commandLateCpu'), length('commandEarlyCpu')),
    ],
    [
      "the conversation's own CPU µs (step − command in a chat as long) at 200–209 (baseline: 2–11)",
      spread(own('Late')),
      spread(own('Early')),
      flat(own('Late'), own('Early')),
    ],
    [
      'wall ms per conversation step in those waves at 200–209 (baseline: 2–11)',
      spread(length('conversationLateMs'), 2),
      spread(length('conversationEarlyMs'), 2),
      ratio(length('conversationLateMs'), length('conversationEarlyMs')),
    ],
    [
      `restart with ${count} open conversations: sdk.start() to READY, ms (baseline: none open)`,
      spread(resumed('ready')),
      spread(resumed('emptyReady')),
      ratio(resumed('ready'), resumed('emptyReady')),
    ],
    [
      `restart with ${count} open conversations (waiting): sdk.start() until READY and nothing left to replay, ms`,
      spread(replayed),
      '—',
      `goal ≤ 2000 ms: ${median(replayed) <= 2000 ? 'met' : 'MISSED'}`,
    ],
    [
      `restart with ${count} open conversations: CPU time of the process until then, ms`,
      spread(resumed('replayedCpu')),
      '—',
      `goal ≤ 2000 ms: ${median(resumed('replayedCpu')) <= 2000 ? 'met' : 'MISSED'}`,
    ],
    [
      `the first answer of a resumed conversation (its journal replayed on demand), ms`,
      spread(resumed('onDemandMs'), 2),
      '—',
      '',
    ],
    [
      `heap held by the SDK after the restart, MB (baseline: none open)`,
      spread(resumed('heapMB'), 1),
      spread(resumed('emptyHeapMB'), 1),
      `${round(((median(resumed('heapMB')) - median(resumed('emptyHeapMB'))) * 1024) / RESUME, 1)} KB per conversation`,
    ],
  ];
  console.log(
    [
      '',
      '| Measure | Conversation | Baseline (plain command, unless named) | Ratio |',
      '| --- | --- | --- | --- |',
      ...rows.map((row) => `| ${row.join(' | ')} |`),
      '',
      `Medians of ${rounds} rounds (min–max), each measurement in a process of its own. Resume setup: the ` +
        `${RESUME.toLocaleString('en')} journals (2 steps each) are written with SqliteConversationStore.begin + append, not through the simulator.`,
    ].join('\n'),
  );
  return Object.fromEntries(
    rows.map(([name, value, baseline, r]) => [name, { value, baseline, ratio: r }]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchConversations());
}
