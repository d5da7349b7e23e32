import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONTACT_ID, FaultDir, killAll, startServer } from './child-server.js';

const BIN = path.resolve('bin/wakit.js');
const PAGE = 4096;

/** Runs `wakit start` in `dir` (data under ./data) until it exits; its output and exit code. */
function runCli(dir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, 'start', '-c', 'bot.config.json'], {
    cwd: dir,
    env: process.env,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe('faults: a corrupt outbox stops start-up and is never replaced (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
    writeFileSync(
      path.join(dir.dir, 'bot.config.json'),
      JSON.stringify({
        engine: { type: 'simulator', autoScanMs: 10 },
        auth: { type: 'local', dataPath: './data' },
        clients: ['bot'],
        log: { level: 'warn' },
      }),
    );
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('damaged pages (failing the integrity check) and garbage: `wakit start` exits 1 with STORAGE_CORRUPT naming the file, bytes untouched', async () => {
    // A real outbox with unsent messages in it: accepted, left waiting at a SIGTERM.
    const server = await startServer(dir, { queue: { minGapMs: 60_000, drainTimeoutMs: 0 } });
    for (let n = 0; n < 20; n++) {
      const res = await server.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT_ID, content: `waiting-${n}` },
      });
      expect(res.status).to.equal(202);
    }
    expect((await server.kill('SIGTERM')).code).to.equal(0);
    const sound = readFileSync(dir.outbox);
    expect(sound.length).to.be.at.least(3 * PAGE);

    const damaged = Buffer.from(sound);
    damaged.fill(0x5a, PAGE, PAGE + 64); // page 2: the b-tree header of the `sends` table
    const garbage = Buffer.alloc(8 * PAGE, 0x5a);
    for (const [what, bytes] of [
      ['damaged pages', damaged],
      ['garbage', garbage],
    ] as const) {
      writeFileSync(dir.outbox, bytes);
      const before = readdirSync(dir.dataPath).sort();
      const { code, output } = await runCli(dir.dir);
      expect(code, `${what}: ${output}`).to.equal(1);
      expect(output, what).to.contain('STORAGE_CORRUPT').and.contain(dir.outbox);
      expect(output, what).to.match(/restore it from a backup|move it away/);
      expect(output, what).to.not.match(/\n\s+at /); // no stack trace
      expect(readFileSync(dir.outbox).equals(bytes), `${what}: the file is untouched`).to.equal(
        true,
      );
      const after = readdirSync(dir.dataPath)
        .filter((f) => !/^outbox\.db-(wal|shm)$/.test(f))
        .sort();
      expect(after, `${what}: no other outbox made`).to.deep.equal(
        before.filter((f) => !/^outbox\.db-(wal|shm)$/.test(f)),
      );
    }

    // Put back, the sound file starts and its waiting messages go out.
    writeFileSync(dir.outbox, sound);
    const again = await startServer(dir, { queue: { minGapMs: 5 } });
    await again.waitFor('the last waiting send', (l) => l.body === 'waiting-19');
    expect(dir.received().map((r) => r.body)).to.deep.equal(
      Array.from({ length: 20 }, (_, n) => `waiting-${n}`),
    );
    await again.kill('SIGTERM');
  });
});
