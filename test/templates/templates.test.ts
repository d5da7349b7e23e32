import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { bufferIo } from '../helpers/buffer-io.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const REPO = path.resolve('.');

// The templates' own tests run against the packed package in test/quick-start/walkthrough.test.ts.
describe('templates (wakit create)', function () {
  this.timeout(30_000);

  for (const template of ['basic', 'rest-api', 'ai']) {
    it(`scaffolds ${template}: named package, wakitjs dependency, .gitignore, $schema, every file`, async () => {
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
        expect(pkg.dependencies).to.deep.equal({ wakitjs: `file:${REPO}` });
        expect(pkg.scripts.test).to.equal('wakit test');
        const own =
          template === 'ai'
            ? ['plugins/assistant.ts', 'test/assistant.test.ts', 'test/fake-model.ts']
            : ['plugins/hello.ts', 'test/hello.test.ts', 'plugins/order.ts', 'test/order.test.ts'];
        for (const file of ['README.md', 'tsconfig.json', '.puppeteerrc.cjs', ...own])
          expect(existsSync(path.join(project, file)), file).to.equal(true);
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
      } finally {
        await cleanup();
      }
    });
  }

  it("a failed npm install is npm's failure, said plainly (exit 1, no [INTERNAL]), the project kept", async () => {
    const { dir, cleanup } = await tempDir('wakit-template-');
    const savedPath = process.env.PATH;
    try {
      // an `npm` that fails like a blocked network would
      const bin = path.join(dir, 'bin');
      await mkdir(bin);
      await writeFile(path.join(bin, 'npm'), '#!/bin/sh\necho "npm error network" >&2\nexit 7\n', {
        mode: 0o755,
      });
      process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
      const io = bufferIo();
      const project = path.join(dir, 'bot');
      expect(await runCli(['create', project], io)).to.equal(1);
      expect(io.text())
        .to.include('npm install failed (exit code 7')
        .and.include(`run \`npm install\` in ${project}`)
        .and.not.include('INTERNAL');
      expect(existsSync(path.join(project, 'bot.config.json'))).to.equal(true);
    } finally {
      process.env.PATH = savedPath;
      await cleanup();
    }
  });

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
