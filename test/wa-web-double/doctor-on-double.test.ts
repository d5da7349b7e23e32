/**
 * `wakit doctor --client` through the real CLI in a child process, on the real whatsapp-web.js
 * 1.34.7 and the WhatsApp Web double: a profile linked here, then the doctor starts the client
 * from it and reports the build, every capability and every compat fix (needed / installed).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { doctor } from '../helpers/wakit-doctor.js';
import { NEWEST_BUILD } from './builds.js';
import { DoubleHarness } from './harness.js';

describe('wakit doctor --client on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(120_000);
  let h: DoubleHarness;

  before(async () => {
    h = await DoubleHarness.create({ build: NEWEST_BUILD });
    const sdk = h.sdk({ clients: ['bot'] });
    const client = sdk.createClient({ name: 'bot' });
    const qr = new Promise<string>((resolve) => client.once('qr', resolve));
    await client.initialize();
    await h.link(await qr);
    await client.waitUntilReady({ timeoutMs: 20_000 });
    await sdk.stop();
  });
  after(async () => {
    await h?.cleanup();
  });

  const configure = (compat: Record<string, unknown>) =>
    writeFile(
      path.join(h.dir, 'bot.config.json'),
      JSON.stringify({
        engine: {
          type: 'whatsapp-web.js',
          webVersion: NEWEST_BUILD.version,
          webVersionCache: { type: 'local', path: path.join(h.dir, 'builds') },
          compat,
        },
        auth: { type: 'local', dataPath: './sdk-sessions' },
        clients: ['bot'],
      }),
    );

  it('a linked client: the build, the library, every capability working and the fixes this build needs installed', async () => {
    await configure({});
    const { code, out } = await doctor(h.dir, ['--client', 'bot', '--timeout', '30000']);
    expect(out).to.include(
      `✔ client bot: WhatsApp Web: build ${NEWEST_BUILD.version}, whatsapp-web.js 1.34.7`,
    );
    expect(out).to.include(`✔   pin ${NEWEST_BUILD.version}: holds`);
    for (const capability of ['ids.serialize', 'send.text', 'send.media', 'media.download']) {
      expect(out).to.include(`✔   capability ${capability}: works`);
    }
    expect(out).to.match(/✔ {3}compat msg-key-serialized: needed, installed/);
    // WhatsApp Web syncs on its own clock (the double too, issue 36): whether this start synced
    // before whatsapp-web.js listened is a race; either way the line is fine
    expect(out).to.match(/✔ {3}compat ready-race: (not needed, not installed|needed, installed)/);
    expect(out).to.match(/✔ {3}compat media-send-id: not known yet, installed/);
    expect(out).to.include('✔ this machine can run this config');
    expect(code, out).to.equal(0);
  });

  it('a needed fix switched off (engine.compat.disable): the capability it covers is a blocker', async () => {
    await configure({ disable: ['msg-key-serialized'] });
    const { code, out } = await doctor(h.dir, ['--client', 'bot', '--timeout', '30000']);
    expect(out).to.include(`✖ client bot: WhatsApp Web: build ${NEWEST_BUILD.version}`);
    expect(out).to.match(/✖ {3}capability ids\.serialize: broken/);
    expect(out).to.match(
      /✖ {3}compat msg-key-serialized: needed, not installed \(disabled \(engine\.compat\.disable\)/,
    );
    expect(code, out).to.equal(1);
  });
});
