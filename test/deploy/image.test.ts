// The image built and run for real, with rootful podman standing in for Docker (built-image.ts):
// no compilers in it, the build context without secrets, a bind mount prepared as documented,
// and a scaffolded bot that stays up and serves (/healthz, /readyz, HEALTHCHECK's own command,
// the token API, its plugin importing `wakitjs`) as uid 10001 with its data in the volume, under
// Docker's default seccomp profile; SIGTERM stops it with exit 0 within the grace period.
import { expect } from 'chai';
import { chown, cp, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  GRACE_S,
  IMAGE,
  IMAGE_TEST_TIMEOUT_MS,
  imageFixture,
  REPO,
  scaffoldBot,
  TOKEN,
  UID,
} from './built-image.js';
import { freePort, until } from './probe.js';
const PHONE = '15550001111';

describe('the image, built and run (rootful podman)', function () {
  this.timeout(IMAGE_TEST_TIMEOUT_MS);
  const fx = imageFixture();

  it('the final image has no compilers and keeps its HEALTHCHECK (docker format)', async () => {
    const compilers = await fx.podman.run([
      'run',
      '--rm',
      ...fx.podman.ulimitFlags,
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      'for t in gcc g++ cc make python3; do command -v $t; done; true',
    ]);
    expect(compilers.stdout.trim(), 'compilers in the final image').to.equal('');
    const health = await fx.podman.ok([
      'image',
      'inspect',
      '--format',
      '{{json .HealthCheck}}',
      IMAGE,
    ]);
    expect(health).to.include('/healthz');
  });

  it('a host directory prepared as docs/deploy.md says (uid 10001, 0700) works as /data', async () => {
    const host = path.join(fx.work, 'bind-data');
    await mkdir(host, { mode: 0o700 });
    await chown(host, UID, UID);
    await fx.podman.ok([
      'run',
      '--rm',
      ...fx.podman.ulimitFlags,
      '-v',
      `${host}:/data`,
      '--entrypoint',
      'node',
      IMAGE,
      '-e',
      "require('fs').mkdirSync('/data/sessions', { mode: 0o700 })",
    ]);
    expect((await stat(path.join(host, 'sessions'))).uid).to.equal(UID);
  });

  it('.dockerignore keeps secrets out of the build context: bot/.env, nested .env, sessions', async () => {
    // a context shaped like a checkout with a bot folder beside the Dockerfile
    const context = path.join(fx.work, 'context');
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
    await writeFile(
      path.join(context, 'Dockerfile.context'),
      `FROM ${fx.built.base}\nCOPY . /context\nRUN cd /context && find . -type f | sort\n`,
    );
    const out = await fx.podman.ok([
      'build',
      '--pull=never',
      '--no-cache',
      ...fx.podman.ulimitFlags,
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
    const bot = path.join(fx.work, 'bot');
    await scaffoldBot(bot, { type: 'simulator', autoScanMs: 300 });
    const port = await freePort();
    const volume = await fx.containers.volume('wakit-image-test-data');
    const c = await fx.containers.run('wakit-image-test', [
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
    const check = await fx.podman.run(['healthcheck', 'run', c.name]);
    expect(check.code, `healthcheck run: ${check.stdout}${check.stderr}`).to.equal(0);
    // the user the image runs as, and the process itself
    expect((await fx.podman.ok(['exec', c.name, 'id', '-u'])).trim()).to.equal(String(UID));
    expect((await fx.podman.ok(['exec', c.name, 'id', '-g'])).trim()).to.equal(String(UID));
    const top = await fx.podman.ok(['top', c.name, 'user', 'args']);
    expect(top).to.match(new RegExp(`^(wakit|${UID})\\s+node /app/bin/wakit.js start`, 'm'));
    // the data directory is the volume (WAKIT_DATA=/data): sessions and outbox, private
    const mount = (
      await fx.podman.ok(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume])
    ).trim();
    for (const file of ['sessions', 'sessions/outbox.db', 'sessions/bot']) {
      const s = await stat(path.join(mount, file));
      expect(s.uid, file).to.equal(UID);
      expect(s.mode & 0o077, `${file} is private`).to.equal(0);
    }
    // still the first run of the container: no restarts
    expect(await c.state()).to.deep.include({ running: true, restarts: 0 });

    // SIGTERM: a graceful stop with exit 0, well within the grace period
    const stopAt = Date.now();
    await fx.podman.ok(['stop', '-t', String(GRACE_S), c.name], {
      timeoutMs: (GRACE_S + 15) * 1000,
    });
    const stoppedIn = Date.now() - stopAt;
    expect(await c.state()).to.deep.include({ running: false, exitCode: 0 });
    expect(stoppedIn, 'stopped within the grace period').to.be.lessThan(GRACE_S * 1000);
    expect(await c.logs()).to.include('Stopped.');
    fx.timings.push(
      `run: ${((Date.now() - started) / 1000).toFixed(0)} s (SIGTERM → exit 0 in ${(stoppedIn / 1000).toFixed(1)} s)`,
    );
  });
});
