import { expect } from 'chai';
import { restFixture, BOT_ID, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: client routes', () => {
  let fx: RestFixture;
  beforeEach(async () => {
    fx = await restFixture();
  });
  afterEach(async () => {
    await fx.close();
  });

  it('initializes the default client, serves its QR in every format, and reports READY after the scan', async () => {
    const before = await fx.request('GET', '/api/v1/client/info');
    expect(before.status).to.equal(200);
    expect(before.json).to.include({
      name: 'bot',
      status: 'STOPPED',
      engine: 'simulator',
      me: null,
    });

    const noQr = await fx.request('GET', '/api/v1/client/qr?format=base64');
    expect(noQr.status).to.equal(409);
    expect(noQr.json).to.deep.include({ code: 'QR_NOT_AVAILABLE', details: { status: 'STOPPED' } });

    const qrSeen = new Promise<string>((resolve) => fx.sdk.client('bot').once('qr', resolve));
    const init = await fx.request('POST', '/api/v1/client/initialize');
    expect(init.status).to.equal(202);
    expect(init.json).to.deep.equal({ name: 'bot', status: 'STARTING' });
    const qr = await qrSeen;

    const again = await fx.request('POST', '/api/v1/client/initialize');
    expect(again.status).to.equal(200);
    expect(again.json).to.deep.equal({ name: 'bot', status: 'SCAN_QR' });

    const b64 = await fx.request('GET', '/api/v1/client/qr?format=base64');
    expect(b64.status).to.equal(200);
    const body = b64.json as { format: string; mimetype: string; data: string };
    expect(body.format).to.equal('base64');
    expect(body.mimetype).to.equal('image/png');
    expect(Buffer.from(body.data, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    const dflt = await fx.request('GET', '/api/v1/client/qr');
    expect((dflt.json as { format: string }).format).to.equal('base64');

    const png = await fetch(`${fx.url}/api/v1/client/qr?format=png`, {
      headers: { authorization: 'Bearer admin-token-0123456789abcdef0123456789' },
    });
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).to.equal('PNG');
    const svg = await fx.request('GET', '/api/v1/client/qr?format=svg');
    expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(svg.text).to.match(/^<svg/);
    const text = await fx.request('GET', '/api/v1/client/qr?format=text');
    expect(text.headers.get('content-type')).to.match(/^text\/plain/);
    expect(text.text).to.equal(qr);

    fx.sdk.simulator.scan(text.text, { phone: '15550000001', pushname: 'Bot' });
    await fx.sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
    const info = await fx.request('GET', '/api/v1/client/info');
    expect(info.json).to.deep.include({
      name: 'bot',
      status: 'READY',
      me: { id: BOT_ID, pushname: 'Bot' },
    });
    expect(info.json).to.have.keys(
      'name',
      'status',
      'me',
      'engine',
      'since',
      'queue',
      'lastDisconnect',
      'reconnect',
      'health',
      'governor',
    );
    // On the simulator the send governor is off by default (docs/safety.md).
    expect((info.json as { governor: unknown }).governor).to.equal(null);
    // READY: not reconnecting
    expect((info.json as { reconnect: unknown }).reconnect).to.equal(null);

    const ready = await fx.request('POST', '/api/v1/client/initialize');
    expect(ready.status).to.equal(200);
    expect(ready.json).to.deep.equal({ name: 'bot', status: 'READY' });
    const qrGone = await fx.request('GET', '/api/v1/client/qr');
    expect(qrGone.status).to.equal(409);
    expect(qrGone.json).to.deep.include({ details: { status: 'READY' } });
  });

  it('lists clients and acts on a named client', async () => {
    const list = await fx.request('GET', '/api/v1/clients');
    expect(
      (list.json as { name: string; status: string; origin: string }[]).map((c) => ({
        name: c.name,
        status: c.status,
        origin: c.origin,
      })),
    ).to.deep.equal([
      { name: 'bot', status: 'STOPPED', origin: 'config' },
      { name: 'other', status: 'STOPPED', origin: 'config' },
    ]);
    await fx.link('other');
    const info = await fx.request('GET', '/api/v1/clients/other/info');
    expect(info.json).to.deep.include({ name: 'other', status: 'READY' });
    const missing = await fx.request('GET', '/api/v1/clients/nobody/info');
    expect(missing.status).to.equal(404);
    expect(missing.json).to.include({ code: 'CLIENT_NOT_FOUND' });
  });

  it('logs a client out: STOPPED and the session deleted, so the next initialize shows a QR', async () => {
    await fx.link('bot');
    const out = await fx.request('POST', '/api/v1/client/logout');
    expect(out.status).to.equal(200);
    expect(out.json).to.deep.equal({ name: 'bot', status: 'STOPPED' });
    const qrSeen = new Promise<string>((resolve) => fx.sdk.client('bot').once('qr', resolve));
    expect((await fx.request('POST', '/api/v1/clients/bot/initialize')).status).to.equal(202);
    expect(await qrSeen).to.be.a('string');
  });

  it('gives a pairing code while the client waits to be linked, INVALID_STATE otherwise', async () => {
    const early = await fx.request('POST', '/api/v1/client/pairing-code', {
      json: { phoneNumber: '+1 555 000 0001' },
    });
    expect(early.status).to.equal(409);
    expect(early.json).to.include({ code: 'INVALID_STATE' });
    const qrSeen = new Promise<string>((resolve) => fx.sdk.client('bot').once('qr', resolve));
    await fx.request('POST', '/api/v1/client/initialize');
    await qrSeen;
    const res = await fx.request('POST', '/api/v1/client/pairing-code', {
      json: { phoneNumber: '+1 555 000 0001' },
    });
    expect(res.status).to.equal(200);
    expect((res.json as { code: string }).code)
      .to.be.a('string')
      .with.length.greaterThan(3);
    const bad = await fx.request('POST', '/api/v1/client/pairing-code', { json: { phone: '1' } });
    expect(bad.status).to.equal(400);
  });
});
