/**
 * Presence and read state through the SDK on the simulator: "typing…", read receipts, online,
 * `queue.typingBeforeSend`, and the light pacing of reactions and presence in the queue.
 */
import { expect } from 'chai';
import { TYPING_MAX_MS, TYPING_MIN_MS, typingDelayMs } from '../../../src/entries/contract.js';
import { isWakitError, type BotClient, type Message, type Sdk } from '../../../src/index.js';
import type { SimPhone } from '../../../src/engines/simulator/index.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../../helpers/sdk-fixtures.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const GROUP = '120363000000000043@g.us';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isWakitError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('presence and read state (SDK on the simulator)', function () {
  this.timeout(10_000);
  let sdk: Sdk;
  let client: BotClient;
  let alice: SimPhone;
  let cleanup: () => Promise<void>;

  async function start(queue: Record<string, unknown> = {}): Promise<void> {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    sdk = simulatorSdk(dir.dir, {
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10, ...queue },
    });
    alice = sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    client = await linkedClient(sdk, 'bot');
  }

  afterEach(async () => {
    await sdk.stop();
    await cleanup();
  });

  it('presence.send shows typing / recording / paused to the other side of the chat', async () => {
    await start();
    const result = await client.presence.send(ALICE_ID, 'typing');
    expect(result.id).to.equal('');
    await client.presence.send(`+${ALICE}`, 'recording');
    await client.presence.send(ALICE_ID, 'paused');
    const states = alice.actions.filter((a) => a.type === 'chat-state');
    expect(states.map((a) => [a.by, a.chatId, a.state])).to.deep.equal([
      [BOT_ID, BOT_ID, 'typing'],
      [BOT_ID, BOT_ID, 'recording'],
      [BOT_ID, BOT_ID, 'paused'],
    ]);
    expect((await sdk.sends.get(result.trackingId))?.kind).to.equal('presence');
  });

  it('in a group every member sees "typing…"; bad input and unknown chats have codes', async () => {
    await start();
    const bob = sdk.simulator.phone(BOB);
    sdk.simulator.group({ id: GROUP, members: [ALICE, BOB, BOT_ID] });
    await client.presence.send(GROUP, 'typing');
    for (const phone of [alice, bob]) {
      const seen = await phone.waitForAction((a) => a.type === 'chat-state');
      expect(seen).to.include({ chatId: GROUP, by: BOT_ID, state: 'typing' });
    }
    expect(await codeOf(client.presence.send(ALICE_ID, 'dancing' as never))).to.equal(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(client.presence.send('status@broadcast', 'typing'))).to.equal(
      'INVALID_CHAT_ID',
    );
    expect(await codeOf(client.presence.send('120363000000000099@g.us', 'typing'))).to.equal(
      'CHAT_NOT_FOUND',
    );
  });

  it('presence.markSeen marks the chat read: the sender is told (blue ticks)', async () => {
    await start();
    const received = new Promise<Message>((resolve) => client.once('message', resolve));
    await alice.send(BOT_ID, 'did you read this?');
    await received;
    expect(alice.actions.filter((a) => a.type === 'seen')).to.deep.equal([]);
    const result = await client.presence.markSeen(ALICE_ID);
    const seen = await alice.waitForAction((a) => a.type === 'seen');
    expect(seen).to.include({ by: BOT_ID, chatId: BOT_ID });
    expect((await sdk.sends.get(result.trackingId))?.kind).to.equal('seen');
    // Nothing new to read: nobody is told again.
    await client.presence.markSeen(ALICE_ID);
    expect(alice.actions.filter((a) => a.type === 'seen')).to.have.length(1);
  });

  it('presence.setOnline sets the presence of the account', async () => {
    await start();
    const me = sdk.simulator.linkedPhone('bot')!;
    expect(me.online).to.equal(null);
    const result = await client.presence.setOnline(false);
    expect(me.online).to.equal(false);
    await client.presence.setOnline(true);
    expect(me.online).to.equal(true);
    const tracked = await sdk.sends.get(result.trackingId);
    expect(tracked).to.include({ kind: 'online', chatId: BOT_ID });
  });

  it('typingDelayMs: 30 ms per character, between 0.5 and 4 seconds', () => {
    expect(typingDelayMs('hi')).to.equal(TYPING_MIN_MS);
    expect(typingDelayMs('x'.repeat(50))).to.equal(1_500);
    expect(typingDelayMs('😀'.repeat(50))).to.equal(1_500);
    expect(typingDelayMs('x'.repeat(10_000))).to.equal(TYPING_MAX_MS);
  });

  it('queue.typingBeforeSend shows "typing…" for the length of the text, then sends', async () => {
    await start({ typingBeforeSend: true });
    const text = 'x'.repeat(25); // 750 ms
    const started = Date.now();
    await client.sendTextMessage({ to: ALICE_ID, text });
    const arrived = Date.now();
    const typing = alice.actions.find((a) => a.type === 'chat-state');
    expect(typing).to.include({ by: BOT_ID, state: 'typing' });
    const message = await alice.waitForMessage((m) => m.body === text);
    expect(typing!.at).to.be.at.least(started);
    // The timer may fire up to a millisecond early by Date.now()'s rounding.
    expect(arrived - typing!.at).to.be.at.least(typingDelayMs(text) - 2);
    expect(message.body).to.equal(text);
    // Not for media, reactions or presence.
    await client.presence.send(ALICE_ID, 'paused');
    expect(alice.actions.filter((a) => a.type === 'chat-state')).to.have.length(2);
  });

  it('typingBeforeSend is off by default', async () => {
    await start();
    await client.sendTextMessage({ to: ALICE_ID, text: 'quick' });
    await alice.waitForMessage((m) => m.body === 'quick');
    expect(alice.actions).to.deep.equal([]);
  });
});
