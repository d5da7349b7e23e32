// The silence deadline of an automatic `human` is kept with the chat's mode (SQLite): after a
// restart it is armed again and fires with no new message, and the mode itself is still there.
import { expect } from 'chai';
import { createSdk, type Sdk } from '../../src/index.js';
import { CLOCK } from '../../src/kernel/tokens.js';
import { VirtualClock } from '../../src/entries/testing.js';
import type { ChatModeChange } from '../../src/entries/types.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

const BOT = '15550000001';
const PERSON = '15550001111';
const MINUTE = 60_000;

function bot(dataPath: string, clock: VirtualClock): Sdk {
  return createSdk(
    {
      engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT },
      auth: { type: 'local', dataPath },
      clients: ['bot'],
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, typingBeforeSend: false },
      conversations: { store: 'sqlite' },
      handoff: { auto: true, silenceMinutes: 10, resumeMessage: 'The bot is back.' },
      log: { level: 'silent' },
    },
    { services: (s) => void s.register(CLOCK, { useValue: clock }) },
  );
}

describe('handoff: the silence deadline survives a restart', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  afterEach(async () => sdk?.stop());

  it('human from the phone, stop, start: the bot takes over at the deadline with no message', async () => {
    const { dir } = await tempDir();
    const clock = new VirtualClock();
    sdk = bot(dir, clock);
    await sdk.start();
    await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    const person = sdk.simulator.phone(PERSON);
    const switched = new Promise((resolve) => sdk!.client('bot').once('chat.mode', resolve));
    await sdk.simulator.linkedPhone('bot')!.send(person.id, 'Carol here, from the shop.');
    await switched;
    const info = await sdk.chats.mode('bot', person.id);
    expect(info).to.include({ mode: 'human', by: 'phone' });
    expect(info.until).to.equal(new Date(clock.now() + 10 * MINUTE).toISOString());
    await sdk.stop();

    // 4 minutes later, another process (same data path, its own simulated network)
    const later = new VirtualClock(clock.now() + 4 * MINUTE);
    sdk = bot(dir, later);
    const changes: ChatModeChange[] = [];
    sdk.onClient((client) => client.on('chat.mode', (change) => changes.push(change)));
    await sdk.start();
    await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    const again = sdk.simulator.phone(PERSON);
    expect(await sdk.chats.mode('bot', again.id)).to.deep.equal(info);
    await later.advance(6 * MINUTE - 1);
    expect((await sdk.chats.mode('bot', again.id)).mode).to.equal('human');
    await later.advance(1);
    const back = await again.waitForMessage((m) => m.body === 'The bot is back.', 5_000);
    expect(back.author).to.equal(`${BOT}@c.us`);
    expect(await sdk.chats.mode('bot', again.id)).to.include({ mode: 'bot', by: 'silence' });
    expect(changes.map((c) => `${c.previous}→${c.mode} ${c.by}`)).to.deep.equal([
      'human→bot silence',
    ]);
  });
});
