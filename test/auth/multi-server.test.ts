import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { tempDir } from './auth-helpers.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/multi-server-child.ts',
);

interface Server {
  child: ChildProcess;
  events: { event: string; [key: string]: unknown }[];
  waitFor(event: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

function startServer(gcsUrl: string, dataPath: string): Server {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, gcsUrl, dataPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events: Server['events'] = [];
  const waiters: { event: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    let parsed: Server['events'][number];
    try {
      parsed = JSON.parse(line) as Server['events'][number];
    } catch {
      return;
    }
    events.push(parsed);
    for (const w of waiters.filter((w) => w.event === parsed.event)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(parsed);
    }
  });
  return {
    child,
    events,
    waitFor(event, timeoutMs = 30_000) {
      const seen = events.find((e) => e.event === event);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no "${event}" within ${timeoutMs} ms; saw ${JSON.stringify(events)}`),
            ),
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

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('two servers sharing one GCS session (separate processes)', function () {
  this.timeout(90_000);
  let fake: FakeGcsServer;
  let cleanups: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];

  before(async () => {
    fake = await FakeGcsServer.start();
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await fake.close();
    await Promise.all(cleanups.map((c) => c()));
    cleanups = [];
  });

  it('the second waits with SESSION_LEASED, then takes over after SIGKILL without a QR', async () => {
    const dirA = await tempDir();
    const dirB = await tempDir();
    cleanups.push(dirA.cleanup, dirB.cleanup);

    const a = startServer(fake.url, dirA.dir);
    children.push(a.child);
    await a.waitFor('ready');
    expect(a.events.map((e) => e.event)).to.include('qr');
    expect((await a.waitFor('authenticated')).restored).to.equal(false);
    expect(fake.get('wakit-multi', 'sessions/shop/current.json')).to.not.equal(undefined);

    const b = startServer(fake.url, dirB.dir);
    children.push(b.child);
    const leased = await b.waitFor('session.leased');
    expect(String(leased.holder)).to.include(`:${a.child.pid}:`);
    expect(b.events.map((e) => e.event)).to.not.include('ready');

    a.child.kill('SIGKILL');
    await exited(a.child);
    const lease = fake.get('wakit-multi', 'sessions/shop/lease.json');
    expect(lease, 'a SIGKILLed server leaves its lease behind').to.not.equal(undefined);

    await b.waitFor('ready');
    const auth = await b.waitFor('authenticated');
    expect(auth.restored).to.equal(true);
    expect(b.events.map((e) => e.event)).to.not.include('qr');
    const holder = JSON.parse(
      fake.get('wakit-multi', 'sessions/shop/lease.json')!.data.toString(),
    ) as {
      holder: string;
    };
    expect(holder.holder).to.include(`:${b.child.pid}:`);

    b.child.kill('SIGTERM');
    await exited(b.child);
    expect(fake.get('wakit-multi', 'sessions/shop/lease.json'), 'released on stop').to.equal(
      undefined,
    );
    expect(fake.get('wakit-multi', 'sessions/shop/current.json'), 'session kept').to.not.equal(
      undefined,
    );
  });
});
