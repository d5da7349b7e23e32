/**
 * The per-send `typing` option (docs/messages.md, "Typing per reply") on the simulator with a
 * virtual clock: the recipient sees "typing…" (or "recording…" for audio) first, the message only
 * once the time passed; `true` fits the text's length, a number is that many ms.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../../../src/index.js';
import { prepareContent, prepareSend } from '../../../src/client/send/send-contract.js';
import { typingDelayMs } from '../../../src/client/send/deliver-action.js';
import { CLOCK } from '../../../src/kernel/tokens.js';
import { VirtualClock } from '../../../src/kernel/virtual-clock.js';
import '../../../src/entries/simulator.js';
import { BOT_ID, linkedClient, tempDir } from '../../helpers/sdk-fixtures.js';

const ALICE = '15550003001';
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));
// a tiny OGG header is enough for the simulator: it checks nothing but the declared type
const OGG = Buffer.from('OggS\0\x02').toString('base64');

describe('typing per reply (send option)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  let cleanup: () => Promise<void>;
  afterEach(async () => {
    await sdk?.stop();
    await cleanup();
  });

  async function start() {
    let dir: string;
    ({ dir, cleanup } = await tempDir('wakit-typing-'));
    const clock = new VirtualClock(Date.now());
    sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: { type: 'local', dataPath: dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, lightGapMs: 0, drainTimeoutMs: 0 },
      },
      {
        logger: pino({ level: 'silent' }),
        services: (s) => void s.register(CLOCK, { useValue: clock }),
      },
    );
    const client = await linkedClient(sdk, 'bot');
    return { client, clock, alice: sdk.simulator.phone(ALICE) };
  }

  it('typing: true shows "typing…" for the length of the text, then the message', async () => {
    const { client, clock, alice } = await start();
    const text = 'x'.repeat(40); // 1,200 ms
    const queued = await client.enqueue(prepareContent(ALICE, text), { typing: true });
    await settle();
    const states = () => alice.actions.filter((a) => a.type === 'chat-state');
    expect(states()).to.have.length(1);
    expect(states()[0]).to.include({ by: BOT_ID, state: 'typing' });
    await clock.advance(typingDelayMs(text) - 1);
    await settle();
    expect(alice.inbox).to.have.length(0);
    await clock.advance(1);
    await queued.result;
    expect(alice.inbox.map((m) => m.body)).to.deep.equal([text]);
    // without the option: no presence at all
    await (
      await client.enqueue(prepareContent(ALICE, 'plain'))
    ).result;
    expect(states()).to.have.length(1);
  });

  it('a number is that many ms; audio shows "recording…"', async () => {
    const { client, clock, alice } = await start();
    const voice = prepareSend('audio', {
      to: ALICE,
      audio: { data: OGG, mimetype: 'audio/ogg' },
    });
    const queued = await client.enqueue(voice, { typing: 3_000 });
    await settle();
    const states = alice.actions.filter((a) => a.type === 'chat-state');
    expect(states.map((a) => (a as { state: string }).state)).to.deep.equal(['recording']);
    await clock.advance(2_999);
    await settle();
    expect(alice.inbox).to.have.length(0);
    await clock.advance(1);
    await queued.result;
    expect(alice.inbox).to.have.length(1);
  });

  it('typing is not part of an idempotent request: the same key with another typing is that send', async () => {
    // a conversation replayed after a crash, its typing setting changed meanwhile: sent once
    const { client, clock, alice } = await start();
    const first = await client.enqueue(prepareContent(ALICE, 'once'), {
      idempotencyKey: 'k1',
      typing: 1_000,
    });
    const again = await client.enqueue(prepareContent(ALICE, 'once'), {
      idempotencyKey: 'k1',
      typing: false,
    });
    expect(again.trackingId).to.equal(first.trackingId);
    await settle();
    await clock.advance(1_000);
    await first.result;
    await settle();
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['once']);
    // another content under the key is still refused
    const refused = await client
      .enqueue(prepareContent(ALICE, 'other'), { idempotencyKey: 'k1' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).to.have.property('code', 'IDEMPOTENCY_KEY_REUSED');
  });
});
