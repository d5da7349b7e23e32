import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { runCli } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { waitForOutput } from '../quick-start/shell.js';

const BIN = path.resolve('bin/wakit.js');
const TOKEN = '9b1e5c0d7a3f4e2b8c6d1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d';

function bufferIo(): CliIo & { text: () => string } {
  const lines: string[] = [];
  return {
    out: (t) => void lines.push(t),
    err: (t) => void lines.push(t),
    text: () => lines.join('\n'),
  };
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port }),
    );
  });
}

describe('wakit CLI niceties', function () {
  this.timeout(60_000);
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-cli-'));
  });
  afterEach(() => cleanup());

  it('--version prints the package version; --help has examples', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const version = bufferIo();
    expect(await runCli(['--version'], version)).to.equal(0);
    expect(version.text().trim()).to.equal(pkg.version);
    const help = bufferIo();
    expect(await runCli(['--help'], help)).to.equal(0);
    expect(help.text())
      .to.include('Examples:')
      .and.include('npm create wakit@latest my-bot')
      .and.include('wakit dev --port');
    const dev = bufferIo();
    expect(await runCli(['dev', '--help'], dev)).to.equal(0);
    expect(dev.text()).to.include('--port').and.include('--watch');
  });

  it('a busy port stops `wakit dev --port` with ADDRESS_IN_USE and what to do, no stack trace', async () => {
    const { server, port } = await listen();
    try {
      await writeFile(
        path.join(dir, 'bot.config.json'),
        JSON.stringify({
          auth: { type: 'local' },
          clients: ['bot'],
          log: { level: 'silent' },
          plugins: { rest: { tokens: [{ token: TOKEN }] } },
        }),
      );
      const io = bufferIo();
      const code = await runCli(
        ['dev', '-c', path.join(dir, 'bot.config.json'), '--port', String(port)],
        io,
      );
      expect(code).to.equal(1);
      expect(io.text())
        .to.include('ADDRESS_IN_USE')
        .and.include(`:${port}`)
        .and.include('--port')
        .and.not.match(/\n\s+at /);
    } finally {
      server.close();
    }
  });

  it('--port refuses a bad number', async () => {
    const io = bufferIo();
    expect(await runCli(['dev', '--port', 'http'], io)).to.equal(1);
    expect(io.text()).to.include('--port http');
  });

  it('dev --watch restarts the bot when a plugin changes, and stops on SIGINT', async () => {
    await mkdir(path.join(dir, 'plugins'));
    const plugin = (word: string) =>
      `export default { name: 'say', setup(ctx) { ctx.command('say', (cmd) => cmd.reply('${word}')); } };\n`;
    await writeFile(path.join(dir, 'plugins', 'say.mjs'), plugin('one'));
    await writeFile(
      path.join(dir, 'bot.config.json'),
      JSON.stringify({
        auth: { type: 'local' },
        clients: ['bot'],
        log: { level: 'warn' },
        plugins: { './plugins/say.mjs': {} },
      }),
    );
    const child = spawn(process.execPath, [BIN, 'dev', '--watch', '--auto-scan', '10'], {
      cwd: dir,
      env: process.env,
    });
    const exited = exitOf(child);
    try {
      await waitForOutput(child, /\[bot\] READY/);
      const restarted = waitForOutput(
        child,
        /plugins\/say\.mjs changed: restarting[\s\S]*\[bot\] READY/,
      );
      await writeFile(path.join(dir, 'plugins', 'say.mjs'), plugin('two'));
      await restarted;
      // the restarted bot runs the new plugin code: the terminal chat shows its answer
      const answer = waitForOutput(child, /\[bot → you\]: two/);
      child.stdin.write('!say\n');
      await answer;
      child.kill('SIGINT');
      expect(await exited).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
