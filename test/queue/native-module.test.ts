// better-sqlite3 without its compiled part (install script blocked): the outbox error says what
// happened and how to fix it, instead of reading like a permission problem (issue 29, item 11).
import { expect } from 'chai';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openError } from '../../src/queue/outbox/sqlite-rows.js';

const require = createRequire(import.meta.url);

describe('outbox: the native module of better-sqlite3 is missing', () => {
  it('names the cause and the three fixes (rebuild, allow the install script, memory)', async () => {
    // the very error better-sqlite3 throws when build/Release/better_sqlite3.node is absent
    const root = await mkdtemp(path.join(os.tmpdir(), 'wakit-no-addon-'));
    let missing: unknown;
    try {
      const bindings = require('bindings') as (o: {
        bindings: string;
        module_root: string;
      }) => unknown;
      bindings({ bindings: 'better_sqlite3.node', module_root: root });
    } catch (error) {
      missing = error;
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    expect(String((missing as Error).message)).to.include('Could not locate the bindings file');

    const error = openError(missing, '/srv/bot/.wakit/sessions/outbox.db');
    expect(error.code).to.equal('STORAGE_UNAVAILABLE');
    expect(error.message)
      .to.include('native part of better-sqlite3 is missing')
      .and.include('npm rebuild better-sqlite3')
      .and.include('"allowScripts": { "better-sqlite3": true }')
      .and.include('pnpm approve-builds')
      .and.include('queue.persistence')
      .and.not.include('cannot be written');
  });

  it('a module built for another Node.js is told the same way', () => {
    const error = openError(
      Object.assign(
        new Error(
          'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115.',
        ),
        {
          code: 'ERR_DLOPEN_FAILED',
        },
      ),
      'outbox.db',
    );
    expect(error.message).to.include('npm rebuild better-sqlite3');
  });

  it('other failures keep their own words', () => {
    const error = openError(
      Object.assign(new Error('denied'), { code: 'SQLITE_CANTOPEN' }),
      'o.db',
    );
    expect(error.message).to.include('cannot be written').and.not.include('rebuild');
  });
});
