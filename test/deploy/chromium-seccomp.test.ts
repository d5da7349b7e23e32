// Chromium in the image under Docker's default seccomp profile (moby's default.json), as the
// image's non-root user: it starts by default (no sandbox of its own inside a container), and with
// its sandbox forced on it cannot, which shows the profile is applied (docs/deploy.md).
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  builtImage,
  Containers,
  GRACE_S,
  IMAGE_TEST_TIMEOUT_MS,
  scaffoldBot,
  type BuiltImage,
} from './built-image.js';
import type { Podman } from './podman.js';

describe("the image: Chromium under Docker's default seccomp profile", function () {
  this.timeout(IMAGE_TEST_TIMEOUT_MS);
  let podman: Podman;
  let containers: Containers;
  let work: string;
  const timings: string[] = [];

  before(async () => {
    const built: BuiltImage = await builtImage();
    podman = built.podman;
    containers = new Containers(podman);
    work = await mkdtemp(path.join(os.tmpdir(), 'wakit-image-'));
  });

  after(async () => {
    await containers?.removeAll();
    if (work) await rm(work, { recursive: true, force: true });
    if (timings.length > 0) console.log(`      image test timings: ${timings.join('; ')}`);
  });

  it("Chromium starts under Docker's default seccomp profile (and the profile is really applied)", async () => {
    const started = Date.now();
    const bot = path.join(work, 'chromium-bot');
    await scaffoldBot(bot, { type: 'whatsapp-web.js', authTimeoutMs: 120_000 }, false);
    const mounts = ['-v', `${bot}:/app/bot:ro`, '--shm-size', '256m'];

    // the default: inside a container Chromium runs without its own sandbox (docs/deploy.md)
    const c = await containers.run('wakit-image-test-chromium', mounts);
    await c.waitForProcess(/chromium.*--type=renderer/, 90_000);
    expect(await c.logs()).not.to.match(/No usable sandbox|Failed to launch the browser/);
    expect(await c.state()).to.deep.include({ running: true });
    await podman.ok(['stop', '-t', String(GRACE_S), c.name], { timeoutMs: (GRACE_S + 15) * 1000 });

    // with its sandbox forced on, the same Chromium cannot start under this profile as non-root:
    // the profile is in force, and the default above is what makes Chromium work
    const sandboxed = await containers.run('wakit-image-test-sandbox', [
      ...mounts,
      '-e',
      'WAKIT_BROWSER_SANDBOX=on',
    ]);
    await sandboxed.waitForLog(/No usable sandbox/, 90_000);
    await podman.run(['stop', '-t', '5', sandboxed.name]);
    timings.push(`chromium: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
