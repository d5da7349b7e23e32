/**
 * Calls through the SDK on the simulator: the `call` event, rejectCall, group calls, blocked
 * callers, and `calls: { reject, message }` rejecting automatically and answering through the queue.
 */
import { expect } from 'chai';
import type { BotClient, Sdk } from '../../../src/index.js';
import type { CallData } from '../../../src/entries/types.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  simulatorSdk,
  tempDir,
} from '../../helpers/sdk-fixtures.js';
import { rejection } from '../../helpers/rejection.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const GROUP = '120363000000000001@g.us';

function nextCall(client: BotClient): Promise<CallData> {
  return new Promise((resolve) => client.once('call', resolve));
}

describe('calls (SDK on the simulator)', () => {
  let sdk: Sdk;
  let client: BotClient;
  let cleanup: () => Promise<void>;

  async function start(calls?: { reject: boolean; message?: string }): Promise<void> {
    const dir = await tempDir('wakit-calls-');
    cleanup = dir.cleanup;
    sdk = simulatorSdk(dir.dir, calls ? { calls } : {});
    client = await linkedClient(sdk, 'bot');
  }

  afterEach(async () => {
    await sdk.stop({ drainTimeoutMs: 100 });
    await cleanup();
  });

  it('emits call with who calls, video and group, and rejectCall ends the ringing', async () => {
    await start();
    const alice = sdk.simulator.phone(ALICE);
    const ringing = nextCall(client);
    const call = alice.call(BOT_ID, { video: true });
    const event = await ringing;
    expect(event).to.deep.equal({
      id: call.id,
      from: ALICE_ID,
      video: true,
      group: false,
      timestamp: event.timestamp,
    });
    expect(event.id).to.match(/^[0-9A-F]{32}$/);
    expect(Math.abs(event.timestamp - Date.now() / 1000)).to.be.below(5);
    expect(call.state).to.equal('ringing');
    await client.calls.reject(event.id);
    expect(await call.waitUntilSettled()).to.equal('rejected');
    expect([...call.rejectedBy]).to.deep.equal([BOT_ID]);
    expect((await rejection(client.calls.reject(event.id))).code).to.equal('CALL_NOT_FOUND');
  });

  it('a call the caller ended, or an unknown id, is CALL_NOT_FOUND; bad ids are refused', async () => {
    await start();
    const ringing = nextCall(client);
    const call = sdk.simulator.phone(ALICE).call(BOT_PHONE);
    const { id } = await ringing;
    call.end();
    expect(await call.waitUntilSettled()).to.equal('ended');
    const error = await rejection(client.calls.reject(id));
    expect(error.code).to.equal('CALL_NOT_FOUND');
    expect(error.status).to.equal(404);
    expect((await rejection(client.calls.reject('0123456789ABCDEF'))).code).to.equal(
      'CALL_NOT_FOUND',
    );
    expect((await rejection(client.calls.reject('no spaces allowed'))).code).to.equal(
      'VALIDATION_FAILED',
    );
  });

  it('a LID-addressed caller calls from their LID; group calls ring every member', async () => {
    await start();
    const lia = sdk.simulator.phone('15550005555', { lidAddressed: true, lid: '123456789012345' });
    let ringing = nextCall(client);
    lia.call(BOT_ID).end();
    expect((await ringing).from).to.equal('123456789012345@lid');
    sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, ALICE, BOB] });
    ringing = nextCall(client);
    const call = sdk.simulator.phone(ALICE).call(GROUP);
    const event = await ringing;
    expect(event).to.include({ from: ALICE_ID, group: true, video: false });
    // The bot declines for itself; Bob's phone still rings.
    await client.calls.reject(event.id);
    expect(call.state).to.equal('ringing');
    expect([...call.rejectedBy]).to.deep.equal([BOT_ID]);
    call.end();
    expect(() => sdk.simulator.phone(ALICE).call('120363999999999999@g.us')).to.throw(
      /does not exist/,
    );
  });

  it('calls from a blocked person do not reach the bot', async () => {
    await start();
    const alice = sdk.simulator.phone(ALICE);
    await client.contacts.block(ALICE);
    const seen: string[] = [];
    client.on('call', (c) => seen.push(c.from));
    const blocked = alice.call(BOT_ID);
    const ringing = nextCall(client);
    sdk.simulator.phone(BOB).call(BOT_ID);
    await ringing;
    expect(seen).to.deep.equal([`${BOB}@c.us`]);
    expect((await rejection(client.calls.reject(blocked.id))).code).to.equal('CALL_NOT_FOUND');
  });

  it('calls.reject rejects every incoming call and sends calls.message to the caller', async () => {
    await start({ reject: true, message: 'I am a bot and cannot take calls, please write.' });
    const alice = sdk.simulator.phone(ALICE);
    const events: CallData[] = [];
    client.on('call', (c) => events.push(c));
    const call = alice.call(BOT_ID);
    expect(await call.waitUntilSettled()).to.equal('rejected');
    const answer = await alice.waitForMessage((m) => m.author === BOT_ID);
    expect(answer.body).to.equal('I am a bot and cannot take calls, please write.');
    expect(events.map((e) => e.id)).to.deep.equal([call.id]);
    // The answer went through the queue: it is tracked like any send.
    const page = await sdk.sends.list({ clients: ['bot'], limit: 10 });
    expect(page.items.map((s) => [s.chatId, s.kind])).to.deep.equal([[ALICE_ID, 'text']]);
  });

  it('calls.reject without a message only rejects', async () => {
    await start({ reject: true });
    const alice = sdk.simulator.phone(ALICE);
    expect(await alice.call(BOT_ID).waitUntilSettled()).to.equal('rejected');
    expect((await sdk.sends.list({ clients: ['bot'], limit: 10 })).items).to.deep.equal([]);
    expect(sdk.config.calls).to.deep.equal({ reject: true });
  });

  it('is off by default: the call rings until handled', async () => {
    await start();
    expect(sdk.config.calls).to.deep.equal({ reject: false });
    const ringing = nextCall(client);
    const call = sdk.simulator.phone(ALICE).call(BOT_ID);
    await ringing;
    // (An automatic rejection would have happened while the event was emitted.)
    await rejection(client.calls.reject('0123456789ABCDEF'));
    expect(call.state).to.equal('ringing');
    expect(call.rejectedBy.size).to.equal(0);
    call.end();
  });

  it('rejectCall needs a READY client', async () => {
    await start();
    await client.stop();
    expect((await rejection(client.calls.reject('0123456789ABCDEF'))).code).to.equal(
      'CLIENT_NOT_READY',
    );
  });
});
