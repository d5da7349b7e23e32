// The README's quick start, tried the way a new user would: both packages packed with `npm pack`,
// a project made by the create-wakit tarball (what `npm create wakit` runs) in a temp directory,
// installed from the wakitjs tarball, its own tests run (also with a webhook configured: none is
// delivered), `wakit dev` started, the README's REST and SDK examples run as written (only the
// port is changed), the docs' import specifiers checked, and `npm run demo` on a taken port.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { run, shellBlock, userEnv, waitForOutput } from './shell.js';

const REPO = path.resolve('.');
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A webhook receiver on loopback that counts the requests it gets. */
async function webhookReceiver(): Promise<{ server: Server; url: string; received: number }> {
  const hook = { server: createHttpServer(), url: '', received: 0 };
  hook.server.on('request', (_req, res) => {
    hook.received += 1;
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
  hook.url = `http://127.0.0.1:${(hook.server.address() as { port: number }).port}/hook`;
  return hook;
}

async function pack(dir: string, into: string): Promise<string> {
  const before = new Set(await readdir(into));
  const result = await run('npm', ['pack', '--pack-destination', into], dir, userEnv());
  expect(result.code, result.output).to.equal(0);
  const made = (await readdir(into)).filter((f) => f.endsWith('.tgz') && !before.has(f));
  expect(made, result.output).to.have.length(1);
  return path.join(into, made[0] ?? '');
}

describe('quick start walkthrough (npm pack → npm create → npm test → wakit dev → README examples)', function () {
  // an install compiles better-sqlite3 from source here (no prebuilt binary): minutes on a busy machine
  this.timeout(900_000);
  let tmp: string;
  let wakitTgz: string;
  let createTgz: string;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'wakit-quick-start-'));
    const tarballs = path.join(tmp, 'tarballs');
    await mkdir(tarballs);
    // one after the other: both write into the npm cache
    wakitTgz = await pack(REPO, tarballs);
    createTgz = await pack(path.join(REPO, 'packages', 'create-wakit'), tarballs);
  });
  after(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** `npm create wakit <args>` with the create-wakit tarball; the bot depends on the wakitjs tarball. */
  const create = (args: string[]) =>
    run(
      'npm',
      ['exec', '--yes', `--package=${createTgz}`, '--', 'create-wakit', ...args],
      tmp,
      userEnv({ WAKIT_DEPENDENCY: `file:${wakitTgz}` }),
    );

  it('the packages are ours: wakitjs with the wakit bin, create-wakit at the same version', async () => {
    const pkg = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    const creator = JSON.parse(
      await readFile(path.join(REPO, 'packages/create-wakit/package.json'), 'utf8'),
    ) as { name: string; version: string };
    expect(pkg.name).to.equal('wakitjs');
    expect(pkg.bin).to.have.key('wakit');
    expect(pkg.scripts.prepare).to.match(/tsup/);
    expect(creator).to.include({ name: 'create-wakit', version: pkg.version });
    expect(path.basename(wakitTgz)).to.equal(`wakitjs-${pkg.version}.tgz`);
  });

  it('basic: scaffolds, installs, and `npm test` runs every test file (and fails when one fails)', async () => {
    const created = await create(['my-bot']);
    expect(created.code, created.output).to.equal(0);
    expect(created.output).to.include('Next steps').and.include('npm run dev');
    const project = path.join(tmp, 'my-bot');
    const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies).to.deep.equal({ wakitjs: `file:${wakitTgz}` });
    const readme = await readFile(path.join(project, 'README.md'), 'utf8');
    expect(readme).to.include('npmjs.com/package/wakitjs').and.not.include('package/wakit)');

    const version = await run(
      path.join(project, 'node_modules/.bin/wakit'),
      ['--version'],
      project,
      userEnv(),
    );
    expect(version.output.trim()).to.match(/^\d+\.\d+\.\d+/);

    await mkdir(path.join(project, 'test', 'more'));
    await writeFile(
      path.join(project, 'test', 'more', 'mine.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
        "import { WakitError } from 'wakitjs';\n" +
        "test('my own test runs too', () => assert.equal(new WakitError('TIMEOUT', 'x').code, 'TIMEOUT'));\n",
    );
    // the subpath entries from the packed package: one WakitError class across entries, at run
    // time (one bundle with shared chunks) and for the type checker (declarations per module)
    await writeFile(
      path.join(project, 'test', 'more', 'entries.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
        "import { WakitError } from 'wakitjs';\nimport { issueError } from 'wakitjs/http';\n" +
        "import { parseChatId } from 'wakitjs/contract';\nimport type { ChatData } from 'wakitjs/types';\n" +
        "const made: WakitError = issueError('CONFIG_INVALID', 'bad', []);\n" +
        'export const none: ChatData | undefined = undefined;\n' +
        "test('the entries share one WakitError', () => {\n" +
        '  assert.ok(made instanceof WakitError);\n' +
        "  assert.throws(() => parseChatId('x'), WakitError);\n});\n",
    );
    // docs/plugins.md's plugin and its test, as written: they typecheck with the template's
    // tsconfig (a .ts import) and `npm test` runs them too
    const pluginsDoc = await readFile(path.join(REPO, 'docs', 'plugins.md'), 'utf8');
    await writeFile(
      path.join(project, 'plugins', 'echo.ts'),
      shellBlock(pluginsDoc, '# Plugins', '// plugins/echo.ts'),
    );
    await writeFile(
      path.join(project, 'test', 'echo.test.ts'),
      shellBlock(pluginsDoc, '# Plugins', "import echo from '../plugins/echo.ts'"),
    );
    const typecheck = await run(
      path.join(project, 'node_modules/.bin/tsc'),
      ['--noEmit', '-p', '.'],
      project,
      userEnv(),
    );
    expect(typecheck.code, typecheck.output).to.equal(0);

    const tested = await run('npm', ['test'], project, userEnv());
    expect(tested.code, tested.output).to.equal(0);
    expect(tested.output)
      .to.include('my own test runs too')
      .and.match(/# pass 10\b/); // hello 3, order 4 (with handoff), and the three written above

    await writeFile(
      path.join(project, 'test', 'more', 'broken.test.ts'),
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
        "test('a failing test', () => assert.equal(1, 2));\n",
    );
    const failing = await run('npm', ['test'], project, userEnv());
    expect(failing.code, failing.output).to.not.equal(0);
    expect(failing.output).to.match(/# fail 1\b/);
  });

  it('`npm run demo` with its port taken: a plain ADDRESS_IN_USE with what to do, no stack trace', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const demo = await run('npm', ['run', 'demo'], REPO, userEnv({ PORT: String(port) }));
      expect(demo.code).to.equal(1);
      expect(demo.output)
        .to.include(`[ADDRESS_IN_USE] Port ${port} is already in use`)
        .and.include(`PORT=${port + 1} npm run demo`);
      expect(demo.output).to.not.match(/\n\s+at |EADDRINUSE|Symbol\(wakit\.error\)/);
    } finally {
      holder.close();
    }
    const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
    expect(readme).to.include('PORT=3001 npm run demo');
  });

  it('refuses to scaffold inside another npm package', async () => {
    const outer = path.join(tmp, 'some-package');
    await mkdir(outer);
    await writeFile(path.join(outer, 'package.json'), '{"name":"some-package"}');
    const refused = await run(
      'npm',
      ['exec', '--yes', `--package=${createTgz}`, '--', 'create-wakit', 'inner', '--no-install'],
      outer,
      userEnv(),
    );
    expect(refused.code).to.not.equal(0);
    expect(refused.output).to.include('inside the npm package').and.include('--inside-package');
    expect(await readdir(outer)).to.deep.equal(['package.json']);
  });

  it('rest-api: `wakit dev` refuses the placeholder token, then the README REST and SDK examples work', async () => {
    // Installing compiles better-sqlite3 from source where no prebuilt binary can be downloaded
    // (this machine): one real install (the basic project's, above) serves both projects, whose
    // dependencies are the same.
    const created = await create(['my-api', '--template', 'rest-api', '--no-install']);
    expect(created.code, created.output).to.equal(0);
    const project = path.join(tmp, 'my-api');
    const deps = async (dir: string) =>
      JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
        dependencies: unknown;
        devDependencies: unknown;
      };
    const [api, basic] = await Promise.all([deps(project), deps(path.join(tmp, 'my-bot'))]);
    expect([api.dependencies, api.devDependencies]).to.deep.equal([
      basic.dependencies,
      basic.devDependencies,
    ]);
    await symlink(
      path.join(tmp, 'my-bot', 'node_modules'),
      path.join(project, 'node_modules'),
      'dir',
    );
    const tested = await run('npm', ['test'], project, userEnv());
    expect(tested.code, tested.output).to.equal(0);

    // docs/rest-api.md's webhook, its secret in .env: `npm test` passes and delivers nothing
    const configFile = path.join(project, 'bot.config.json');
    const original = await readFile(configFile, 'utf8');
    const config = JSON.parse(original) as { plugins: { rest: Record<string, unknown> } };
    const hook = await webhookReceiver();
    try {
      config.plugins.rest.webhooks = [{ url: hook.url, secret: '${WAKIT_WEBHOOK_SECRET}' }];
      await writeFile(configFile, JSON.stringify(config, null, 2));
      const unset = await run('npm', ['test'], project, userEnv());
      expect(unset.code).to.not.equal(0);
      expect(unset.output)
        .to.include('WAKIT_WEBHOOK_SECRET')
        .and.include('.env')
        .and.not.include("reading 'stop'");
      await writeFile(
        path.join(project, '.env'),
        'WAKIT_WEBHOOK_SECRET=whsec-0123456789abcdef0123\n',
      );
      const withHook = await run('npm', ['test'], project, userEnv());
      expect(withHook.code, withHook.output).to.equal(0);
      expect(hook.received).to.equal(0);
    } finally {
      hook.server.close();
      await writeFile(configFile, original);
    }

    const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
    const port = await freePort();
    const wakit = path.join(project, 'node_modules/.bin/wakit');

    // copying .env.example as it is: the placeholder token is refused with a hint
    await writeFile(path.join(project, '.env'), await readFile(path.join(project, '.env.example')));
    const placeholder = await run(wakit, ['dev', '--port', String(port)], project, userEnv());
    expect(placeholder.code).to.equal(1);
    expect(placeholder.output).to.include('placeholder').and.include('openssl rand -hex 32');

    // the README's set-up line writes a real token
    const setup = shellBlock(readme, '## The REST API', 'npm run dev');
    const tokenLine = setup.split('\n').find((l) => l.startsWith('echo "WAKIT_REST_TOKEN='));
    expect(tokenLine).to.be.a('string');
    const wrote = await run('bash', ['-ec', tokenLine ?? ''], project, userEnv());
    expect(wrote.code, wrote.output).to.equal(0);

    const dev = spawn(wakit, ['dev', '--port', String(port)], { cwd: project, env: userEnv() });
    try {
      await waitForOutput(dev, /\[bot\] READY[\s\S]*Chat with bot here/);
      const curls = shellBlock(readme, '## The REST API', 'curl').replaceAll(
        'localhost:3000',
        `localhost:${port}`,
      );
      const hello = waitForOutput(dev, /\[bot → you\]: hello/);
      const rest = await run('bash', ['-ec', curls], project, userEnv());
      expect(rest.code, rest.output).to.equal(0);
      expect(rest.output).to.include('"status":"READY"').and.include('"id"');
      await hello;

      // the terminal chat: a line is sent by the simulated contact, the bot's answer is printed
      const pong = waitForOutput(dev, /\[bot → you\]: pong/);
      dev.stdin.write('ping\n');
      await pong;
      await writeFile(path.join(project, 'cat.png'), TINY_PNG);
      const image = waitForOutput(dev, /\[you → bot\] \[image\/png\] cat\.png/);
      dev.stdin.write('/image ./cat.png a cat\n');
      await image;

      const stopped = waitForOutput(dev, /Stopped\./);
      dev.kill('SIGINT');
      await stopped;
    } finally {
      if (dev.exitCode === null) dev.kill('SIGKILL');
    }

    // the README's simulator SDK example, as written
    const example = shellBlock(readme, '## The SDK', "sdk.simulator.phone('15550001111'");
    await writeFile(path.join(project, 'sdk-example.ts'), example);
    const sdkRun = await run(
      path.join(project, 'node_modules/.bin/tsx'),
      ['sdk-example.ts'],
      project,
      userEnv(),
    );
    expect(sdkRun.code, sdkRun.output).to.equal(0);
    expect(sdkRun.output).to.include('Alice got: Hello from wakit').and.include('Alice got: pong');
  });
});
