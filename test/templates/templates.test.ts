import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const REPO = path.resolve('.');

function bufferIo(): CliIo & { text: () => string } {
  const lines: string[] = [];
  return {
    out: (t) => void lines.push(t),
    err: (t) => void lines.push(t),
    text: () => lines.join('\n'),
  };
}

function npmTest(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // the scaffold gets the local package through node_modules/wakit (a symlink to this repository);
    // without a build, `import 'wakitjs'` is mapped onto the sources
    const child = spawn('npm', ['test', '--silent'], {
      cwd,
      env: {
        ...process.env,
        NODE_OPTIONS: `--import=${path.join(REPO, 'src/cli/register-source.mjs')}`,
        TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.json'),
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('templates (wakit create + the template’s own test)', function () {
  this.timeout(120_000);

  for (const template of ['basic', 'rest-api']) {
    it(`scaffolds ${template} and its test passes against the local package`, async () => {
      const { dir, cleanup } = await tempDir('wakit-template-');
      try {
        const project = path.join(dir, 'My Shop Bot');
        const io = bufferIo();
        expect(
          await runCli(['create', project, '--template', template, '--no-install'], io),
        ).to.equal(0);
        expect(io.text())
          .to.include('Next steps')
          .and.include('npm install')
          .and.include('npm run dev');
        const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
          name: string;
          dependencies: Record<string, string>;
          scripts: Record<string, string>;
        };
        expect(pkg.name).to.equal('my-shop-bot');
        expect(pkg.dependencies.wakit).to.equal(`file:${REPO}`);
        expect(pkg.scripts).to.include.keys('start', 'dev', 'test');
        const gitignore = await readFile(path.join(project, '.gitignore'), 'utf8');
        expect(gitignore)
          .to.include('.wakit/')
          .and.match(/^\.env$/m);
        const config = JSON.parse(
          await readFile(path.join(project, 'bot.config.json'), 'utf8'),
        ) as {
          $schema: string;
          plugins: Record<string, unknown>;
        };
        expect(config.$schema).to.equal('./node_modules/wakitjs/config.schema.json');
        if (template === 'rest-api') {
          expect(JSON.stringify(config.plugins.rest)).to.include('${WAKIT_REST_TOKEN}');
        }
        // a non-empty directory is refused
        const again = bufferIo();
        expect(await runCli(['create', project, '--no-install'], again)).to.equal(1);
        expect(again.text()).to.include('is not empty');

        await mkdir(path.join(project, 'node_modules'));
        await symlink(REPO, path.join(project, 'node_modules', 'wakit'), 'dir');
        await symlink(
          path.join(REPO, 'node_modules', 'tsx'),
          path.join(project, 'node_modules', 'tsx'),
          'dir',
        );
        const result = await npmTest(project);
        expect(result.code, result.output).to.equal(0);
        expect(result.output)
          .to.match(/# pass [1-9]/)
          .and.match(/# fail 0/);
      } finally {
        await cleanup();
      }
    });
  }

  it('refuses an unknown template', async () => {
    const { dir, cleanup } = await tempDir('wakit-template-');
    try {
      const io = bufferIo();
      expect(
        await runCli(['create', path.join(dir, 'x'), '--template', 'fancy', '--no-install'], io),
      ).to.equal(1);
      expect(io.text()).to.include('Unknown template fancy');
    } finally {
      await cleanup();
    }
  });
});
