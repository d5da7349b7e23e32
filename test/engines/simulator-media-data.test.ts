import { expect } from 'chai';
import type { Message, Sdk } from '../../src/index.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

describe('simulator: media a phone sends', () => {
  let sdk: Sdk | undefined;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 0 });
    await cleanup();
  });

  it('takes the base64 data downloadMedia() returns, byte for byte, and refuses anything else', async () => {
    const temp = await tempDir('wakit-sim-media-');
    cleanup = temp.cleanup;
    sdk = simulatorSdk(temp.dir);
    const client = await linkedClient(sdk, 'bot');
    const alice = sdk.simulator.phone('15550001111');
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);
    const received: Message[] = [];
    client.on('message', (m) => {
      received.push(m);
    });
    await alice.send(BOT_ID, { data: bytes, mimetype: 'image/png' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = await received[0].downloadMedia();
    // forwarding what was downloaded: base64 text, as a bot author would
    await alice.send(BOT_ID, { data: first.data, mimetype: first.mimetype });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await received[1].downloadMedia();
    expect(Buffer.from(second.data, 'base64')).to.deep.equal(bytes);
    for (const data of ['not base64 at all!', 42, ''] as unknown[]) {
      const error = await Promise.resolve()
        .then(() => alice.send(BOT_ID, { data: data as string, mimetype: 'image/png' }))
        .then(
          () => undefined,
          (e: { code?: string }) => e,
        );
      expect(error?.code).to.equal('VALIDATION_FAILED');
    }
  });
});
