// `wakit create --template ai`: the starter is scaffolded and its own tests (a scripted local
// OpenAI-compatible server in its test folder) pass offline, run the way `wakit test` runs them,
// with `wakitjs` resolved to this checkout's sources (the packed package: test/quick-start).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { findTestFiles } from '../../src/cli/test-command.js';
import { bufferIo } from '../helpers/buffer-io.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const REPO = path.resolve('.');

/**
 * `node_modules/wakitjs` of a scaffolded project made of this checkout: its subpath entries
 * (package.json `exports`) pointed at the TypeScript sources instead of the build output.
 */
async function linkSources(project: string): Promise<void> {
  const pkg = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, { import?: string } | string>;
  };
  const exports: Record<string, string> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || !target.import) continue;
    exports[key] = target.import
      .replace(/^\.\/dist\/plugins\//, './plugins/')
      .replace(/^\.\/dist\//, './src/')
      .replace(/\.js$/, '.ts');
  }
  const modules = path.join(project, 'node_modules');
  const wakitjs = path.join(modules, 'wakitjs');
  await mkdir(wakitjs, { recursive: true });
  await writeFile(
    path.join(wakitjs, 'package.json'),
    JSON.stringify({ name: 'wakitjs', type: 'module', exports }),
  );
  for (const dir of ['src', 'plugins']) {
    await symlink(path.join(REPO, dir), path.join(wakitjs, dir), 'dir');
  }
  await symlink(path.join(REPO, 'node_modules', 'tsx'), path.join(modules, 'tsx'), 'dir');
}

/** What `wakit test` runs (src/cli/test-command.ts), with the output kept. */
function runProjectTests(project: string): Promise<{ code: number; output: string }> {
  return findTestFiles(path.join(project, 'test')).then(
    (files) =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            '--enable-source-maps',
            '--import',
            'tsx',
            '--test',
            ...files.map((f) => path.relative(project, f)),
          ],
          {
            cwd: project,
            // wakit's own sources need its tsconfig (decorators); the built package does not
            env: {
              ...process.env,
              NODE_OPTIONS: '',
              TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.json'),
            },
          },
        );
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('exit', (code) => resolve({ code: code ?? 1, output }));
      }),
  );
}

describe('the ai template (wakit create --template ai)', function () {
  this.timeout(120_000);

  it('scaffolds a starter whose own tests pass offline: an answer, a tool, a handoff, the fallback', async () => {
    const { dir, cleanup } = await tempDir('wakit-template-ai-');
    try {
      const project = path.join(dir, 'bakery-bot');
      const io = bufferIo();
      expect(await runCli(['create', project, '--template', 'ai', '--no-install'], io)).to.equal(0);
      expect(io.text()).to.include('ollama pull llama3.1').and.include('OPENAI_API_KEY');
      for (const file of ['plugins/assistant.ts', 'test/assistant.test.ts', 'test/fake-model.ts'])
        expect(existsSync(path.join(project, file)), file).to.equal(true);
      const config = JSON.parse(await readFile(path.join(project, 'bot.config.json'), 'utf8')) as {
        plugins: Record<string, { baseURL?: string; model?: string }>;
      };
      expect(config.plugins['./plugins/assistant.ts']).to.include({
        baseURL: 'http://localhost:11434/v1',
        model: 'llama3.1',
      });

      await linkSources(project);
      const { code, output } = await runProjectTests(project);
      expect(code, output).to.equal(0);
      expect(output, output)
        .to.match(/# pass 4\b/)
        .and.match(/# fail 0\b/);
    } finally {
      await cleanup();
    }
  });
});
