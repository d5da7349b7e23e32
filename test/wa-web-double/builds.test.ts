/**
 * The double's builds have the behaviour of the WhatsApp Web builds they cite, checked in the
 * page itself (independently of whatsapp-web.js and of wakit's compat layer, whose own tests run
 * the user-visible operations on these builds): the 2026-07 message-key rename and the
 * 2026-09-17 media prep id. Also: what is not modelled fails loudly, by name.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer';
import { nextEvent } from '../engines/engine-contract.js';
import {
  BASELINE_BUILD,
  KEY_RENAME_BUILD,
  MEDIA_ID_CLOBBER_BUILD,
  type DoubleBuild,
} from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Runs `body` in the page; an exception comes back as `{ error: message }`. */
const inPage = (page: Page, body: string): Promise<unknown> =>
  page.evaluate(
    `(async () => { try { ${body} } catch (e) { return { error: e.name + ': ' + e.message }; } })()`,
  );

/** Builds a message key and a wid from known parts, as whatsapp-web.js does. */
const KEY_AND_WID = `
  const MsgKey = window.require('WAWebMsgKey');
  const wid = window.require('WAWebWidFactory').createWid('${ALICE.pn}');
  const key = new MsgKey({ fromMe: true, remote: wid, id: '3EB0AAAA' });
  const Msg = window.require('WAWebCollections').Msg;
  return { key: { ...key }, text: String(key), wid: { ...wid }, lookup: Msg.get(key._serialized) ?? null };`;

/** Prepares an image like WWebJS.processMediaData and builds the outgoing Msg like sendMessage. */
const PREP_AND_BUILD = `
  const OpaqueData = window.require('WAWebMediaOpaqueData');
  const file = new File([new Uint8Array([1, 2, 3])], 'x.png', { type: 'image/png' });
  const prep = window.require('WAWebPrepRawMedia').prepRawMedia(await OpaqueData.createFromData(file, 'image/png'), {});
  const mediaData = await prep.waitForPrep();
  const key = new (window.require('WAWebMsgKey'))({ fromMe: true, remote: '${ALICE.pn}', id: '3EB0BBBB' });
  const Msg = window.require('WAWebCollections').Msg.modelClass;
  new Msg({ id: key, type: 'chat', ...mediaData });
  return { ownId: Object.keys(mediaData).includes('__x_id'), built: true };`;

describe('WhatsApp Web double builds', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  /** The page of a build, loaded (QR shown): its modules are all there. */
  const pageOf = async (build: DoubleBuild): Promise<Page> => {
    h = await DoubleHarness.create({ build });
    const engine = h.engine();
    const qr = nextEvent(engine, 'qr', () => true, 20_000);
    await engine.start();
    await qr;
    return h.page();
  };
  afterEach(async () => {
    await h.cleanup();
  });

  it('the baseline: message keys and wids keep `_serialized`; loud modules and members', async () => {
    const page = await pageOf(BASELINE_BUILD);
    expect(await page.evaluate('window.Debug.VERSION')).to.equal(BASELINE_BUILD.version);
    const result = (await inPage(page, KEY_AND_WID)) as Record<string, Record<string, unknown>>;
    expect(result.key._serialized).to.equal(`true_${ALICE.pn}_3EB0AAAA`);
    expect(result.wid._serialized).to.equal(ALICE.pn);
    expect(await inPage(page, PREP_AND_BUILD)).to.deep.equal({ ownId: false, built: true });
    expect(await inPage(page, "window.require('WAWebNotThere')")).to.deep.equal({
      error: 'Error: WA double: module WAWebNotThere is not modelled',
    });
    expect(await inPage(page, "return window.require('WAWebCmd').notThere")).to.deep.equal({
      error: 'Error: WA double: WAWebCmd.notThere is not modelled',
    });
  });

  it('2026-07 (2.3000.1043159177): the message key serializes to `$1`, wids keep `_serialized` (#201830, wa-js #3484)', async () => {
    const page = await pageOf(KEY_RENAME_BUILD);
    expect(await page.evaluate('window.Debug.VERSION')).to.equal('2.3000.1043159177');
    const result = (await inPage(page, KEY_AND_WID)) as Record<string, Record<string, unknown>>;
    expect(result.key).to.deep.include({ $1: `true_${ALICE.pn}_3EB0AAAA`, fromMe: true });
    expect(result.key).to.not.have.property('_serialized');
    expect(result.text).to.equal(`true_${ALICE.pn}_3EB0AAAA`);
    expect(result.wid._serialized).to.equal(ALICE.pn);
    // what whatsapp-web.js 1.34.7 then reads: Msg.get(undefined) misses, getMessagesById throws
    expect(result.lookup).to.equal(null);
    expect(
      await inPage(
        page,
        "await window.require('WAWebCollections').Msg.getMessagesById([undefined])",
      ),
    ).to.deep.equal({
      error:
        "DataError: Failed to execute 'get' on 'IDBObjectStore': No key or key range specified.",
    });
  });

  it('2026-09-17 (2.3000.1047775310): the media prep result carries `__x_id` and building the message fails (#201922, PR #201923)', async () => {
    const page = await pageOf(MEDIA_ID_CLOBBER_BUILD);
    expect(await inPage(page, PREP_AND_BUILD)).to.deep.equal({
      error:
        "Error: Data passed to getter must include an id property (it's how we memoize) but got undefined",
    });
  });

  it('the baseline sends media end to end through the real library', async () => {
    // The baseline on purpose (the harness default is the newest build): the builds above break
    // what this one proves works unchanged, with no compat fix needed.
    h = await DoubleHarness.create({ build: BASELINE_BUILD });
    const engine = await h.linkedEngine();
    const result = await engine.send(ALICE.pn, {
      kind: 'image',
      media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
    });
    expect(await h.phone('sentMedia', result.id)).to.equal(PNG.toString('base64'));
  });
});
