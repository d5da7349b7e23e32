/**
 * `wakit doctor` through the real CLI in a child process, on a good and on broken machine
 * setups: a missing Chromium, an unusable data directory, an unreachable Redis, an unlinked and
 * a linked client (the simulator reports its build and capabilities like a real engine would).
 */
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { RedisServer } from '../helpers/redis-server.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { doctor } from '../helpers/wakit-doctor.js';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('wakit doctor', function () {
  this.timeout(90_000);
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-doctor-'));
  });
  afterEach(() => cleanup());

  const config = (value: unknown) =>
    writeFile(path.join(dir, 'bot.config.json'), JSON.stringify(value, null, 2));

  it('passes on a good machine: Chromium with its version, the pinned libraries, a private data directory', async () => {
    await mkdir(path.join(dir, 'data'), { mode: 0o700 });
    await config({
      engine: { type: 'whatsapp-web.js' },
      auth: { type: 'local', dataPath: './data' },
      clients: ['bot'],
    });
    const { code, out } = await doctor(dir);
    expect(out).to.match(/✔ Node\.js: \d+\.\d+\.\d+ \(wakit needs >=/);
    expect(out).to.match(/✔ Chromium: \/\S+ \(Chromium \d+/);
    expect(out).to.include('✔ whatsapp-web.js: 1.34.7 (the version wakit');
    expect(out).to.match(/✔ puppeteer: \d+\.\d+\.\d+/);
    expect(out).to.match(/✔ data directory: \S+\/data is writable and private \(mode 700\)/);
    expect(out).to.include('✔ outbox (SQLite): the native module better-sqlite3 loads');
    expect(out).to.include('– Redis: no cluster configured');
    expect(out).to.include('✔ this machine can run this config');
    expect(code).to.equal(0);
  });

  it('fails on a broken machine: no Chromium at the configured path, a data path under a file; each problem with its fix', async () => {
    await writeFile(path.join(dir, 'not-a-dir'), 'x');
    await config({
      engine: { type: 'whatsapp-web.js', executablePath: '/opt/nowhere/chromium' },
      auth: { type: 'local', dataPath: './not-a-dir/sessions' },
    });
    const { code, out } = await doctor(dir);
    expect(code).to.equal(1);
    expect(out).to.include(
      '✖ Chromium: No Chromium found at /opt/nowhere/chromium (engine.executablePath)',
    );
    expect(out).to.match(/✖ Chromium[^\n]*\n {4}fix: .*(apt-get install|executablePath)/);
    expect(out).to.match(/✖ data directory: \S+not-a-dir\/sessions cannot be used \(ENOTDIR\)/);
    expect(out).to.match(/✖ data directory[^\n]*\n {4}fix: /);
    expect(out).to.include('✖ something blocks this config: fix the problems marked ✖');

    // a data directory that others can read is a warning, not a blocker
    await mkdir(path.join(dir, 'open'), { mode: 0o755 });
    await config({ engine: { type: 'simulator' }, auth: { type: 'local', dataPath: './open' } });
    const open = await doctor(dir);
    expect(open.out).to.match(
      /! data directory: .* readable by others \(mode 755\)\n {4}fix: .*chmod 700/,
    );
    expect(open.out).to.include('– Chromium: not needed by the simulator');
    expect(open.out).to.include('(1 warning(s))');
    expect(open.code).to.equal(0);
  });

  describe('fleet: Redis and GCS', () => {
    let gcs: Server;
    let gcsUrl: string;
    before(async () => {
      gcs = createServer((_req, res) => res.writeHead(404).end());
      await new Promise<void>((resolve) => gcs.listen(0, '127.0.0.1', resolve));
      gcsUrl = `http://127.0.0.1:${(gcs.address() as { port: number }).port}`;
    });
    after(() => new Promise((resolve) => gcs.close(resolve)));

    const fleet = (redisPort: number) =>
      config({
        engine: { type: 'simulator' },
        auth: {
          type: 'remote',
          dataPath: './cache',
          storage: { projectId: 'p', bucket: 'sessions', apiEndpoint: gcsUrl },
        },
        cluster: { type: 'redis', url: `redis://127.0.0.1:${redisPort}/0` },
      });

    it('names an unreachable Redis as a blocker, and passes with a running one', async () => {
      const port = await closedPort();
      await fleet(port);
      const down = await doctor(dir);
      expect(down.code).to.equal(1);
      expect(down.out).to.include(`✖ Redis: 127.0.0.1:${port} is not reachable (ECONNREFUSED)`);
      expect(down.out).to.match(
        /✖ Redis[^\n]*\n {4}fix: start Redis there, or correct cluster\.url/,
      );
      expect(down.out).to.include(`✔ GCS: ${gcsUrl} answers (bucket sessions)`);
      expect(down.out).to.include('– outbox (SQLite): the fleet keeps the outbox in Redis');

      const redis = await RedisServer.start();
      try {
        await fleet(redis.port);
        const up = await doctor(dir);
        expect(up.out).to.include(`✔ Redis: 127.0.0.1:${redis.port} answers`);
        expect(up.code).to.equal(0);
      } finally {
        await redis.stop();
      }
    });
  });

  describe('--client', () => {
    it('reports the build, every capability and the broken ones of a linked client; an unlinked one is a blocker', async () => {
      await config({
        engine: {
          type: 'simulator',
          autoScanMs: 1,
          build: { version: '2.3000.5-sim', broken: ['media.download'] },
        },
        auth: { type: 'local', dataPath: './data' },
        queue: { persistence: 'memory' },
      });
      const linked = await doctor(dir, ['--client', 'bot', '--timeout', '10000']);
      expect(linked.out).to.include('✖ client bot: WhatsApp Web: build 2.3000.5-sim');
      expect(linked.out).to.match(/ {4}fix: broken: media\.download\. Upgrade wakit/);
      expect(linked.out).to.include('✔   capability send.text: works');
      expect(linked.out).to.match(/✖ {3}capability media\.download: broken: InvalidMediaFileType/);
      expect(linked.code).to.equal(1);

      await config({
        engine: { type: 'simulator', build: { version: '2.3000.6-sim' } },
        auth: { type: 'local', dataPath: './data' },
        queue: { persistence: 'memory' },
      });
      const healthy = await doctor(dir, ['--client', 'bot', '--timeout', '10000']);
      expect(healthy.out).to.include('✔ client bot: WhatsApp Web: build 2.3000.6-sim');
      expect(healthy.code).to.equal(0);

      const unlinked = await doctor(dir, ['--client', 'other', '--timeout', '10000']);
      expect(unlinked.out).to.include('✖ client other: is not linked');
      expect(unlinked.out).to.match(/ {4}fix: link it first/);
      expect(unlinked.code).to.equal(1);
    });
  });
});
