/**
 * RemoteAuth for real: whatsapp-web.js 1.34.7's RemoteAuth zips the Chromium profile into wakit's
 * GCS session store (a fake GCS server), and a second process takes the session over after the
 * first is SIGKILLed, waiting out its lease, with no QR. whatsapp-web.js makes the first backup
 * 60 s after the first link (RemoteAuth.js:118-127, hard-coded), which bounds this test's time.
 */
import { expect } from 'chai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { NEWEST_BUILD } from './builds.js';
import { writeBuild } from './page-builder.js';
import { BOT } from './world.js';

const CHILD = path.join(import.meta.dirname, 'remote-child.ts');

interface Proc {
  child: ChildProcess;
  events: Array<{ event: string; [key: string]: unknown }>;
  waitFor(event: string, timeoutMs: number): Promise<Record<string, unknown>>;
}

function start(args: string[]): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events: Proc['events'] = [];
  const waiters: Array<{ event: string; resolve: (e: Record<string, unknown>) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    let parsed: Proc['events'][number];
    try {
      parsed = JSON.parse(line) as Proc['events'][number];
    } catch {
      return;
    }
    events.push({ ...parsed, at: Date.now() });
    for (const w of waiters.filter((w) => w.event === parsed.event)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(parsed);
    }
  });
  return {
    child,
    events,
    waitFor(event, timeoutMs) {
      const seen = events.find((e) => e.event === event);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`no "${event}" in ${timeoutMs} ms; saw ${JSON.stringify(events)}`)),
          timeoutMs,
        );
        waiters.push({
          event,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
  };
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * A SIGKILLed wakit process leaves its Chromium running (puppeteer talks to it over a WebSocket):
 * the browsers whose profile is under `dir` are killed by pid.
 */
function killBrowsersUnder(dir: string): void {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match?.[2].includes(`--user-data-dir=${dir}`)) continue;
    try {
      process.kill(Number(match[1]), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function until(probe: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('RemoteAuth on whatsapp-web.js 1.34.7 + the WhatsApp Web double, two processes', function () {
  this.timeout(150_000);
  let fake: FakeGcsServer;
  let dir: string;
  const children: ChildProcess[] = [];

  before(async () => {
    fake = await FakeGcsServer.start();
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-double-remote-'));
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    killBrowsersUnder(dir);
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('links, backs the profile up to GCS; a standby process waits on the lease and takes over after SIGKILL with no QR', async () => {
    const builds = await writeBuild(path.join(dir, 'builds'), NEWEST_BUILD);
    const args = (name: string) => [fake.url, path.join(dir, name), builds, NEWEST_BUILD.version];

    const a = start([...args('a'), 'link']);
    children.push(a.child);
    expect((await a.waitFor('ready', 30_000)).me).to.equal(BOT.pn);
    expect((await a.waitFor('authenticated', 0)).restored).to.equal(false);
    const stored = () => fake.list('wakit-double', 'sessions/shop/').map((o) => o.name);
    // RemoteAuth's first backup: 60 s after the link, then zipped and uploaded
    await until(() => stored().some((n) => n.endsWith('current.json')), 90_000, 'the backup');

    // a standby process waits on A's lease; A dies without releasing it
    const b = start(args('b'));
    children.push(b.child);
    await b.waitFor('session.leased', 60_000);
    a.child.kill('SIGKILL');
    await exited(a.child);
    expect((await b.waitFor('authenticated', 30_000)).restored).to.equal(true);
    expect((await b.waitFor('ready', 30_000)).me).to.equal(BOT.pn);
    expect(b.events.map((e) => e.event)).to.not.include('qr');
  });
});
