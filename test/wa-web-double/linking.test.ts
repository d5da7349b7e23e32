/**
 * The real whatsapp-web.js 1.34.7 in the real Chromium on the WhatsApp Web double: linking,
 * restoring, logging out.
 */
import { expect } from 'chai';
import { nextEvent, recordEvents } from '../engines/engine-contract.js';
import { DoubleHarness, WHATSAPP_WEB } from './harness.js';
import { BOT } from './world.js';

describe('whatsapp-web.js on the WhatsApp Web double: linking', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  beforeEach(async () => {
    h = await DoubleHarness.create();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('links by QR: qr → authenticated → ready, with the account of the phone, and no request leaves the machine', async () => {
    const engine = h.engine();
    const events = recordEvents(engine);
    const qr = nextEvent(engine, 'qr', () => true, 20_000);
    const ready = nextEvent(engine, 'ready', () => true, 30_000);
    await engine.start();
    const [code] = await qr;
    // ref,noise public key,identity key,adv secret,platform (Client.js:262-272)
    expect(code.split(',')).to.have.length(5);
    await h.link(code);
    await ready;
    expect(events.map((e) => e.event).filter((e) => e !== 'qr')).to.deep.equal([
      'authenticated',
      'ready',
    ]);
    expect(engine.me()).to.deep.equal({ id: BOT.pn, pushname: BOT.pushname });
    expect(h.requests).to.include(WHATSAPP_WEB);
    expect(h.foreignRequests()).to.deep.equal([]);
  });
});
