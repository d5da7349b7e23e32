// compose.yaml through Debian's docker-compose on podman's Docker API (`podman system service`):
// `up` needs WAKIT_REST_TOKEN, `ps`, `logs`, `stop` and `down` do not; the bot serves and passes
// its health check; SIGTERM stops it with exit 0.
import { expect } from 'chai';
import path from 'node:path';
import {
  GRACE_S,
  IMAGE,
  IMAGE_TEST_TIMEOUT_MS,
  imageFixture,
  REPO,
  scaffoldBot,
  TOKEN,
} from './built-image.js';
import { exec } from './podman.js';
import { ContainerProbe, freePort, until } from './probe.js';

describe('the image through compose.yaml (docker-compose on podman)', function () {
  this.timeout(IMAGE_TEST_TIMEOUT_MS);
  const fx = imageFixture();

  it('compose.yaml: up needs the token, ps/logs/down do not; the bot serves', async () => {
    const started = Date.now();
    const project = path.join(fx.work, 'compose');
    await scaffoldBot(path.join(project, 'bot'), { type: 'simulator', autoScanMs: 300 });
    await fx.podman.ok(['tag', IMAGE, 'localhost/wakit:latest']);
    const service = await fx.podman.serve();
    const port = await freePort();
    const compose = (args: string[], token?: string) => {
      const env: NodeJS.ProcessEnv = {
        ...fx.podman.env,
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
      const check = await fx.podman.run(['healthcheck', 'run', container]);
      expect(check.code, `healthcheck run ${container}: ${check.stdout}${check.stderr}`).to.equal(
        0,
      );
      // stop (SIGTERM) without the token: a graceful exit 0
      const stop = await compose(['stop', '-t', String(GRACE_S)]);
      expect(stop.code, `stop without the token: ${stop.stderr}`).to.equal(0);
      expect(await new ContainerProbe(fx.podman, container).state()).to.deep.include({
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
    fx.timings.push(`compose: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
