/**
 * The reconnect ladder in a real process (docs/engines.md, "Reconnecting"): a wakit process
 * starts while WhatsApp Web cannot be reached (Chromium's resolver fails, so the real navigation
 * to https://web.whatsapp.com/ fails with net::ERR_NAME_NOT_RESOLVED). With maxAttempts 2 it used
 * to be FAILED after the third failed start and the CLI exited; now it keeps retrying at the
 * capped backoff (readiness 503, liveness 200, the cause and next attempt in client info) and
 * reaches READY once the double is there, in the same process.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { waitUntil } from '../helpers/wait-until.js';
import { NEWEST_BUILD } from './builds.js';
import { writeBuild } from './page-builder.js';

const CHILD = path.join(import.meta.dirname, 'outage-child.ts');
/** whatsapp-web.js 1.34.7's default webVersion (util/Constants.js:10): what `live` asks the cache for. */
const LIBRARY_DEFAULT_VERSION = '2.3000.1017054665';
/** Failed starts to sit out: three times what `reconnect.maxAttempts` (2) used to allow. */
const OUTAGE_STARTS = 7;

type Event = { event: string; [key: string]: unknown };
/** The parts of /readyz and client info bodies this test reads. */
type RestBody = {
  reasons?: string[];
  reconnect?: { cause: string; untilCured: boolean; nextAttemptAt: string } | null;
};

describe('a network outage at start (a real wakit process on the double)', function () {
  this.timeout(240_000);
  let dir: string;
  let child: ChildProcess | undefined;
  const events: Event[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-outage-'));
  });
  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('retries past reconnect.maxAttempts while unreachable (alive, not ready), then READY when WhatsApp is back; the process never exits', async () => {
    const buildsDir = path.join(dir, 'builds');
    await mkdir(buildsDir, { recursive: true });
    child = spawn(process.execPath, ['--import', 'tsx', CHILD, path.join(dir, 'data'), buildsDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let exited: number | null = null;
    child.on('exit', (code) => (exited = code ?? -1));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        events.push({ ...(JSON.parse(line) as Event), at: Date.now() });
      } catch {
        // not JSON: a stray line of the child's, not one of its events
      }
    });
    const seen = (): string => `; saw ${JSON.stringify(events.slice(-5))}, exit ${exited}`;
    const count = (event: string): number => events.filter((e) => e.event === event).length;

    const waits = (): Event[] =>
      events.filter((e) => e.event === 'state' && e.to === 'DISCONNECTED');
    const failed = (): boolean => events.some((e) => e.event === 'state' && e.to === 'FAILED');
    await waitUntil(
      () => waits().length >= OUTAGE_STARTS || exited !== null || failed(),
      180_000,
      seen,
    );
    expect(exited, 'the process is still running').to.equal(null);
    const disconnects = events.filter((e) => e.event === 'disconnected');
    expect(disconnects.every((e) => e.reason === 'connection_lost')).to.equal(true);
    const states = events.filter((e) => e.event === 'state').map((e) => e.to);
    expect(states).to.not.include('FAILED');
    const waiting = waits().at(-1);
    expect(waiting?.reconnect).to.include({
      reason: 'connection_lost',
      cause: 'network',
      untilCured: true,
    });
    expect((waiting?.reconnect as { error: string }).error).to.include(
      'net::ERR_NAME_NOT_RESOLVED',
    );
    expect((waiting?.reconnect as { attempt: number }).attempt).to.equal(waits().length);

    // readiness false, liveness true, the cause and the next attempt in REST client info
    const rest = events.find((e) => e.event === 'rest') as unknown as {
      url: string;
      token: string;
    };
    const get = async (route: string) => {
      const response = await fetch(`${rest.url}${route}`, {
        headers: { authorization: `Bearer ${rest.token}` },
      });
      return { status: response.status, json: (await response.json()) as RestBody };
    };
    const ready = await get('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.json.reasons?.join(' ')).to.include('reconnecting until the network');
    expect((await get('/healthz')).status).to.equal(200);
    await waitUntil(
      () => events.at(-1)?.event === 'state' && events.at(-1)?.to === 'DISCONNECTED',
      30_000,
      seen,
    );
    const info = await get('/api/v1/clients/shop/info');
    expect(info.json.reconnect).to.include({ cause: 'network', untilCured: true });
    expect(Number.isNaN(Date.parse(info.json.reconnect?.nextAttemptAt ?? ''))).to.equal(false);

    // WhatsApp Web is back: the next attempt loads it, the phone links, READY
    const built = await writeBuild(path.join(dir, 'staging'), NEWEST_BUILD);
    await copyFile(
      path.join(built, `${NEWEST_BUILD.version}.html`),
      path.join(buildsDir, `${LIBRARY_DEFAULT_VERSION}.html`),
    );
    await waitUntil(() => count('ready') > 0 || exited !== null, 120_000, seen);
    expect(exited, 'the process is still running').to.equal(null);
    expect(count('ready')).to.equal(1);
    expect((await get('/readyz')).status).to.equal(200);
    expect((await get('/api/v1/clients/shop/info')).json.reconnect).to.equal(null);

    child.kill('SIGTERM');
    await waitUntil(() => exited !== null, 30_000, seen);
    expect(exited).to.equal(0);
  });
});
