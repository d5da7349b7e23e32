import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const BIN = path.resolve('bin/wakit.js');

function bufferIo(): CliIo & { text: () => string } {
  const lines: string[] = [];
  return {
    out: (t) => void lines.push(t),
    err: (t) => void lines.push(t),
    text: () => lines.join('\n'),
  };
}

function waitForOutput(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${String(pattern)} in output:\n${output}`)),
      timeoutMs,
    );
    const onData = (data: Buffer) => {
      output += data.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('wakit CLI', function () {
  this.timeout(60_000);
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-cli-'));
  });
  afterEach(() => cleanup());

  const write = (name: string, value: unknown) =>
    writeFile(
      path.join(dir, name),
      typeof value === 'string' ? value : JSON.stringify(value, null, 2),
    );

  describe('config check', () => {
    it('accepts a valid config and lists clients and plugins', async () => {
      await write('bot.config.json', {
        auth: { type: 'local' },
        clients: ['bot'],
        plugins: { 'auto-reply': { rules: [{ match: 'hi', reply: 'hello' }] }, forwarder: false },
      });
      const io = bufferIo();
      expect(
        await runCli(['config', 'check', '-c', path.join(dir, 'bot.config.json')], io),
      ).to.equal(0);
      expect(io.text())
        .to.include('is valid')
        .and.include('clients: bot')
        .and.include('plugins: auto-reply');
    });

    it('prints every problem and exits 1: schema errors', async () => {
      await write('bot.config.json', {
        auth: { type: 'cloud' },
        queue: { minGapMs: -1 },
        extra: 1,
      });
      const io = bufferIo();
      expect(
        await runCli(['config', 'check', '-c', path.join(dir, 'bot.config.json')], io),
      ).to.equal(1);
      expect(io.text()).to.include('auth').and.include('queue.minGapMs').and.include('extra');
    });

    it('prints every plugin problem with its path, missing env variables and bad JSON', async () => {
      await write('bot.config.json', {
        auth: { type: 'local' },
        plugins: {
          'auto-reply': { rules: [{ match: '(', type: 'regex', reply: 'x' }] },
          './plugins/none.ts': {},
          'media-saver': { dir: './m', path: '../{id}' },
        },
      });
      const io = bufferIo();
      expect(
        await runCli(['config', 'check', '-c', path.join(dir, 'bot.config.json')], io),
      ).to.equal(1);
      expect(io.text())
        .to.include('plugins.auto-reply.rules.0.match')
        .and.include('plugins["./plugins/none.ts"]')
        .and.include('plugins.media-saver.path');

      await write('env.json', { auth: { type: 'local', dataPath: '${WAKIT_TEST_UNSET_VAR}' } });
      const envIo = bufferIo();
      expect(await runCli(['config', 'check', '-c', path.join(dir, 'env.json')], envIo)).to.equal(
        1,
      );
      expect(envIo.text()).to.include('WAKIT_TEST_UNSET_VAR');

      await write('broken.json', '{ "auth": ');
      const jsonIo = bufferIo();
      expect(
        await runCli(['config', 'check', '-c', path.join(dir, 'broken.json')], jsonIo),
      ).to.equal(1);
      expect(jsonIo.text()).to.include('not valid JSON');

      const missingIo = bufferIo();
      expect(
        await runCli(['config', 'check', '-c', path.join(dir, 'nope.json')], missingIo),
      ).to.equal(1);
      expect(missingIo.text()).to.include('Cannot read config file');
    });
  });

  it('config schema prints the JSON Schema', async () => {
    const io = bufferIo();
    expect(await runCli(['config', 'schema'], io)).to.equal(0);
    const schema = JSON.parse(io.text()) as { properties: Record<string, unknown> };
    expect(schema.properties).to.include.keys(
      'engine',
      'auth',
      'clients',
      'queue',
      'plugins',
      'commands',
    );
  });

  it('start exits non-zero with a clear message on a bad config', async () => {
    await write('bot.config.json', { auth: { type: 'local' }, clients: ['bad name!'] });
    const io = bufferIo();
    expect(await runCli(['start', '-c', path.join(dir, 'bot.config.json')], io)).to.equal(1);
    expect(io.text()).to.include('wakit: ').and.include('clients.0').and.include('CONFIG_INVALID');
  });

  it('unknown commands exit non-zero', async () => {
    const io = bufferIo();
    expect(await runCli(['launch'], io)).to.not.equal(0);
    expect(io.text()).to.include("unknown command 'launch'");
  });

  it('dev runs the bot on the simulator with its plugins, prints READY, and stops on SIGINT', async () => {
    await write('bot.config.json', {
      auth: { type: 'local', dataPath: './sessions' },
      clients: ['bot'],
      log: { level: 'warn' },
      plugins: { 'auto-reply': { rules: [{ match: 'hi', reply: 'hello' }] } },
    });
    const child = spawn(process.execPath, [BIN, 'dev', '--auto-scan', '10'], {
      cwd: dir,
      env: process.env,
    });
    const exited = exitOf(child);
    try {
      const output = await waitForOutput(child, /\[bot\] READY/);
      expect(output).to.include('wakit dev (simulator engine)').and.include('plugins: auto-reply');
      const stopped = waitForOutput(child, /Stopped\./);
      child.kill('SIGINT');
      await stopped;
      expect(await exited).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('SIGTERM stops `wakit dev` gracefully too', async () => {
    await write('bot.config.json', {
      auth: { type: 'local' },
      clients: ['a', 'b'],
      log: { level: 'warn' },
    });
    const child = spawn(process.execPath, [BIN, 'dev', '-c', 'bot.config.json'], {
      cwd: dir,
      env: process.env,
    });
    const exited = exitOf(child);
    try {
      await waitForOutput(child, /\[a\] READY[\s\S]*\[b\] READY|\[b\] READY[\s\S]*\[a\] READY/);
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
