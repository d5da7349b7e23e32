import { expect } from 'chai';
import { CONTACT, restFixture, type RestFixture } from '../helpers/rest-harness.js';

describe('outbox: a queued send belongs to its account', () => {
  let fx: RestFixture;
  afterEach(async () => {
    await fx?.close();
  });

  it('session expiry fails the waiting sends with SESSION_EXPIRED; a new account never sends them', async () => {
    fx = await restFixture({
      config: { queue: { minGapMs: 600_000, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 } },
    });
    const bot = await fx.link('bot');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: `bound-${n}` },
      });
      expect(res.status).to.equal(202);
      ids.push((res.json as { id: string }).id);
    }
    const phone = fx.sdk.simulator.phone(CONTACT);
    await phone.waitForMessage((m) => m.body === 'bound-0');
    fx.sdk.simulator.expireSession('bot');
    const deadline = Date.now() + 5_000;
    for (;;) {
      const records = await Promise.all(ids.slice(1).map((id) => fx.sdk.sends.get(id)));
      if (records.every((r) => r?.status === 'failed') || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const id of ids.slice(1)) {
      const record = await fx.sdk.sends.get(id);
      expect(record?.status, JSON.stringify(record) + ' state ' + bot.state).to.equal('failed');
      expect(record?.error?.code).to.equal('SESSION_EXPIRED');
    }
    await fx.link('bot', '15550000099');
    await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'from-new' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(phone.inbox.filter((m) => m.body.startsWith('bound-')).map((m) => m.body)).to.deep.equal(
      ['bound-0'],
    );
    for (const id of ids.slice(1)) expect((await fx.sdk.sends.get(id))?.status).to.equal('failed');
  });
});
