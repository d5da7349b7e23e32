/**
 * The real whatsapp-web.js 1.34.7 in headless Chromium on the WhatsApp Web double
 * (test/wa-web-double/): cold start to READY with a saved session and linking from a fresh profile
 * (median of 5), and the browser's memory (PSS of its process tree) per client after READY and
 * 200 messages in and 200 out, for 1, 5 and 10 clients in one process, with wakit's launch flags
 * and with puppeteer's defaults. The double is far lighter than
 * WhatsApp Web: this measures the browser's own cost, not WhatsApp Web's heap.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { nextEvent } from '../test/engines/engine-contract.js';
import { DoubleHarness } from '../test/wa-web-double/harness.js';
import { ALICE } from '../test/wa-web-double/world.js';
import { median, round, spread } from './stats.js';

const ROUNDS = 5;
const MESSAGES = 200;

async function timeLinking(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const h = await DoubleHarness.create();
    try {
      const started = performance.now();
      await h.linkedEngine(30_000);
      times.push(performance.now() - started);
    } finally {
      await h.cleanup();
    }
  }
  return times;
}

async function timeColdStart(): Promise<number[]> {
  const h = await DoubleHarness.create();
  const times: number[] = [];
  try {
    const first = await h.linkedEngine(30_000);
    await first.stop();
    for (let i = 0; i < ROUNDS; i++) {
      const engine = h.engine();
      const started = performance.now();
      const ready = nextEvent(engine, 'ready', () => true, 30_000);
      await engine.start();
      await ready;
      times.push(performance.now() - started);
      await engine.stop();
    }
  } finally {
    await h.cleanup();
  }
  return times;
}

/** PSS in MB of `pid` and every process below it. */
function treePssMb(pid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((r) => r.length === 2);
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of rows) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let kb = 0;
  for (const member of tree) {
    try {
      const rollup = readFileSync(`/proc/${member}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

/** What puppeteer launches with when given no flags of ours (only the sandbox off, as root). */
const PUPPETEER_DEFAULTS = (args: string[]): string[] =>
  args.filter((a) => a === '--no-sandbox' || a === '--disable-setuid-sandbox');

async function pssPerClient(clients: number, puppeteerDefaults = false): Promise<number> {
  const harnesses = await Promise.all(
    Array.from({ length: clients }, () =>
      DoubleHarness.create(puppeteerDefaults ? { rewriteArgs: PUPPETEER_DEFAULTS } : {}),
    ),
  );
  try {
    for (const h of harnesses) {
      const engine = await h.linkedEngine(30_000);
      for (let i = 0; i < MESSAGES; i++) {
        await h.phone('receive', { from: ALICE.pn, body: `in ${i}` });
        await engine.send(ALICE.pn, { kind: 'text', text: `out ${i}`, options: {} });
      }
    }
    const total = harnesses.reduce((sum, h) => sum + treePssMb(h.browserPid() ?? -1), 0);
    return total / clients;
  } finally {
    for (const h of harnesses) await h.cleanup();
  }
}

export async function benchWwebjsDouble(): Promise<Record<string, unknown>> {
  const linking = await timeLinking();
  const cold = await timeColdStart();
  const pss: Record<string, unknown> = {};
  for (const clients of [1, 5, 10]) {
    pss[`browser PSS per client, ${clients} client(s), MB`] = {
      value: round(await pssPerClient(clients)),
      'puppeteer defaults': round(await pssPerClient(clients, true)),
    };
  }
  return {
    'link from a fresh profile to READY, ms': {
      value: `${round(median(linking), 0)}`,
      'median (min–max)': spread(linking),
    },
    'cold start with a saved session to READY, ms': {
      value: `${round(median(cold), 0)}`,
      'median (min–max)': spread(cold),
    },
    ...pss,
  };
}
