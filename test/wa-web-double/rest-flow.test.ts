/**
 * The specification's REST flow on the real whatsapp-web.js 1.34.7 + WhatsApp Web double:
 * initialize, the QR (base64 PNG, and as text for the phone to scan), info → READY, a message
 * sent and seen by the phone.
 */
import { expect } from 'chai';
import type { RestServer } from '../../plugins/rest/server.js';
import { DoubleHarness } from './harness.js';
import { restOnDouble } from './rest-on-double.js';
import { ALICE, BOT } from './world.js';

describe('the spec REST flow on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let server: RestServer;
  let call: Awaited<ReturnType<typeof restOnDouble>>['call'];

  beforeEach(async () => {
    h = await DoubleHarness.create();
    const sdk = h.sdk({ clients: ['bot'] });
    sdk.createClient({ name: 'bot' });
    ({ server, call } = await restOnDouble(sdk));
  });
  afterEach(async () => {
    await server.close();
    await h.cleanup();
  });

  async function poll<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
    for (let i = 0; i < 150; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it('initialize → qr?format=base64 → scan → info READY → POST /messages sent', async () => {
    expect((await call('POST', '/api/v1/client/initialize')).status).to.equal(202);
    const qr = await poll(async () => {
      const res = await call('GET', '/api/v1/client/qr?format=base64');
      return res.status === 200 ? (res.json as { mimetype: string; data: string }) : undefined;
    }, 'a QR code');
    expect(qr.mimetype).to.equal('image/png');
    expect(Buffer.from(qr.data, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    const raw = await call('GET', '/api/v1/client/qr?format=text');
    await h.link(raw.text);

    const info = await poll(async () => {
      const res = await call('GET', '/api/v1/client/info');
      const body = res.json as { status: string; me: { id: string } | null; engine: string };
      return body.status === 'READY' ? body : undefined;
    }, 'READY');
    expect(info.me?.id).to.equal(BOT.pn);
    expect(info.engine).to.equal('whatsapp-web.js');

    const sent = await call(
      'POST',
      '/api/v1/messages',
      { chatId: ALICE.pn, content: 'hello over REST' },
      { prefer: 'wait=20' },
    );
    expect(sent.status, sent.text).to.equal(201);
    const body = sent.json as { status: string; messageId: string };
    expect(body.status).to.equal('sent');
    const onPhone = await h.phone<Array<{ id: string; body: string }>>('sent');
    expect(onPhone.map((m) => [m.id, m.body])).to.deep.equal([[body.messageId, 'hello over REST']]);
  });
});
