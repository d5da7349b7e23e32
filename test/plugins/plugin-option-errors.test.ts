// Plugin option errors read like core ones (issue 29, item 5): the key path, did-you-mean, plain
// words for a wrong type, a misspelt built-in plugin suggested, and core and plugin problems
// reported in one round.
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../../src/cli/main.js';
import { bufferIo } from '../helpers/buffer-io.js';
import { createSdk, definePlugin, z, type WakitError } from '../../src/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const API = pathToFileURL(path.resolve('src/index.ts')).href;

describe('plugin option errors', function () {
  this.timeout(30_000);
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-plugin-options-'));
    await mkdir(path.join(dir, 'plugins'));
    await writeFile(
      path.join(dir, 'plugins', 'hello.ts'),
      `import { definePlugin, z } from '${API}';\n` +
        'export default definePlugin({\n' +
        "  name: 'hello',\n" +
        "  options: z.object({ greeting: z.string().default('Hello'), times: z.number().int().default(1) }).strict(),\n" +
        '  setup() {},\n' +
        '});\n',
    );
  });
  afterEach(() => cleanup());

  async function check(config: unknown): Promise<string> {
    const file = path.join(dir, 'bot.config.json');
    await writeFile(file, JSON.stringify(config));
    const io = bufferIo();
    expect(await runCli(['config', 'check', '-c', file], io)).to.equal(1);
    return io.text();
  }

  it('a misspelt option: its key path (no double dot) and did-you-mean', async () => {
    const text = await check({
      auth: { type: 'local' },
      plugins: { './plugins/hello.ts': { greting: 'Hi' } },
    });
    expect(text).to.include(
      'plugins["./plugins/hello.ts"].greting: unknown key "greting": did you mean "greeting"?',
    );
    expect(text).to.not.include('plugins..');
  });

  it('a wrong type in plain words, not zod text', async () => {
    const text = await check({
      auth: { type: 'local' },
      plugins: { './plugins/hello.ts': { greeting: 3, times: 'twice' } },
    });
    expect(text)
      .to.include('plugins["./plugins/hello.ts"].greeting: must be a text (string), not number 3')
      .and.include('plugins["./plugins/hello.ts"].times: must be a number, not the text "twice"');
    expect(text).to.not.include('Invalid input');
  });

  it('a misspelt built-in plugin: did you mean it, and the list of built-ins', async () => {
    const text = await check({ auth: { type: 'local' }, plugins: { 'auto-replay': {} } });
    expect(text)
      .to.include('package auto-replay is not installed')
      .and.include('did you mean the built-in plugin "auto-reply"?')
      .and.include('Built-in plugins: rest, auto-reply, forwarder, media-saver');
  });

  it('core and plugin problems in one round', async () => {
    const text = await check({
      auth: { type: 'local' },
      queue: { minGapMs: -1 },
      plugins: { './plugins/hello.ts': { greting: 'Hi' }, 'auto-replay': {} },
    });
    expect(text)
      .to.include('queue.minGapMs')
      .and.include('plugins["./plugins/hello.ts"].greting')
      .and.include('plugins.auto-replay');
  });

  it('sdk.use: the same words, path plugins.<name>.<key>', async () => {
    const { dir: data, cleanup: done } = await tempDir('wakit-plugin-options-sdk-');
    try {
      const sdk = createSdk({
        engine: { type: 'simulator' },
        auth: { type: 'local', dataPath: data },
      });
      const hello = definePlugin({
        name: 'hello',
        options: z.object({ greeting: z.string() }).strict(),
        setup() {},
      });
      let error: WakitError | undefined;
      try {
        sdk.use(hello, { greting: 'Hi' });
      } catch (e) {
        error = e as WakitError;
      }
      expect(error?.issues).to.deep.include({
        path: 'plugins.hello.greting',
        message: 'unknown key "greting": did you mean "greeting"?',
      });
    } finally {
      await done();
    }
  });
});
