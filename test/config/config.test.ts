import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile, parseConfig, substituteEnv } from '../../src/config/index.js';
import { storeKindOf } from '../../src/conversations/conversation-records.js';
import type { WakitError } from '../../src/errors/index.js';
import { fullConfigJsonSchema } from '../../scripts/write-config-schema.js';

function failure(fn: () => unknown): WakitError {
  try {
    fn();
  } catch (error) {
    return error as WakitError;
  }
  throw new Error('expected an error');
}

describe('configuration', () => {
  it('fills defaults and freezes the result', () => {
    const config = parseConfig({ auth: { type: 'local', dataPath: '/tmp/x' } });
    expect(config.engine.type).to.equal('whatsapp-web.js');
    expect(config.queue.minGapMs).to.be.a('number');
    expect(config.media.maxBytes).to.equal(16 * 1024 * 1024);
    expect(config.media.allowPrivateNetworks).to.equal(false);
    expect(config.clients).to.deep.equal([]);
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.queue)).to.equal(true);
    expect(() => {
      (config.queue as { minGapMs: number }).minGapMs = 0;
    }).to.throw(TypeError);
  });

  it('accepts the remote strategy of the spec and fills lease defaults', () => {
    const config = parseConfig({
      auth: { type: 'remote', storage: { projectId: 'p', bucket: 'bkt', path: 'sessions' } },
    });
    expect(config.auth.type).to.equal('remote');
    if (config.auth.type === 'remote') expect(config.auth.lease.onLeased).to.equal('wait');
  });

  it('reports every problem at once, with its path, as CONFIG_INVALID', () => {
    const error = failure(() =>
      parseConfig({
        engine: { type: 'simulator', qrRefreshMs: -1 },
        auth: { type: 'remote', storage: { bucket: 'b' } },
        clients: ['ok', 'bad name'],
        queue: { minGapMs: 'fast', turbo: true },
      }),
    );
    expect(error.code).to.equal('CONFIG_INVALID');
    const paths = error.issues?.map((i) => i.path) ?? [];
    expect(paths).to.include.members([
      'engine.qrRefreshMs',
      'auth.storage.projectId',
      'clients.1',
      'queue.minGapMs',
      'queue.turbo',
    ]);
    expect(error.message).to.contain('auth.storage.projectId');
  });

  it('cluster mode needs remote sessions and a redis URL, with defaults filled', () => {
    const local = failure(() =>
      parseConfig({ auth: { type: 'local' }, cluster: { type: 'redis', url: 'redis://r:6379' } }),
    );
    expect(local.code).to.equal('CONFIG_INVALID');
    expect(local.message).to.contain('auth.type').and.contain('cluster');
    const badUrl = failure(() =>
      parseConfig({ auth: { type: 'local' }, cluster: { type: 'redis', url: 'http://r' } }),
    );
    expect(badUrl.message).to.contain('redis://');
    const config = parseConfig({
      auth: { type: 'remote', storage: { projectId: 'p', bucket: 'bkt' } },
      cluster: { type: 'redis', url: 'redis://r:6379/0', maxClients: 4 },
    });
    expect(config.cluster).to.deep.include({
      keyPrefix: 'wakit',
      heartbeatMs: 2_000,
      maxClients: 4,
    });
  });

  it('conversations.store: auto is redis in a fleet and sqlite alone; redis without cluster is refused', () => {
    const remote = { type: 'remote', storage: { projectId: 'p', bucket: 'bkt' } };
    const alone = parseConfig({ auth: { type: 'local' } });
    expect(alone.conversations.store).to.equal('auto');
    expect(storeKindOf(alone)).to.equal('sqlite');
    const fleet = parseConfig({ auth: remote, cluster: { type: 'redis', url: 'redis://r:6379' } });
    expect(storeKindOf(fleet)).to.equal('redis');
    const own = parseConfig({
      auth: remote,
      cluster: { type: 'redis', url: 'redis://r:6379' },
      conversations: { store: 'sqlite' },
    });
    expect(storeKindOf(own)).to.equal('sqlite');
    const refused = failure(() =>
      parseConfig({ auth: { type: 'local' }, conversations: { store: 'redis' } }),
    );
    expect(refused.code).to.equal('CONFIG_INVALID');
    expect(refused.issues?.[0]?.path).to.equal('conversations.store');
  });

  it('rejects a missing auth section and unknown engines', () => {
    expect(failure(() => parseConfig({})).issues?.[0]?.path).to.equal('auth');
    expect(
      failure(() => parseConfig({ auth: { type: 'local' }, engine: { type: 'baileys' } })).code,
    ).to.equal('CONFIG_INVALID');
    expect(
      failure(() => parseConfig({ auth: { type: 'local' }, clients: ['a', 'a'] })).code,
    ).to.equal('CONFIG_INVALID');
  });

  it('substitutes ${ENV} variables and names every missing one', () => {
    const out = substituteEnv({ a: '${A}-x', list: ['${B}'], lit: '$${A}' }, { A: '1', B: '2' });
    expect(out).to.deep.equal({ a: '1-x', list: ['2'], lit: '${A}' });
    const error = failure(() =>
      substituteEnv({ x: '${MISSING_ONE}', y: { z: '${MISSING_TWO}' } }, {}),
    );
    expect(error.code).to.equal('CONFIG_INVALID');
    expect(error.message).to.contain('MISSING_ONE').and.contain('MISSING_TWO').and.contain('y.z');
  });

  it('loads a JSON file with environment variables', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-config-'));
    try {
      const file = path.join(dir, 'bot.config.json');
      await writeFile(
        file,
        JSON.stringify({ auth: { type: 'local', dataPath: '${DATA}' }, clients: ['main'] }),
      );
      const loaded = await loadConfigFile(file, { DATA: './sessions' });
      expect(loaded.baseDir).to.equal(dir);
      expect(loaded.config.auth).to.deep.include({ type: 'local', dataPath: './sessions' });
      await writeFile(file, '{ not json');
      expect(await loadConfigFile(file).catch((e: unknown) => e)).to.have.property(
        'code',
        'CONFIG_INVALID',
      );
      const missing = (await loadConfigFile(path.join(dir, 'nope.json')).catch(
        (e: unknown) => e,
      )) as WakitError;
      expect(missing.code).to.equal('CONFIG_INVALID');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('config.schema.json is the schema generated from the zod schema (run `npm run schema`)', async () => {
    const committed = JSON.parse(
      await readFile(new URL('../../config.schema.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).to.deep.equal(fullConfigJsonSchema());
  });
});
