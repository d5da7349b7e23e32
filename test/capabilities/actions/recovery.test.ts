/**
 * A reaction is journaled like a message: accepted while the connection is down, left in the
 * outbox when the process stops, and made after the next start (SQLite outbox, a new SDK on the
 * same data directory and the same simulated WhatsApp).
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Message, type Sdk, type WakitConfigInput } from '../../../src/index.js';
import { prepareAction } from '../../../src/entries/contract.js';
import { SimulatorNetwork } from '../../../src/engines/simulator/index.js';
import { BOT_ID, BOT_PHONE, tempDir } from '../../helpers/sdk-fixtures.js';

const ALICE = '15550001111';

describe('message actions: a journaled reaction survives a restart', function () {
  this.timeout(15_000);
  const sdks: Sdk[] = [];
  let cleanup: () => Promise<void>;

  afterEach(async () => {
    for (const sdk of sdks.splice(0)) await sdk.stop({ drainTimeoutMs: 50 });
    await cleanup();
  });

  it('is recovered from the outbox and made once the client is READY again', async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const network = new SimulatorNetwork({ config: { ackDelayMs: 5 } });
    const alice = network.phone(ALICE);
    const config: WakitConfigInput = {
      engine: { type: 'simulator' },
      auth: { type: 'local', dataPath: dir.dir },
      clients: ['bot'],
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, holdUntilReady: true },
      reconnect: { initialDelayMs: 60_000 },
    };
    const make = (): Sdk => {
      const sdk = createSdk(config, {
        logger: pino({ level: 'silent' }),
        engineFactory: network.engineFactory(),
      });
      sdks.push(sdk);
      return sdk;
    };

    const first = make();
    const client = first.createClient({ name: 'bot' });
    client.on('qr', (qr) => network.scan(qr, { phone: BOT_PHONE }));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    const received = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, 'react to me');
    const message = await received;

    network.disconnect('bot', 'connection_lost');
    expect(client.state).to.not.equal('READY');
    const queued = await client.enqueue(
      prepareAction('reaction', { messageId: message.id, emoji: '👍' }),
    );
    queued.result.catch(() => undefined);
    await first.stop({ drainTimeoutMs: 50 });
    sdks.splice(sdks.indexOf(first), 1);
    expect(alice.actions).to.deep.equal([]);

    const second = make();
    await second.start();
    const seen = await alice.waitForAction((a) => a.type === 'reaction', 5_000);
    expect(seen).to.include({ by: BOT_ID, emoji: '👍' });
    // The phone sees the reaction while the send call is still returning: wait for its record.
    let record = await second.sends.get(queued.trackingId);
    for (let i = 0; i < 100 && record?.status === 'sending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      record = await second.sends.get(queued.trackingId);
    }
    expect(record).to.include({ kind: 'reaction', status: 'sent', messageId: message.id });
  });
});
