import { expect } from 'chai';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const mode = async (dir: string) => (await stat(dir)).mode & 0o7777;

describe('LocalSessionStore directories', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-store-'));
  });
  afterEach(() => cleanup());

  it('creates a missing dataPath and client directories private (0700, files 0600)', async () => {
    const dataPath = path.join(dir, 'sessions', 'nested');
    const store = new LocalSessionStore(dataPath);
    await store.write('bot', Buffer.from('session'));
    expect(await mode(dataPath)).to.equal(0o700);
    expect(await mode(path.join(dataPath, 'bot'))).to.equal(0o700);
    expect(await mode(path.join(dataPath, 'bot', 'session.bin'))).to.equal(0o600);
  });

  it('never changes the mode of an existing dataPath; warns when others can reach it', async () => {
    const dataPath = path.join(dir, 'shared');
    await mkdir(dataPath);
    await chmod(dataPath, 0o1777);
    const warnings: string[] = [];
    const store = new LocalSessionStore(dataPath, { warn: (message) => warnings.push(message) });
    await store.write('bot', Buffer.from('session'));
    await store.write('bot', Buffer.from('session 2'));
    expect(await mode(dataPath)).to.equal(0o1777);
    expect(await mode(path.join(dataPath, 'bot'))).to.equal(0o700);
    expect(warnings).to.have.length(1);
    expect(warnings[0])
      .to.match(/1777/)
      .and.match(/shared/);
  });

  it('leaves an existing client directory it did not create as it is', async () => {
    const dataPath = path.join(dir, 'sessions');
    await mkdir(path.join(dataPath, 'bot'), { recursive: true });
    await chmod(path.join(dataPath, 'bot'), 0o750);
    const warnings: string[] = [];
    const store = new LocalSessionStore(dataPath, { warn: (message) => warnings.push(message) });
    await store.write('bot', Buffer.from('session'));
    expect(await mode(path.join(dataPath, 'bot'))).to.equal(0o750);
    expect(await mode(path.join(dataPath, 'bot', 'session.bin'))).to.equal(0o600);
    expect(warnings.join('\n')).to.match(/750/);
  });
});
