import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfigFile, parseConfig } from '../../src/config/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

describe('WAKIT_DATA: the data directory when auth.dataPath is left out', () => {
  const saved = process.env.WAKIT_DATA;
  afterEach(() => {
    if (saved === undefined) delete process.env.WAKIT_DATA;
    else process.env.WAKIT_DATA = saved;
  });

  it('local sessions go to <WAKIT_DATA>/sessions, a remote cache to <WAKIT_DATA>/remote-cache', () => {
    process.env.WAKIT_DATA = '/data';
    expect(parseConfig({ auth: { type: 'local' } }).auth.dataPath).to.equal('/data/sessions');
    const remote = parseConfig({
      auth: { type: 'remote', storage: { projectId: 'p', bucket: 'bkt' } },
    });
    expect(remote.auth.dataPath).to.equal('/data/remote-cache');
  });

  it('a dataPath written in the config wins; without WAKIT_DATA the default stays ./.wakit', () => {
    process.env.WAKIT_DATA = '/data';
    expect(parseConfig({ auth: { type: 'local', dataPath: './s' } }).auth.dataPath).to.equal('./s');
    delete process.env.WAKIT_DATA;
    expect(parseConfig({ auth: { type: 'local' } }).auth.dataPath).to.equal('./.wakit/sessions');
  });

  it('a relative WAKIT_DATA is taken from the working directory, not the config file', async () => {
    const { dir, cleanup } = await tempDir('wakit-data-');
    try {
      await writeFile(path.join(dir, 'bot.config.json'), '{ "auth": { "type": "local" } }');
      process.env.WAKIT_DATA = 'var/wakit';
      const loaded = await loadConfigFile(path.join(dir, 'bot.config.json'));
      expect(loaded.config.auth.dataPath).to.equal(path.resolve('var/wakit/sessions'));
    } finally {
      await cleanup();
    }
  });
});
