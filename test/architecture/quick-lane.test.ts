/**
 * The quick lane (`npm run test:quick`, scripts/quick-lane.ts): the test files that need no
 * browser, Redis or container and start no process. The markers are spelled in pieces here, so
 * that this file itself stays in the lane.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SLOW, heavyReason, quickLane } from '../../scripts/quick-lane.js';

const from = (module: string): string => `import x from '${module}';\n`;
const REDIS_CLIENT = ['io', 'redis'].join('');
const PROCESSES = ['node:', 'child', '_process'].join('');

describe('the quick test lane (npm run test:quick)', () => {
  it('holds every test file once, in the lane or left out with a reason', () => {
    const all = readdirSync('test', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `test/${file.split(path.sep).join('/')}`)
      .sort();
    const { files, left } = quickLane();
    expect([...files, ...left.map((entry) => entry.file)].sort()).to.deep.equal(all);
    expect(files).to.include.members([
      'test/config/config.test.ts',
      'test/architecture/quick-lane.test.ts',
      'test/client/chat-id.test.ts',
    ]);
    expect(files.length, 'most files are quick').to.be.greaterThan(all.length / 2);
    for (const file of SLOW) expect(all, `SLOW names ${file}`).to.include(file);
  });

  it('leaves out the browser, Redis, container and process tests of this repository', () => {
    const reasons = new Map(quickLane().left.map((entry) => [entry.file, entry.reason]));
    expect(reasons.get('test/plugins/rest/dashboard.test.ts')).to.equal('browser');
    expect(reasons.get('test/cluster/redis-event-stream.test.ts')).to.equal('redis');
    expect(reasons.get('test/cli/mcp-stdio.test.ts')).to.equal('process');
    const deploy = readdirSync('test/deploy').filter((file) => file.endsWith('.test.ts'));
    expect(deploy.length).to.be.greaterThan(0);
    for (const file of deploy) expect(reasons.has(`test/deploy/${file}`), file).to.equal(true);
    const wwd = [...reasons].filter(([file]) => file.startsWith('test/wa-web-double/'));
    expect(wwd.map(([, reason]) => reason)).to.include('browser');
  });

  it('follows imports through test/ modules (cycles too) and ignores src/ ones', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wakit-lane-'));
    try {
      await mkdir(path.join(root, 'test/helpers'), { recursive: true });
      const files: Record<string, string> = {
        'test/helpers/store.ts': from(REDIS_CLIENT),
        'test/helpers/a.ts': `import { b } from './b.js';\n`,
        'test/helpers/b.ts': `import { a } from './a.js';\n${from(PROCESSES)}`,
        'test/uses-store.test.ts': `import { s } from './helpers/store.js';\n`,
        'test/cycle.test.ts': `import { a } from './helpers/a.js';\n`,
        'test/pure.test.ts': `import { x } from '../src/x.js';\nimport { a } from 'chai';\n`,
      };
      for (const [file, text] of Object.entries(files)) {
        await writeFile(path.join(root, file), text);
      }
      expect(heavyReason(root, 'test/uses-store.test.ts')).to.equal('redis');
      expect(heavyReason(root, 'test/cycle.test.ts')).to.equal('process');
      expect(heavyReason(root, 'test/pure.test.ts')).to.equal(undefined);
      expect(quickLane(root).files).to.deep.equal(['test/pure.test.ts']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
