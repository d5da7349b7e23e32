import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createSdk, isWakitError, type Sdk } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { QueuedSend } from '../../src/entries/types.js';
import {
  CONTACT,
  CONTACT_ID,
  FaultDir,
  eventually,
  killAll,
  startServer,
  type ChildServer,
} from './child-server.js';
// `sdk.simulator` before start (docs/simulator.md)
import '../../src/entries/simulator.js';

const post = (server: ChildServer, content: string, key: string) =>
  server.request('POST', '/api/v1/messages', {
    json: { chatId: CONTACT_ID, content },
    headers: { 'idempotency-key': key },
  });

async function statusOf(server: ChildServer, id: string): Promise<string | undefined> {
  const res = await server.request('GET', `/api/v1/messages/${id}`);
  return (res.json as { status?: string } | undefined)?.status;
}

describe('faults: idempotency keys after a restart', function () {
  this.timeout(240_000);

  describe('over REST (child processes, SIGKILL between)', () => {
    let dir: FaultDir;
    beforeEach(async () => {
      dir = await FaultDir.create();
    });
    afterEach(async () => {
      await killAll();
      await dir.remove();
    });

    it('same key + same body answers the first acceptance (same id, 202); a different body is 422 IDEMPOTENCY_KEY_REUSED; nothing is sent twice', async () => {
      // A minute between sends: "sent-before" goes at once, "queued-at-kill" still waits at the kill.
      const first = await startServer(dir, { queue: { minGapMs: 60_000 } });
      const sent = await post(first, 'sent-before', 'key-sent');
      const queued = await post(first, 'queued-at-kill', 'key-queued');
      expect([sent.status, queued.status]).to.deep.equal([202, 202]);
      const sentId = (sent.json as { id: string }).id;
      const queuedId = (queued.json as { id: string }).id;
      const journaled = await eventually(async () =>
        ['sent', 'delivered', 'read'].includes((await statusOf(first, sentId)) ?? ''),
      );
      expect(journaled, 'the first send is journaled as sent before the kill').to.equal(true);
      await first.kill('SIGKILL');

      const second = await startServer(dir, { queue: { minGapMs: 5 } });
      const again = await post(second, 'sent-before', 'key-sent');
      expect(again.status).to.equal(202);
      expect((again.json as { id: string }).id).to.equal(sentId);
      const againQueued = await post(second, 'queued-at-kill', 'key-queued');
      expect(againQueued.status).to.equal(202);
      expect((againQueued.json as { id: string }).id).to.equal(queuedId);

      for (const key of ['key-sent', 'key-queued']) {
        const reused = await post(second, 'another body', key);
        expect(reused.status, key).to.equal(422);
        expect((reused.json as { code: string }).code).to.equal('IDEMPOTENCY_KEY_REUSED');
      }

      // A later send without a key, behind the recovered one: once it arrived, all before it did.
      const sentinel = await second.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT_ID, content: 'sentinel' },
      });
      expect(sentinel.status).to.equal(202);
      await second.waitFor('the sentinel', (l) => l.event === 'received' && l.body === 'sentinel');
      expect(dir.received().map((r) => r.body)).to.deep.equal([
        'sent-before',
        'queued-at-kill',
        'sentinel',
      ]);
      await second.kill('SIGTERM');
    });
  });

  describe('through the SDK (two SDK instances on one data path, one after the other)', () => {
    let dataPath: string;
    let sdk: Sdk | undefined;
    beforeEach(async () => {
      dataPath = await mkdtemp(path.join(os.tmpdir(), 'wakit-fault-sdk-'));
    });
    afterEach(async () => {
      await sdk?.stop({ drainTimeoutMs: 0 });
      sdk = undefined;
      await rm(dataPath, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    });

    async function started(minGapMs: number): Promise<Sdk> {
      const instance = createSdk(
        {
          engine: {
            type: 'simulator',
            autoScanMs: 10,
            autoScanPhone: '15550000001',
            ackDelayMs: 5,
          },
          auth: { type: 'local', dataPath },
          clients: ['bot'],
          queue: { minGapMs, jitterMs: 0, perChatGapMs: 0 },
        },
        { logger: pino({ level: 'silent' }) },
      );
      instance.simulator.phone(CONTACT);
      await instance.start();
      await instance.client('bot').waitUntilReady({ timeoutMs: 30_000 });
      return instance;
    }

    const send = (instance: Sdk, text: string, key: string): Promise<QueuedSend> =>
      instance.client('bot').enqueue(prepareContent(CONTACT_ID, text), { idempotencyKey: key });

    it('idempotencyKey returns the first acceptance from the outbox of the earlier SDK; a different send is IDEMPOTENCY_KEY_REUSED', async () => {
      sdk = await started(60_000);
      const one = await send(sdk, 'sdk-sent', 'k-sent');
      const two = await send(sdk, 'sdk-waiting', 'k-waiting');
      const sentTo = await one.result;
      const firstPhone = sdk.simulator.phone(CONTACT);
      expect(firstPhone.inbox.map((m) => m.body)).to.deep.equal(['sdk-sent']);
      await sdk.stop({ drainTimeoutMs: 0 });

      sdk = await started(0);
      const oneAgain = await send(sdk, 'sdk-sent', 'k-sent');
      expect(oneAgain.trackingId).to.equal(one.trackingId);
      expect(oneAgain.duplicate).to.equal(true);
      expect((await oneAgain.result).id, 'the first send’s WhatsApp id').to.equal(sentTo.id);
      const twoAgain = await send(sdk, 'sdk-waiting', 'k-waiting');
      expect(twoAgain.trackingId).to.equal(two.trackingId);
      expect((await twoAgain.result).trackingId).to.equal(two.trackingId);
      const viaText = await sdk
        .client('bot')
        .sendTextMessage({ to: CONTACT, text: 'sdk-sent', idempotencyKey: 'k-sent' });
      expect(viaText.trackingId).to.equal(one.trackingId);

      let reused: unknown;
      try {
        await send(sdk, 'something else', 'k-waiting');
      } catch (error) {
        reused = error;
      }
      expect(isWakitError(reused, 'IDEMPOTENCY_KEY_REUSED'), String(reused)).to.equal(true);

      await sdk.client('bot').sendTextMessage({ to: CONTACT, text: 'sdk-sentinel' });
      const secondPhone = sdk.simulator.phone(CONTACT);
      expect(secondPhone.inbox.map((m) => m.body)).to.deep.equal(['sdk-waiting', 'sdk-sentinel']);
    });
  });
});
