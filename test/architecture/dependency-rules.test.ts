/**
 * The dependency rules of DESIGN.md §1 are lint rules (eslint.config.js). These tests lint tiny
 * fixture sources, placed (virtually) in the folders the rules are about, through ESLint's Node
 * API with the project's own config: each rule must fire on a violation and stay quiet on the
 * allowed import next to it, so the check cannot silently disappear or grow too wide.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULES = new Set([
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
]);

/** The fixture files do not exist on disk, so type-aware linting is off for them. */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
});

/** The dependency-rule violations ESLint reports for `code` as if it were the file `file`. */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, 'the fixture parses').to.deep.equal([]);
  return result.messages.filter((m) => RULES.has(m.ruleId ?? '')).map((m) => m.message);
}

const fixture = (specifier: string) =>
  `import * as dep from '${specifier}';\nexport const used = dep;\n`;

describe('dependency rules (DESIGN.md §1) are enforced by lint', function () {
  this.timeout(60_000);

  it('only src/engines/wwebjs/ imports whatsapp-web.js or puppeteer (static and lazy imports)', async () => {
    for (const lib of ['whatsapp-web.js', 'puppeteer', 'puppeteer-core', 'puppeteer/lib/x.js']) {
      const [message] = await violations('src/client/fixture.ts', fixture(lib));
      expect(message, lib).to.include('Only src/engines/wwebjs/');
    }
    expect(await violations('plugins/rest/fixture.ts', fixture('whatsapp-web.js'))).to.have.length(
      1,
    );
    const lazy = "export const load = () => import('puppeteer');\n";
    expect(await violations('src/engines/simulator/fixture.ts', lazy)).to.have.length(1);
    expect(
      await violations('src/engines/wwebjs/fixture.ts', fixture('whatsapp-web.js')),
    ).to.deep.equal([]);
    expect(await violations('src/engines/wwebjs/fixture.ts', lazy)).to.deep.equal([]);
  });

  it('src/engines/ never imports src/client/', async () => {
    for (const file of ['src/engines/fixture.ts', 'src/engines/simulator/fixture.ts']) {
      const up = file.split('/').length === 3 ? '../' : '../../';
      const [message] = await violations(file, fixture(`${up}client/types.js`));
      expect(message, file).to.include('src/engines/ never imports src/client/');
      expect(await violations(file, fixture(`${up}kernel/clock.js`)), file).to.deep.equal([]);
    }
  });

  it('plugins/ imports only the public entries: src/index.ts and the subpath entries of package.json', async () => {
    const [message] = await violations(
      'plugins/rest/fixture.ts',
      fixture('../../src/client/chat-id.js'),
    );
    expect(message).to.include('plugins/ imports only the public entries');
    // the documented subpath entries (`wakitjs/http`, `wakitjs/contract`, …), from any depth
    for (const entry of ['http', 'contract', 'types', 'kernel', 'cluster']) {
      expect(
        await violations('plugins/rest/fixture.ts', fixture(`../../src/entries/${entry}.js`)),
        entry,
      ).to.deep.equal([]);
      expect(
        await violations(
          'plugins/rest/routes/fixture.ts',
          fixture(`../../../src/entries/${entry}.js`),
        ),
        entry,
      ).to.deep.equal([]);
    }
    // not a file of src/entries/ that package.json does not export, nor anything else under it
    for (const specifier of [
      '../../src/entries/sub/x.js',
      '../../src/entries/http.ts.map',
      '../../src/entries/internal.js',
      '../../src/entries/http.js/x.js',
    ]) {
      expect(
        await violations('plugins/forwarder/fixture.ts', fixture(specifier)),
        specifier,
      ).to.have.length(1);
    }
    expect(
      await violations('plugins/rest/routes/fixture.ts', fixture('../../../src/queue/index.js')),
    ).to.have.length(1);
    expect(
      await violations('plugins/rest/fixture.ts', fixture('../../src/index.js')),
    ).to.deep.equal([]);
    expect(
      await violations('plugins/rest/routes/fixture.ts', fixture('../../../src/index.js')),
    ).to.deep.equal([]);
    expect(await violations('plugins/rest/fixture.ts', fixture('./event-hub.js'))).to.deep.equal(
      [],
    );
  });

  it('nothing in src/ imports the built-in plugins/ (the core src/plugins/ is fine)', async () => {
    const cases: Array<[string, string, string]> = [
      ['src/fixture.ts', '../plugins/rest/index.js', './plugins/plugin-host.js'],
      ['src/cli/fixture.ts', '../../plugins/rest/index.js', '../plugins/loader.js'],
      ['src/engines/wwebjs/fixture.ts', '../../../plugins/rest/index.js', '../../plugins/types.js'],
    ];
    for (const [file, forbidden, allowed] of cases) {
      const [message] = await violations(file, fixture(forbidden));
      expect(message, file).to.include('Nothing in src/ imports the built-in plugins/');
      expect(await violations(file, fixture(allowed)), file).to.deep.equal([]);
    }
  });

  it('src/auth/ imports nothing from src/client/ or src/queue/', async () => {
    for (const target of ['../client/bot-client.js', '../queue/index.js']) {
      const [message] = await violations('src/auth/fixture.ts', fixture(target));
      expect(message, target).to.include('Storage (src/auth/)');
    }
    expect(await violations('src/auth/fixture.ts', fixture('../kernel/clock.js'))).to.deep.equal(
      [],
    );
    expect(await violations('src/auth/fixture.ts', fixture('../errors/index.js'))).to.deep.equal(
      [],
    );
  });
});
