/**
 * `sdk.simulator` when the simulator is loaded on demand (docs/simulator.md). Each case runs in a
 * fresh Node process: in this one, another test has loaded the simulator already.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { tempDir } from '../helpers/sdk-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);

/** Runs `body` as an ES module (with `createSdk`, `config` and `codeOf` in scope); its JSON output. */
async function inFreshProcess(body: string, dataPath: string): Promise<Record<string, unknown>> {
  const script = `
    const { createSdk } = await import(${url('src/index.ts')});
    const { loadedSimulator } = await import(${url('src/engines/engine-loader.ts')});
    const config = {
      engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: '15550000001' },
      auth: { type: 'local', dataPath: ${JSON.stringify(dataPath)} },
      clients: ['bot'],
      log: { level: 'silent' },
    };
    const codeOf = (read) => { try { read(); return 'ok'; } catch (e) { return e.code; } };
    ${body}
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, timeout: 30_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

describe('sdk.simulator with the simulator loaded on demand', function () {
  this.timeout(40_000);
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.cleanup());

  it('import "wakitjs" alone: INVALID_STATE before start(), the network from start() on', async () => {
    const out = await inFreshProcess(
      `
      const sdk = createSdk(config);
      const before = codeOf(() => sdk.simulator);
      const loadedBefore = loadedSimulator() !== undefined;
      await sdk.start();
      const ready = await sdk.client('bot').waitUntilReady({ timeoutMs: 5000 }).then(() => true);
      const phone = sdk.simulator.phone('15551230000');
      await sdk.client('bot').sendTextMessage({ to: phone.id, text: 'hi' });
      await new Promise((r) => setTimeout(r, 100));
      const inbox = phone.inbox.map((m) => m.body);
      await sdk.stop();
      console.log(JSON.stringify({ before, loadedBefore, ready, inbox }));
      `,
      dir.dir,
    );
    expect(out).to.deep.equal({
      before: 'INVALID_STATE',
      loadedBefore: false,
      ready: true,
      inbox: ['hi'],
    });
  });

  it('importing wakitjs/simulator first: sdk.simulator is there from createSdk on', async () => {
    const out = await inFreshProcess(
      `
      await import(${url('src/entries/simulator.ts')});
      const sdk = createSdk(config);
      const phone = sdk.simulator.phone('15551230000');
      await sdk.stop();
      console.log(JSON.stringify({ phone: phone.id }));
      `,
      dir.dir,
    );
    expect(out).to.deep.equal({ phone: '15551230000@c.us' });
  });

  it("another engine: NOT_SUPPORTED, nothing loaded; a client's initialize() loads it", async () => {
    const out = await inFreshProcess(
      `
      const other = createSdk({ ...config, engine: { type: 'whatsapp-web.js' } });
      const code = codeOf(() => other.simulator);
      const loaded = loadedSimulator() !== undefined;
      const sdk = createSdk(config);
      const client = sdk.createClient({ name: 'solo' });
      await client.initialize();
      await client.waitUntilReady({ timeoutMs: 5000 });
      const after = codeOf(() => sdk.simulator.phone('15551230000'));
      await sdk.stop();
      await other.stop();
      console.log(JSON.stringify({ code, loaded, after }));
      `,
      dir.dir,
    );
    expect(out).to.deep.equal({ code: 'NOT_SUPPORTED', loaded: false, after: 'ok' });
  });
});
