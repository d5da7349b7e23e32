// `"pretty": true` logs: in order with the CLI's own stdout lines, and no colour codes when the
// output is not a terminal (a file, a pipe) (issue 29, item 12).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const LOGGER = pathToFileURL(path.resolve('src/kernel/logger.ts')).href;

/** Runs a module script in a child process with stdout piped (not a terminal). */
function runScript(source: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', source],
      { env: { ...process.env, FORCE_COLOR: '1' } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

describe('pretty logs', function () {
  this.timeout(30_000);

  it('keep their order with plain stdout lines and have no colour codes in a pipe', async () => {
    const out = await runScript(
      `import { createLogger } from '${LOGGER}';\n` +
        "const log = createLogger({ level: 'info', pretty: true });\n" +
        "log.info('client bot: STOPPED → STARTING');\n" +
        "process.stdout.write('[bot] READY\\n');\n" +
        "log.info('after ready');\n",
    );
    const lines = out.split('\n').filter(Boolean);
    expect(lines, out).to.have.length(3);
    expect(lines[0]).to.include('STOPPED → STARTING');
    expect(lines[1]).to.equal('[bot] READY');
    expect(lines[2]).to.include('after ready');
    expect(out).to.not.include('\u001b[');
  });
});
