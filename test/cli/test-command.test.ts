// `wakit test`: a failure points at the line of the .ts test file (source maps), and `.env` beside
// bot.config.json is loaded for the tests (issue 29, items 1 and 12).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

function wakitTest(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // through the CLI's sources (bin/wakit.js needs dist/): tsx runs src/cli/main.ts
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('" + path.resolve('src/cli/main.ts') + "').then((m) => m.main(['test']))",
      ],
      { cwd, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('wakit test', function () {
  this.timeout(60_000);
  let project: string;
  before(async () => {
    // inside the repository (test-artifacts/ is ignored) so that tsx resolves like in a bot project
    await mkdir('test-artifacts', { recursive: true });
    project = await mkdtemp(path.resolve('test-artifacts', 'wakit-test-command-'));
    await mkdir(path.join(project, 'test'));
    await writeFile(path.join(project, 'bot.config.json'), '{ "auth": { "type": "local" } }');
    await writeFile(path.join(project, '.env'), 'WAKIT_FROM_DOT_ENV=yes\n');
  });
  after(() => rm(project, { recursive: true, force: true }));

  it('reports the failing line of the .ts file and sees .env', async () => {
    await writeFile(
      path.join(project, 'test', 'weather.test.ts'),
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        '',
        'interface Forecast { city: string; celsius: number }',
        "const forecast: Forecast = { city: 'Lisbon', celsius: 21 };",
        '',
        "test('.env is loaded', () => assert.equal(process.env.WAKIT_FROM_DOT_ENV, 'yes'));",
        "test('the forecast', () => {",
        '  assert.equal(forecast.celsius, 30);',
        '});',
        '',
      ].join('\n'),
    );
    const { code, output } = await wakitTest(project);
    expect(code, output).to.equal(1);
    expect(output)
      .to.match(/# pass 1\b/)
      .and.match(/# fail 1\b/);
    // the failing test's location (its test() call) and the assertion's stack line, both in the .ts
    expect(output, output).to.match(/location: '[^']*weather\.test\.ts:8:1'/);
    expect(output, output).to.match(/weather\.test\.ts:9:\d+/);
  });
});
