/**
 * Waiting sends beyond `queue.memoryWindow` wait only in the outbox: through the SDK on the
 * simulator with the SQLite outbox, a window far smaller than the sends accepted.
 */
import { expect } from 'chai';
import { prepareContent } from '../../src/entries/contract.js';
import type { BotClient, Sdk, TrackedSend } from '../../src/index.js';
import { rejection } from '../helpers/rejection.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const CONTACT = '15550001111';
const HOLD = { minGapMs: 600_000, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 };
const FAST = { minGapMs: 1, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 };

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('outbox: waiting sends beyond the memory window', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const sdks: Sdk[] = [];
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-window-'));
  });
  afterEach(async () => {
    for (const sdk of sdks.splice(0)) await sdk.stop({ drainTimeoutMs: 0 });
    await cleanup();
  });

  function sdkWith(queue: object, more: object = {}): Sdk {
    const sdk = simulatorSdk(dir, { queue, ...more });
    sdks.push(sdk);
    sdk.simulator.phone(CONTACT);
    return sdk;
  }

  const send = (client: BotClient, body: string, options: object = {}) =>
    client.enqueue(prepareContent(CONTACT, body), options);

  it('sends far more than the window in order and priority; a later reply goes first; ids and idempotency keep working', async () => {
    const sdk = sdkWith(
      { ...FAST, memoryWindow: 3, holdUntilReady: true },
      { reconnect: { initialDelayMs: 600_000, maxDelayMs: 600_000, jitter: 'none' } },
    );
    const client = await linkedClient(sdk, 'bot');
    sdk.simulator.disconnect('bot', 'connection_lost'); // the queue holds everything meanwhile
    const ids = new Map<string, string>();
    const accept = async (body: string, options: object = {}) => {
      const queued = await send(client, body, options);
      ids.set(body, queued.trackingId);
      return queued;
    };
    for (let n = 0; n < 8; n++) await accept(`b${n}`, { priority: 'bulk' });
    const b7 = await accept('b7-keyed', { priority: 'bulk', idempotencyKey: 'k-b7' });
    for (let n = 0; n < 4; n++) await accept(`n${n}`);
    for (let n = 0; n < 5; n++) await accept(`r${n}`, { priority: 'reply' });
    expect(client.info().queue.pending).to.equal(18);
    expect((await sdk.sends.get(b7.trackingId))?.status).to.equal('queued');
    const again = await send(client, 'b7-keyed', { priority: 'bulk', idempotencyKey: 'k-b7' });
    expect([again.trackingId, again.duplicate]).to.deep.equal([b7.trackingId, true]);
    const b7Result = b7.result;
    const againResult = again.result;

    await client.stop();
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 15_000 });
    const phone = sdk.simulator.phone(CONTACT);
    await until(() => phone.inbox.length >= 18, 'every send');
    expect(phone.inbox.map((m) => m.body)).to.deep.equal([
      ...['r0', 'r1', 'r2', 'r3', 'r4'],
      ...['n0', 'n1', 'n2', 'n3'],
      ...['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b7-keyed'],
    ]);
    const { id } = await b7Result;
    expect(id).to.equal(phone.inbox.at(-1)?.id);
    expect((await againResult).id).to.equal(id);
    for (const trackingId of ids.values()) {
      expect((await sdk.sends.get(trackingId))?.status).to.be.oneOf(['sent', 'delivered', 'read']);
    }
    expect(client.info().queue.pending).to.equal(0);
  });

  it('QUEUE_FULL counts every waiting send, not only the window', async () => {
    const sdk = sdkWith({ ...HOLD, memoryWindow: 1, maxSize: 4 });
    const client = await linkedClient(sdk, 'bot');
    await send(client, 'goes at once');
    await until(() => {
      const { pending, running } = client.info().queue;
      return pending + running === 0;
    }, 'the first send');
    for (let n = 0; n < 4; n++) await send(client, `waits ${n}`, { priority: 'bulk' });
    expect(client.info().queue.pending).to.equal(4); // 1 in memory, 3 only in the outbox
    expect((await rejection(send(client, 'one too many'))).code).to.equal('QUEUE_FULL');
  });

  it('a session that ends fails the paged-out sends too, with message.status and rejected results', async () => {
    const sdk = sdkWith({ ...HOLD, memoryWindow: 2 });
    const client = await linkedClient(sdk, 'bot');
    const failed: TrackedSend[] = [];
    client.on('message.status', (record) => {
      if (record.status === 'failed') failed.push(record);
    });
    const waiting: string[] = [];
    await send(client, 's0'); // goes at once; the rest waits for the gap
    for (let n = 1; n <= 6; n++) waiting.push((await send(client, `s${n}`)).trackingId);
    const last = await send(client, 's7');
    waiting.push(last.trackingId);
    const lastResult = last.result;
    await sdk.simulator.phone(CONTACT).waitForMessage((m) => m.body === 's0');
    sdk.simulator.expireSession('bot');
    expect((await rejection(lastResult)).code).to.equal('SESSION_EXPIRED');
    await until(() => failed.length >= waiting.length, 'a message.status for every waiting send');
    expect(failed.map((r) => [r.id, r.error?.code])).to.have.deep.members(
      waiting.map((id) => [id, 'SESSION_EXPIRED']),
    );
    for (const id of waiting) {
      const record = await sdk.sends.get(id);
      expect([record?.status, record?.error?.code]).to.deep.equal(['failed', 'SESSION_EXPIRED']);
    }
    expect(client.info().queue.pending).to.equal(0);
  });

  it('a restart recovers the paged-out sends in order and priority, loading them a page at a time', async () => {
    const first = sdkWith({ ...HOLD, memoryWindow: 2 });
    const before = await linkedClient(first, 'bot');
    const x0 = await send(before, 'x0'); // goes at once
    const ids: string[] = [];
    for (let n = 0; n < 6; n++)
      ids.push((await send(before, `p${n}`, { priority: 'bulk' })).trackingId);
    for (let n = 0; n < 3; n++)
      ids.push((await send(before, `q${n}`, { priority: 'reply' })).trackingId);
    // finished before the stop (a send still in flight would be sent again: at-least-once)
    await x0.result;
    await first.stop({ drainTimeoutMs: 0 });

    const second = sdkWith({ ...FAST, memoryWindow: 2 });
    const after = await linkedClient(second, 'bot');
    expect(after.info().queue.pending + after.info().queue.running).to.be.greaterThan(0);
    const phone = second.simulator.phone(CONTACT);
    await until(() => phone.inbox.length >= 9, 'every recovered send');
    expect(phone.inbox.map((m) => m.body)).to.deep.equal([
      ...['q0', 'q1', 'q2'],
      ...['p0', 'p1', 'p2', 'p3', 'p4', 'p5'],
    ]);
    for (const id of ids) {
      expect((await second.sends.get(id))?.status).to.be.oneOf(['sent', 'delivered', 'read']);
    }
  });
});
