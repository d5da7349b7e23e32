import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { runBot } from '../../src/cli/run.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

function bufferIo(): CliIo & { errors: string[]; text: () => string } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    out: (t) => void lines.push(t),
    err: (t) => void (lines.push(t), errors.push(t)),
    errors,
    text: () => lines.join('\n'),
  };
}

/** A bot whose clients cannot start: their session directories are files. Reconnects off. */
async function failingBot(dir: string, sessions: string, extra: object = {}): Promise<string> {
  await mkdir(sessions, { recursive: true, mode: 0o700 });
  for (const name of ['bot', 'two']) await writeFile(path.join(sessions, name), 'not a directory');
  const file = path.join(dir, 'bot.config.json');
  await writeFile(
    file,
    JSON.stringify({
      engine: { type: 'simulator' },
      auth: { type: 'local', dataPath: './sessions' },
      clients: ['bot', 'two'],
      reconnect: { maxAttempts: 0 },
      log: { level: 'fatal' },
      ...extra,
    }),
  );
  return file;
}

describe('wakit start / dev when every client is FAILED (watchdog.exitOnAllFailed)', function () {
  this.timeout(30_000);
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-failed-'));
  });
  afterEach(() => cleanup());

  it('start exits 1 with one plain line per client saying why, then one saying what it does', async () => {
    const file = await failingBot(dir, path.join(dir, 'sessions'));
    const io = bufferIo();
    expect(await runCli(['start', '-c', file], io)).to.equal(1);
    const failed = io.errors.filter((line) => line.includes('FAILED:'));
    expect(failed).to.have.length(2);
    for (const name of ['bot', 'two']) {
      expect(failed.find((line) => line.startsWith(`[${name}] FAILED: `))).to.include(
        `could not read the saved session of "${name}"`,
      );
    }
    expect(io.errors.at(-1)).to.equal(
      'wakit start: every client is FAILED; exiting with code 1 so a supervisor restarts wakit (watchdog.exitOnAllFailed).',
    );
    expect(io.text()).to.include('Stopped.');
  });

  it('start keeps running when the config turns the policy off', async () => {
    const file = await failingBot(dir, path.join(dir, 'sessions'), {
      watchdog: { exitOnAllFailed: false },
    });
    const io = bufferIo();
    const bot = await runBot({ config: file, dev: false }, io);
    try {
      await until(() => io.text().includes('still running'));
      expect(io.errors.filter((line) => line.includes('FAILED:'))).to.have.length(2);
    } finally {
      await bot.stop();
    }
    expect(await bot.done).to.equal(0);
  });

  it('dev keeps running by default; exitOnAllFailed: true makes it exit 1', async () => {
    // wakit dev keeps its sessions in .wakit/dev-sessions beside the config
    const devSessions = path.join(dir, '.wakit', 'dev-sessions');
    const file = await failingBot(dir, devSessions);
    const io = bufferIo();
    const bot = await runBot({ config: file, dev: true, input: new PassThrough() }, io);
    try {
      await until(() => io.text().includes('still running'));
      expect(io.errors.at(-1)).to.equal(
        'wakit dev: every client is FAILED; still running because watchdog.exitOnAllFailed is off (restart a client, or stop wakit).',
      );
    } finally {
      await bot.stop();
    }
    expect(await bot.done).to.equal(0);

    await failingBot(dir, devSessions, { watchdog: { exitOnAllFailed: true } });
    const strict = await runBot({ config: file, dev: true, input: new PassThrough() }, bufferIo());
    expect(await strict.done).to.equal(1);
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
