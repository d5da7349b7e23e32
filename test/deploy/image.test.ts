// The image built and run for real, with rootful podman standing in for Docker: the container
// stays up and serves (/healthz, /readyz, HEALTHCHECK's own command, the token API, a bot's
// plugin importing `wakitjs`), as the non-root user 10001 with its data in the volume, under
// Docker's default seccomp profile (fixtures/moby-seccomp-default.json: seccomp/default.json of
// moby/profiles at 3c28324314729dbade8287e868eef6338c42807a, verbatim) where Chromium must
// start; SIGTERM stops it with exit 0 within the grace period; the same through compose.yaml.
// Timings go to the test output. Everything podman keeps is in /var/tmp/wakit-image-test.
import { expect } from 'chai';
import { chown, cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dockerfileBase, ensureBaseImage } from './base-image.js';
import { createPodman, exec, podmanUnusable, type Podman } from './podman.js';
import { ContainerProbe, freePort, until } from './probe.js';

const REPO = path.resolve('.');
const STATE_DIR = process.env.WAKIT_IMAGE_TEST_DIR ?? '/var/tmp/wakit-image-test';
const SECCOMP = path.resolve('test/deploy/fixtures/moby-seccomp-default.json');
const IMAGE = 'localhost/wakit-image-test:latest';
const TOKEN = 'image-test-token-0123456789abcdef';
const PHONE = '15550001111';
const UID = '10001';
/** What the test gives a container to stop: compose.yaml's stop_grace_period. */
const GRACE_S = 30;

/** A bot as `npm create wakit` makes it (package.json, plugins/hello.ts importing wakitjs). */
async function scaffoldBot(dir: string, engine: object, rest = true): Promise<void> {
  await mkdir(path.join(dir, 'plugins'), { recursive: true });
  await cp(path.join(REPO, 'templates/basic/package.json'), path.join(dir, 'package.json'));
  await cp(path.join(REPO, 'templates/basic/plugins'), path.join(dir, 'plugins'), {
    recursive: true,
  });
  const config = {
    engine,
    auth: { type: 'local' },
    clients: ['bot'],
    log: { level: 'info' },
    plugins: {
      ...(rest ? { rest: { host: '0.0.0.0', tokens: [{ token: '${WAKIT_REST_TOKEN}' }] } } : {}),
      './plugins/hello.ts': { greeting: 'Hello' },
    },
  };
  await writeFile(path.join(dir, 'bot.config.json'), JSON.stringify(config, null, 2));
}

