// Chromium in the image under Docker's default seccomp profile (moby's default.json), as the
// image's non-root user: it starts by default (no sandbox of its own inside a container), and with
// its sandbox forced on it cannot, which shows the profile is applied (docs/deploy.md).
import { expect } from 'chai';
import path from 'node:path';
import { GRACE_S, IMAGE_TEST_TIMEOUT_MS, imageFixture, scaffoldBot } from './built-image.js';

describe("the image: Chromium under Docker's default seccomp profile", function () {
  this.timeout(IMAGE_TEST_TIMEOUT_MS);
  const fx = imageFixture();

  it("Chromium starts under Docker's default seccomp profile (and the profile is really applied)", async () => {
    const started = Date.now();
    const bot = path.join(fx.work, 'chromium-bot');
    await scaffoldBot(bot, { type: 'whatsapp-web.js', authTimeoutMs: 120_000 }, false);
    const mounts = ['-v', `${bot}:/app/bot:ro`, '--shm-size', '256m'];

    // the default: inside a container Chromium runs without its own sandbox (docs/deploy.md)
    const c = await fx.containers.run('wakit-image-test-chromium', mounts);
    await c.waitForProcess(/chromium.*--type=renderer/, 90_000);
    expect(await c.logs()).not.to.match(/No usable sandbox|Failed to launch the browser/);
    expect(await c.state()).to.deep.include({ running: true });
    await fx.podman.ok(['stop', '-t', String(GRACE_S), c.name], {
      timeoutMs: (GRACE_S + 15) * 1000,
    });

    // with its sandbox forced on, the same Chromium cannot start under this profile as non-root:
    // the profile is in force, and the default above is what makes Chromium work
    const sandboxed = await fx.containers.run('wakit-image-test-sandbox', [
      ...mounts,
      '-e',
      'WAKIT_BROWSER_SANDBOX=on',
    ]);
    await sandboxed.waitForLog(/No usable sandbox/, 90_000);
    await fx.podman.run(['stop', '-t', '5', sandboxed.name]);
    fx.timings.push(`chromium: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
