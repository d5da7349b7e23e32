/**
 * The `ai` plugin's overhead (issue 39): what wakit adds to a model's answer. The model is a
 * local OpenAI-compatible server in a process of its own that answers at once
 * (servers/model.mjs); each measurement runs in a child process of its own (ai-worker.ts);
 * BENCH_ROUNDS rounds (3), interleaved, the order turned round in even rounds:
 *
 * - `model`: the `openai` client alone, one call at a time: the round trip the plugin cannot avoid.
 * - `command`: a plain command answered on the simulator: wakit's cost of a message and a reply.
 * - `ai`: a turn answered by the plugin (memory of 10 turns in the SQLite chat state, one model
 *   call, one reply).
 *
 * Overhead per turn = `ai` − `model` (p50); the plugin's own part = `ai` − `model` − `command`.
 * Environment: BENCH_ROUNDS (3). Standalone: `npx tsx bench/ai.ts`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, startServer } from './server-process.js';
import { round, spread } from './stats.js';
import { runWorker } from './worker-process.js';

type Mode = 'model' | 'command' | 'ai';
type Result = Record<string, number>;
const WORKER = path.join(import.meta.dirname, 'ai-worker.ts');

function inChild(mode: Mode, modelUrl: string): Promise<Result> {
  return runWorker(WORKER, [mode, `${modelUrl}/v1`]);
}

export async function benchAi(): Promise<Record<string, unknown>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const model = await startServer(path.join(BENCH_DIR, 'servers', 'model.mjs'));
  const runs: Record<Mode, Result[]> = { model: [], command: [], ai: [] };
  try {
    for (let r = 1; r <= rounds; r++) {
      const order: Mode[] = r % 2 ? ['model', 'command', 'ai'] : ['ai', 'command', 'model'];
      for (const mode of order) {
        const result = await inChild(mode, model.url);
        runs[mode].push(result);
        const text = Object.entries(result).map(([k, v]) => `${k} ${round(v, 2)}`);
        console.log(`round ${r}/${rounds} ${mode}: ${text.join(', ')}`);
      }
    }
  } finally {
    await model.stop();
  }
  const all = (mode: Mode, key: string) => runs[mode].map((r) => r[key]);
  const within = (f: (i: number) => number) => runs.ai.map((_, i) => f(i));
  const row = (mode: Mode) => ({
    'p50 ms': spread(all(mode, 'p50'), 2),
    'p99 ms': spread(all(mode, 'p99'), 2),
    'CPU µs/exchange': spread(all(mode, 'cpu')),
  });
  return {
    'model alone (openai client → instant model)': row('model'),
    'plain command on the simulator': row('command'),
    'ai turn on the simulator': row('ai'),
    'wakit overhead per turn (ai − model, p50 ms)': {
      'p50 ms': spread(
        within((i) => runs.ai[i].p50 - runs.model[i].p50),
        2,
      ),
    },
    "the plugin's own part (ai − model − command, p50 ms)": {
      'p50 ms': spread(
        within((i) => runs.ai[i].p50 - runs.model[i].p50 - runs.command[i].p50),
        2,
      ),
      'CPU µs': spread(within((i) => runs.ai[i].cpu - runs.command[i].cpu - runs.model[i].cpu)),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchAi());