describe('the image, built and run (rootful podman)', function () {
  // a cold build takes 2-3 min on an idle 2-core machine, 15 when it is shared and busy
  this.timeout(45 * 60_000);
  let podman: Podman;
  let work: string;
  const timings: string[] = [];
  const containers: string[] = [];
  const volumes: string[] = [];

  before(async function () {
    const unusable = await podmanUnusable();
    if (unusable) throw new Error(`the image test cannot run: ${unusable}`);
    podman = await createPodman(STATE_DIR);
    const info = await podman.run(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
    if (info.code !== 0) throw new Error(`the image test cannot run: podman info: ${info.stderr}`);
    work = await mkdtemp(path.join(os.tmpdir(), 'wakit-image-'));

    const base = await ensureBaseImage(podman, await dockerfileBase(path.join(REPO, 'Dockerfile')));
    timings.push(`base ${base.image}: ${(base.ms / 1000).toFixed(0)} s (${base.how})`);
    // npm inside the build must reach the registry over TLS (this network re-signs it): said
    // plainly here rather than as an npm error deep in a long build
    const network = await podman.run(
      [
        'run',
        '--rm',
        ...podman.ulimitFlags,
        base.image,
        'node',
        '-e',
        "fetch('https://registry.npmjs.org/better-sqlite3', { method: 'HEAD' }).then((r) => process.exit(r.ok ? 0 : 2))",
      ],
      { timeoutMs: 60_000 },
    );
    if (network.code !== 0) {
      throw new Error(
        `containers cannot reach the npm registry over TLS (exit ${network.code}); the build needs it: ${network.stderr.slice(-1500)}`,
      );
    }

    const started = Date.now();
    await podman.ok(
      [
        'build',
        '--format',
        'docker',
        '--pull=never',
        '--jobs=2', // the runtime stage's apt-get runs while the build stage compiles
        ...podman.ulimitFlags,
        '-t',
        IMAGE,
        '-f',
        path.join(REPO, 'Dockerfile'),
        REPO,
      ],
      { timeoutMs: 35 * 60_000 },
    );
    timings.push(`build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });

  after(async function () {
    for (const name of containers) await podman?.run(['rm', '-f', '-v', '-t', '0', name]);
    for (const name of volumes) await podman?.run(['volume', 'rm', '-f', name]);
    if (work) await rm(work, { recursive: true, force: true });
    if (timings.length > 0) console.log(`      image test timings: ${timings.join('; ')}`);
  });

  /** `podman run -d` under Docker's default seccomp profile, as the image's own user. */
  async function runContainer(name: string, args: string[]): Promise<ContainerProbe> {
    await podman.run(['rm', '-f', '-v', '-t', '0', name]);
    containers.push(name);
    await podman.ok([
      'run',
      '-d',
      '--name',
      name,
      '--security-opt',
      `seccomp=${SECCOMP}`,
      ...podman.ulimitFlags,
      ...args,
      IMAGE,
    ]);
    return new ContainerProbe(podman, name);
  }

  it('the final image has no compilers and keeps its HEALTHCHECK (docker format)', async () => {
    const compilers = await podman.run([
      'run',
      '--rm',
      ...podman.ulimitFlags,
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      'for t in gcc g++ cc make python3; do command -v $t; done; true',
    ]);
    expect(compilers.stdout.trim(), 'compilers in the final image').to.equal('');
    const health = await podman.ok([
      'image',
      'inspect',
      '--format',
      '{{json .HealthCheck}}',
      IMAGE,
    ]);
    expect(health).to.include('/healthz');
  });

  it('a host directory prepared as docs/deploy.md says (uid 10001, 0700) works as /data', async () => {
    const host = path.join(work, 'bind-data');
    await mkdir(host, { mode: 0o700 });
    await chown(host, Number(UID), Number(UID));
    await podman.ok([
      'run',
      '--rm',
      ...podman.ulimitFlags,
      '-v',
      `${host}:/data`,
      '--entrypoint',
      'node',
      IMAGE,
      '-e',
      "require('fs').mkdirSync('/data/sessions', { mode: 0o700 })",
    ]);
    expect((await stat(path.join(host, 'sessions'))).uid).to.equal(Number(UID));
  });

  it('.dockerignore keeps secrets out of the build context: bot/.env, nested .env, sessions', async () => {
    // a context shaped like a checkout with a bot folder beside the Dockerfile
    const context = path.join(work, 'context');
    const files = {
      'package.json': '{}',
      'src/index.ts': '',
      'src/.env': 'SECRET=1',
      'bot/.env': 'WAKIT_REST_TOKEN=secret',
      'bot/bot.config.json': '{}',
      'plugins/rest/.env.production': 'SECRET=1',
      'templates/rest-api/.env.example': 'WAKIT_REST_TOKEN=',
      '.wakit/sessions/bot/session.bin': 'session',
      'templates/basic/node_modules/x/index.js': '',
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(context, file)), { recursive: true });
      await writeFile(path.join(context, file), text);
    }
    await cp(path.join(REPO, '.dockerignore'), path.join(context, '.dockerignore'));
    const base = await dockerfileBase(path.join(REPO, 'Dockerfile'));
    await writeFile(
      path.join(context, 'Dockerfile.context'),
      `FROM ${base}\nCOPY . /context\nRUN cd /context && find . -type f | sort\n`,
    );
    const out = await podman.ok([
      'build',
      '--pull=never',
      '--no-cache',
      ...podman.ulimitFlags,
      '-f',
      path.join(context, 'Dockerfile.context'),
      context,
    ]);
    const listed = out.split('\n').filter((line) => line.startsWith('./'));
    expect(listed).to.include.members([
      './package.json',
      './src/index.ts',
      './templates/rest-api/.env.example',
    ]);
    for (const secret of [
      './src/.env',
      './bot/.env',
      './bot/bot.config.json',
      './plugins/rest/.env.production',
      './.wakit/sessions/bot/session.bin',
      './templates/basic/node_modules/x/index.js',
    ]) {
      expect(listed, secret).to.not.include(secret);
    }
  });

  it('runs a scaffolded bot: stays up, serves, non-root, data in the volume, SIGTERM exits 0', async () => {
    const started = Date.now();
    const bot = path.join(work, 'bot');
    await scaffoldBot(bot, { type: 'simulator', autoScanMs: 300 });
    const port = await freePort();
    const volume = 'wakit-image-test-data';
    await podman.run(['volume', 'rm', '-f', volume]);
    volumes.push(volume);
    const c = await runContainer('wakit-image-test', [
      '-e',
      `WAKIT_REST_TOKEN=${TOKEN}`,
      '-v',
      `${volume}:/data`,
      '-v',
      `${bot}:/app/bot:ro`,
      '-p',
      `127.0.0.1:${port}:3000`,
    ]);
    const url = `http://127.0.0.1:${port}`;

    await c.waitForLog(/\[bot\] READY/, 60_000);
    expect(await c.logs()).to.match(/plugins: .*hello/);
    // liveness and readiness
    expect(await c.json(`${url}/healthz`)).to.deep.equal({
      status: 200,
      body: { status: 'ok', reasons: [] },
    });
    await until(async () => (await c.json(`${url}/readyz`)).status === 200, 30_000);
    const api = (route: string, body?: unknown) =>
      fetch(`${url}${route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    let inbox: string[] = [];
    const received = (text: string) =>
      until(async () => {
        const res = await api(`/api/v1/simulator/phones/${PHONE}/inbox`);
        inbox = ((await res.json()) as { body: string }[]).map((m) => m.body);
        return inbox.includes(text);
      }, 15_000).catch((error: unknown) => {
        throw new Error(
          `"${text}" not received; the inbox: ${JSON.stringify(inbox)}; ${String(error)}`,
        );
      });
    // the bot's plugin (import 'wakitjs') answers a simulated contact
    const ping = await api(`/api/v1/simulator/phones/${PHONE}/messages`, { text: 'ping' });
    expect(ping.status, await ping.clone().text()).to.equal(201);
    await received('pong');
    // the token API: refused without the token, a 202 send with it
    expect((await fetch(`${url}/api/v1/messages`, { method: 'POST' })).status).to.equal(401);
    const send = await api('/api/v1/messages', { chatId: PHONE, content: 'from the image test' });
    expect(send.status, await send.clone().text()).to.equal(202);
    await received('from the image test');
    // HEALTHCHECK's own command
    const check = await podman.run(['healthcheck', 'run', c.name]);
    expect(check.code, `healthcheck run: ${check.stdout}${check.stderr}`).to.equal(0);
    // the user the image runs as, and the process itself
    expect((await podman.ok(['exec', c.name, 'id', '-u'])).trim()).to.equal(UID);
    expect((await podman.ok(['exec', c.name, 'id', '-g'])).trim()).to.equal(UID);
    const top = await podman.ok(['top', c.name, 'user', 'args']);
    expect(top).to.match(new RegExp(`^(wakit|${UID})\\s+node /app/bin/wakit.js start`, 'm'));
    // the data directory is the volume (WAKIT_DATA=/data): sessions and outbox, private
    const mount = (
      await podman.ok(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume])
    ).trim();
    for (const file of ['sessions', 'sessions/outbox.db', 'sessions/bot']) {
      const s = await stat(path.join(mount, file));
      expect(s.uid, file).to.equal(Number(UID));
      expect(s.mode & 0o077, `${file} is private`).to.equal(0);
    }
    // still the first run of the container: no restarts
    expect(await c.state()).to.deep.include({ running: true, restarts: 0 });

    // SIGTERM: a graceful stop with exit 0, well within the grace period
    const stopAt = Date.now();
    await podman.ok(['stop', '-t', String(GRACE_S), c.name], { timeoutMs: (GRACE_S + 15) * 1000 });
    const stoppedIn = Date.now() - stopAt;
    expect(await c.state()).to.deep.include({ running: false, exitCode: 0 });
    expect(stoppedIn, 'stopped within the grace period').to.be.lessThan(GRACE_S * 1000);
    expect(await c.logs()).to.include('Stopped.');
    timings.push(
      `run: ${((Date.now() - started) / 1000).toFixed(0)} s (SIGTERM → exit 0 in ${(stoppedIn / 1000).toFixed(1)} s)`,
    );
  });

  it("Chromium starts under Docker's default seccomp profile (and the profile is really applied)", async () => {
    const started = Date.now();
    const bot = path.join(work, 'chromium-bot');
    await scaffoldBot(bot, { type: 'whatsapp-web.js', authTimeoutMs: 120_000 }, false);
    const mounts = ['-v', `${bot}:/app/bot:ro`, '--shm-size', '256m'];

    // the default: inside a container Chromium runs without its own sandbox (docs/deploy.md)
    const c = await runContainer('wakit-image-test-chromium', mounts);
    await c.waitForProcess(/chromium.*--type=renderer/, 90_000);
    expect(await c.logs()).not.to.match(/No usable sandbox|Failed to launch the browser/);
    expect(await c.state()).to.deep.include({ running: true });
    await podman.ok(['stop', '-t', String(GRACE_S), c.name], { timeoutMs: (GRACE_S + 15) * 1000 });

    // with its sandbox forced on, the same Chromium cannot start under this profile as non-root:
    // the profile is in force, and the default above is what makes Chromium work
    const sandboxed = await runContainer('wakit-image-test-sandbox', [
      ...mounts,
      '-e',
      'WAKIT_BROWSER_SANDBOX=on',
    ]);
    await sandboxed.waitForLog(/No usable sandbox/, 90_000);
    await podman.run(['stop', '-t', '5', sandboxed.name]);
    timings.push(`chromium: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });

  it('compose.yaml: up needs the token, ps/logs/down do not; the bot serves', async () => {
    const started = Date.now();
    const project = path.join(work, 'compose');
    await scaffoldBot(path.join(project, 'bot'), { type: 'simulator', autoScanMs: 300 });
    await podman.ok(['tag', IMAGE, 'localhost/wakit:latest']);
    const service = await podman.serve();
    const port = await freePort();
    const compose = (args: string[], token?: string) => {
      const env: NodeJS.ProcessEnv = {
        ...podman.env,
        DOCKER_HOST: service.host,
        WAKIT_PORT: String(port),
      };
      delete env.WAKIT_REST_TOKEN;
      if (token !== undefined) env.WAKIT_REST_TOKEN = token;
      return exec(
        'docker-compose',
        [
          '-p',
          'wakit-image-test',
          '-f',
          path.join(REPO, 'compose.yaml'),
          '--project-directory',
          project,
          ...args,
        ],
        { env, timeoutMs: 180_000 },
      );
    };
    try {
      const ps = await compose(['ps']);
      expect(ps.code, `ps without the token: ${ps.stderr}`).to.equal(0);
      const refused = await compose(['up', '-d', '--no-build']);
      expect(refused.code, 'up without the token').to.not.equal(0);
      const said = await compose(['logs', '--no-color', 'require-token']);
      expect(said.stdout).to.include('WAKIT_REST_TOKEN is not set');
      expect((await compose(['ps', '-q', 'wakit'])).stdout.trim(), 'wakit not started').to.equal(
        '',
      );

      const up = await compose(['up', '-d', '--no-build'], TOKEN);
      expect(up.code, `up: ${up.stderr}`).to.equal(0);
      const url = `http://127.0.0.1:${port}`;
      await until(
        async () => (await compose(['logs', '--no-color', 'wakit'])).stdout.includes('[bot] READY'),
        60_000,
      );
      await until(
        async () => (await ContainerProbe.fetchJson(`${url}/readyz`)).status === 200,
        30_000,
      );
      expect((await ContainerProbe.fetchJson(`${url}/healthz`)).status).to.equal(200);
      const listed = await compose(['ps']);
      expect(listed.code).to.equal(0);
      expect(listed.stdout).to.match(/wakit-image-test[_-]wakit[_-]1\s.*Up/);
      const container = /(wakit-image-test[_-]wakit[_-]1)\s/.exec(listed.stdout)?.[1] ?? '';
      const check = await podman.run(['healthcheck', 'run', container]);
      expect(check.code, `healthcheck run ${container}: ${check.stdout}${check.stderr}`).to.equal(
        0,
      );
      // stop (SIGTERM) without the token: a graceful exit 0
      const stop = await compose(['stop', '-t', String(GRACE_S)]);
      expect(stop.code, `stop without the token: ${stop.stderr}`).to.equal(0);
      expect(await new ContainerProbe(podman, container).state()).to.deep.include({
        running: false,
        exitCode: 0,
      });

      const down = await compose(['down', '-v', '-t', String(GRACE_S)]);
      expect(down.code, `down without the token: ${down.stderr}`).to.equal(0);
      expect((await compose(['ps', '-q'])).stdout.trim()).to.equal('');
    } finally {
      await compose(['down', '-v', '-t', '0'], TOKEN);
      await service.stop();
    }
    timings.push(`compose: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
