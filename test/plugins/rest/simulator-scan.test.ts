import { expect } from 'chai';
import { restFixture, SCOPED_TOKEN, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: POST /api/v1/simulator/scan links a simulator client', function () {
  this.timeout(20_000);
  let fx: RestFixture;
  beforeEach(async () => {
    fx = await restFixture();
  });
  afterEach(() => fx.close());

  it('initialize, then scan over REST: the client reaches READY with the given number', async () => {
    const bot = fx.sdk.client('bot');
    const qrShown = new Promise<string>((resolve) => bot.once('qr', resolve));
    expect((await fx.request('POST', '/api/v1/clients/bot/initialize')).status).to.equal(202);
    await qrShown;
    const scanned = await fx.request('POST', '/api/v1/simulator/scan', {
      json: { client: 'bot', phone: '15550000042', pushname: 'Shop' },
    });
    expect(scanned.status, scanned.text).to.equal(202);
    expect(scanned.json).to.include({ client: 'bot' });
    await bot.waitUntilReady({ timeoutMs: 5_000 });
    const info = await fx.request('GET', '/api/v1/clients/bot/info');
    expect(JSON.stringify(info.json)).to.include('READY').and.include('15550000042');
  });

  it('answers QR_NOT_AVAILABLE when no QR is shown, and needs a token for all clients', async () => {
    const early = await fx.request('POST', '/api/v1/simulator/scan', { json: { client: 'bot' } });
    expect(early.status).to.equal(409);
    expect(early.json).to.include({ code: 'QR_NOT_AVAILABLE' });
    const scoped = await fx.request('POST', '/api/v1/simulator/scan', {
      token: SCOPED_TOKEN,
      json: { client: 'other' },
    });
    expect(scoped.status).to.equal(403);
    const bad = await fx.request('POST', '/api/v1/simulator/scan', { json: { phone: 'abc' } });
    expect(bad.status).to.equal(400);
  });
});
