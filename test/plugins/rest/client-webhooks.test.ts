import { expect } from 'chai';
import { pino } from 'pino';
import { tempDir } from '../../helpers/sdk-fixtures.js';
import { MemoryClientRegistry } from '../../../src/entries/kernel.js';
import { createSdk } from '../../../src/index.js';
import { ClientWebhooks } from '../../../plugins/rest/events/client-webhooks.js';

const hook = { url: 'https://hooks.example/x', secret: 'client-webhook-secret-0123' };

describe('REST: per-client webhooks as kept in the client registry', () => {
  it('applies the kept webhooks of run-time clients only, not of a kept record a configured client shadows; follows changes', async () => {
    const { dir, cleanup } = await tempDir();
    const registry = new MemoryClientRegistry();
    const settings = { rest: { webhooks: [hook] } };
    await registry.put({ name: 'main', createdAt: new Date().toISOString(), settings });
    await registry.put({ name: 'extra', createdAt: new Date().toISOString(), settings });
    await registry.put({
      name: 'broken',
      createdAt: new Date().toISOString(),
      settings: { rest: { webhooks: [{ url: 'not a url' }] } },
    });
    const sdk = createSdk(
      { engine: { type: 'simulator' }, auth: { type: 'local', dataPath: dir }, clients: ['main'] },
      { logger: pino({ level: 'silent' }), clientRegistry: registry },
    );
    try {
      await sdk.clientAdmin.load();
      const hooks = new ClientWebhooks(sdk.clientAdmin, {
        allowPrivateNetworks: false,
        maxPerClient: 10,
        log: sdk.logger,
      });
      expect(hooks.of('main')).to.deep.equal([]);
      expect(hooks.of('broken')).to.deep.equal([]);
      expect(hooks.of('extra')).to.have.length(1);
      expect(hooks.of('extra')[0]).to.include({ url: hook.url, maxAttempts: 5 });
      const before = hooks.of('extra')[0];

      await sdk.start();
      let changes = 0;
      hooks.onChange(() => changes++);
      await sdk.clientAdmin.updateSettings('extra', 'other-plugin', { x: 1 });
      expect(hooks.of('extra')[0], 'unchanged hooks keep their identity').to.equal(before);
      await hooks.set('extra', []);
      expect(hooks.of('extra')).to.deep.equal([]);
      await sdk.removeClient('broken');
      expect(changes).to.equal(3);
      hooks.close();
    } finally {
      await sdk.stop();
      await cleanup();
    }
  });
});
