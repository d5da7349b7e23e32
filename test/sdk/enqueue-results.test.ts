import { expect } from 'chai';
import { prepareContent } from '../../src/entries/contract.js';
import type { Sdk } from '../../src/index.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

describe('enqueue results nobody awaits', () => {
  let sdk: Sdk | undefined;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 0 });
    await cleanup();
  });

  it('a send left waiting at stop rejects SHUTTING_DOWN without an unhandled rejection', async () => {
    const temp = await tempDir('wakit-enqueue-');
    cleanup = temp.cleanup;
    sdk = simulatorSdk(temp.dir, { queue: { minGapMs: 60_000, jitterMs: 0, perChatGapMs: 0 } });
    const client = await linkedClient(sdk, 'bot');
    sdk.simulator.phone('15550001111');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      await client.enqueue(prepareContent('15550001111', 'goes at once'));
      const waiting = await client.enqueue(prepareContent('15550001111', 'waits a minute'));
      await sdk.stop({ drainTimeoutMs: 0 });
      sdk = undefined;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).to.deep.equal([]);
      const error = await waiting.result.then(
        () => undefined,
        (e: { code: string }) => e,
      );
      expect(error?.code).to.equal('SHUTTING_DOWN');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
