import { expect } from 'chai';
import type { Sdk } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { TrackedSend } from '../../src/queue/index.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const phone = (n: number) => `1555400${String(n).padStart(4, '0')}`;

describe('governor: dry run (governor.mode "dry-run") defers nothing and counts what it would have', function () {
  this.timeout(30_000);
  let sdk: Sdk;
  let cleanup: () => Promise<void>;
  afterEach(async () => {
    await sdk.stop();
    await cleanup();
  });

  for (const mode of ['dry-run', 'enforce'] as const) {
    it(`${mode}: 6 bulk sends to new contacts with a budget of 2 an hour`, async () => {
      const scratch = await tempDir();
      cleanup = scratch.cleanup;
      sdk = simulatorSdk(scratch.dir, {
        governor: { preset: 'standard', mode, perHour: 2, warmupDays: 0 },
      });
      const client = await linkedClient(sdk, 'bot');
      const statuses: TrackedSend[] = [];
      client.on('message.status', (record) => statuses.push(record));
      const ids: string[] = [];
      for (let n = 0; n < 6; n++) {
        sdk.simulator.phone(phone(n));
        const queued = await client.enqueue(prepareContent(phone(n), `bulk ${n}`), {
          priority: 'bulk',
        });
        ids.push(queued.trackingId);
      }
      const final = (id: string) => statuses.filter((s) => s.id === id).at(-1)?.status;
      const went = (id: string) => ['sent', 'delivered', 'read'].includes(final(id) ?? '');
      await waitUntil(() => ids.every((id) => went(id) || final(id) === 'deferred'), 10_000);
      const info = client.info().governor;
      expect(info?.mode).to.equal(mode);
      if (mode === 'dry-run') {
        expect(ids.filter(went)).to.have.length(6);
        expect(statuses.filter((s) => s.status === 'deferred')).to.have.length(0);
        expect(info?.wouldDefer).to.equal(4);
      } else {
        expect(ids.filter(went)).to.have.length(2);
        expect(ids.filter((id) => final(id) === 'deferred')).to.have.length(4);
        expect(info?.wouldDefer).to.equal(0);
      }
    });
  }
});
