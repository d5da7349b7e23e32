/**
 * Scheduled sends over REST (docs/scheduling.md) with a virtual clock: `sendAt` in the body (an
 * RFC 3339 date-time) → 202 `scheduled`; listed by `status=scheduled`; moved with POST …/reschedule; cancelled
 * with POST …/cancel; sent at its time, not before; bad times are 400 INVALID_SEND_AT, a send that
 * went is 409 MESSAGE_NOT_SCHEDULED.
 */
import { expect } from 'chai';
import { CLOCK } from '../../../src/kernel/tokens.js';
import { VirtualClock } from '../../../src/kernel/virtual-clock.js';
import { CONTACT, CONTACT_ID, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('REST: scheduled sends (sendAt, cancel, reschedule, list)', function () {
  this.timeout(20_000);
  let fx: RestFixture | undefined;
  let clock: VirtualClock;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  async function setup() {
    clock = new VirtualClock(Date.now());
    fx = await restFixture({
      config: {
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, drainTimeoutMs: 0 },
      },
      services: (s) => void s.register(CLOCK, { useValue: clock }),
    });
    await fx.link('bot');
    return { fx, phone: fx.sdk.simulator.phone(CONTACT) };
  }

  const post = (fx: RestFixture, content: string, sendAt?: string) =>
    fx.request('POST', '/api/v1/messages', {
      json: { client: 'bot', chatId: CONTACT_ID, content, ...(sendAt ? { sendAt } : {}) },
    });

  it('202 scheduled; listed; sent at its time and not before; its status says when', async () => {
    const { fx, phone } = await setup();
    const at = clock.now() + 5 * MINUTE;
    const res = await post(fx, 'later', iso(at));
    expect(res.status).to.equal(202);
    const body = res.json as { id: string; status: string; sendAt: string };
    expect(body).to.include({ status: 'scheduled', sendAt: iso(at) });
    const listed = await fx.request('GET', '/api/v1/messages?status=scheduled');
    expect((listed.json as { items: { id: string; sendAt: string }[] }).items).to.deep.equal([
      (await fx.request('GET', `/api/v1/messages/${body.id}`)).json,
    ]);
    await clock.advance(5 * MINUTE - 1);
    await settle();
    expect(phone.inbox).to.have.length(0);
    await clock.advance(1);
    await phone.waitForMessage((m) => m.body === 'later');
    const status = (await fx.request('GET', `/api/v1/messages/${body.id}`)).json as {
      status: string;
      sendAt: string;
    };
    expect(status.status).to.be.oneOf(['sent', 'delivered', 'read']);
    expect(status.sendAt).to.equal(iso(at));
    const again = await fx.request('POST', `/api/v1/messages/${body.id}/cancel`);
    expect(again.status).to.equal(409);
    expect(again.json).to.include({ code: 'MESSAGE_NOT_SCHEDULED' });
  });

  it('POST …/reschedule moves it, POST …/cancel stops it for good', async () => {
    const { fx, phone } = await setup();
    const now = clock.now();
    const a = ((await post(fx, 'moved', iso(now + 10 * MINUTE))).json as { id: string }).id;
    const b = ((await post(fx, 'cancelled', iso(now + 2 * MINUTE))).json as { id: string }).id;
    const moved = await fx.request('POST', `/api/v1/messages/${a}/reschedule`, {
      json: { sendAt: iso(now + 1 * MINUTE) },
    });
    expect(moved.status).to.equal(200);
    expect(moved.json).to.include({ status: 'scheduled', sendAt: iso(now + MINUTE) });
    const cancelled = await fx.request('POST', `/api/v1/messages/${b}/cancel`);
    expect(cancelled.status).to.equal(200);
    expect(cancelled.json).to.include({ status: 'cancelled' });
    const badMove = await fx.request('POST', `/api/v1/messages/${b}/reschedule`, {
      json: { sendAt: iso(now + 3 * MINUTE) },
    });
    expect(badMove.status).to.equal(409);
    await clock.advance(MINUTE);
    await phone.waitForMessage((m) => m.body === 'moved');
    await clock.advance(30 * MINUTE);
    await settle();
    expect(phone.inbox.map((m) => m.body)).to.deep.equal(['moved']);
    const missing = await fx.request('POST', '/api/v1/messages/nope/cancel');
    expect(missing.status).to.equal(404);
  });

  it('400 INVALID_SEND_AT for a time long past or too far ahead; VALIDATION_FAILED for a non-date', async () => {
    const { fx, phone } = await setup();
    const malformed = await post(fx, 'x', 'next tuesday');
    expect(malformed.status).to.equal(400);
    expect(malformed.json).to.deep.include({ code: 'VALIDATION_FAILED' });
    for (const [sendAt, reason] of [
      [iso(clock.now() - 10 * MINUTE), 'past'],
      [iso(clock.now() + 400 * 24 * 60 * MINUTE), 'too_far'],
    ]) {
      const res = await post(fx, 'x', sendAt);
      expect(res.status, sendAt).to.equal(400);
      expect(res.json).to.deep.include({ code: 'INVALID_SEND_AT' });
      expect((res.json as { details: { reason: string } }).details.reason).to.equal(reason);
    }
    await settle();
    expect(phone.inbox).to.have.length(0);
  });
});
