/**
 * `engine.senderLookUpTimeoutMs`: a received message whose sender's look-up never answers (a hung
 * page) waits that long, on the SDK's clock, and is then emitted with the sender it came with; the
 * default is 5 s. Through the SDK: the simulator engine, its contact look-up replaced by one that
 * never answers (ENGINE_FACTORY), time moved by a VirtualClock.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Message, type Sdk } from '../../src/index.js';
import type { Engine, EngineFactory } from '../../src/engines/engine.js';
import type { MessageData } from '../../src/engines/types.js';
import type { EngineEmitter } from '../../src/engines/engine-emitter.js';
import { VirtualClock } from '../../src/kernel/virtual-clock.js';
import { CLOCK, ENGINE, ENGINE_FACTORY } from '../../src/kernel/tokens.js';
import { SENDER_LOOK_UP_DEADLINE_MS } from '../../src/client/inbound/contact-cache.js';
import { BOT_ID, BOT_PHONE, tempDir } from '../helpers/sdk-fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const STRANGER = '123456789012345@lid';

function incoming(id: string): MessageData {
  return {
    id: `false_${STRANGER}_${id}`,
    body: id,
    from: STRANGER,
    to: BOT_ID,
    chatId: STRANGER,
    timestamp: 1_767_225_600,
    hasMedia: false,
    isGroup: false,
    broadcast: false,
    isChannel: false,
    isStatus: false,
    hasQuotedMsg: false,
    fromMe: false,
    type: 'chat',
    ack: 1,
    mentionedIds: [],
    sender: { id: STRANGER },
  };
}

describe('engine.senderLookUpTimeoutMs (the sender look-up deadline)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await sdk?.stop();
    await cleanup?.();
    sdk = undefined;
  });

  /** A READY client whose engine's contact look-up never answers; the engine to fire events. */
  async function hungLookUp(engineConfig: Record<string, unknown>) {
    const clock = new VirtualClock();
    const dir = await tempDir();
    cleanup = dir.cleanup;
    let engine: (Engine & EngineEmitter) | undefined;
    let scan: ((qr: string) => void) | undefined;
    sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 0, ...engineConfig } as never,
        auth: { type: 'local', dataPath: dir.dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      },
      {
        logger: pino({ level: 'silent' }),
        services: (s) =>
          s.register(CLOCK, { useValue: clock }).register(ENGINE_FACTORY, {
            useFactory: (c): EngineFactory => {
              const choice = c.resolve(ENGINE);
              return async (context) => {
                const network = await choice.simulator?.load();
                scan = (qr) => network?.scan(qr, { phone: BOT_PHONE });
                const created = (await choice.factory(context)) as Engine & EngineEmitter;
                created.ops.contacts.resolve = () => new Promise(() => undefined);
                engine = created;
                return created;
              };
            },
          }),
      },
    );
    const client = sdk.createClient({ name: 'bot' });
    client.on('qr', (qr) => scan?.(qr));
    await client.initialize();
    await waitUntil(
      () => client.state === 'READY',
      10_000,
      () => client.state,
    );
    const got: Message[] = [];
    client.on('message', (m) => void got.push(m));
    if (!engine) expect.fail('no engine');
    return { clock, engine, got };
  }

  it('a configured deadline: the message waits that long on the clock, not longer', async () => {
    const { clock, engine, got } = await hungLookUp({ senderLookUpTimeoutMs: 250 });
    engine.fire('message', incoming('first'));
    await clock.advance(249);
    expect(got).to.deep.equal([]);
    await clock.advance(1);
    await waitUntil(() => got.length === 1, 2_000);
    expect(got[0]?.body).to.equal('first');
    expect(got[0]?.sender).to.deep.include({ id: STRANGER });
    expect(got[0]?.sender.phone).to.equal(undefined);
  });

  it('unset: the default 5 s', async () => {
    const { clock, engine, got } = await hungLookUp({});
    engine.fire('message', incoming('second'));
    await clock.advance(250);
    expect(got).to.deep.equal([]);
    await clock.advance(SENDER_LOOK_UP_DEADLINE_MS - 251);
    expect(got).to.deep.equal([]);
    await clock.advance(1);
    await waitUntil(() => got.length === 1, 2_000);
    expect(got[0]?.body).to.equal('second');
  });
});
