/**
 * The double's builds reproduce the WhatsApp Web changes they cite, on the unmodified
 * whatsapp-web.js 1.34.7 driven by wakit: what users of 1.34.7 saw. These are the failures the
 * compat layer (issue 27) is to turn into passes; the baseline build passes the same operations
 * (contract.test.ts).
 */
import { expect } from 'chai';
import { nextEvent, startAndLink, expectCode } from '../engines/engine-contract.js';
import type { EngineHarness } from '../engines/engine-contract.js';
import { isWakitError } from '../../src/errors/index.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
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

describe('WhatsApp Web double builds on whatsapp-web.js 1.34.7', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let engine: WwebjsEngine;

  const linkedOn = async (build: DoubleBuild): Promise<void> => {
    h = await DoubleHarness.create({ build });
    engine = h.engine();
    await startAndLink({
      engine,
      link: (qr: string) => h.link(qr),
      deadlineMs: 15_000,
    } as unknown as EngineHarness);
  };
  afterEach(async () => {
    await h.cleanup();
  });

  it('every build reports its version as window.Debug.VERSION', async () => {
    await linkedOn(KEY_RENAME_BUILD);
    const page = await h.page();
    expect(await page.evaluate('window.Debug.VERSION')).to.equal(KEY_RENAME_BUILD.version);
    expect(BASELINE_BUILD.version).to.not.equal(KEY_RENAME_BUILD.version);
    // what is not modelled fails loudly, naming the module and the member
    const failure = (expression: string) =>
      page.evaluate(
        `(() => { try { ${expression}; return 'no error'; } catch (e) { return e.message; } })()`,
      );
    expect(await failure("window.require('WAWebNotThere')")).to.equal(
      'WA double: module WAWebNotThere is not modelled',
    );
    expect(await failure("window.require('WAWebCmd').notThere")).to.equal(
      'WA double: WAWebCmd.notThere is not modelled',
    );
  });

  it('2026-07 key rename ($1): a delivered text send is reported as a failure, incoming ids are lost (#201830, #201901)', async () => {
    await linkedOn(KEY_RENAME_BUILD);
    // WWebJS.sendMessage ends with Msg.get(newMsgKey._serialized): undefined on this build.
    await expectCode(
      engine.send(ALICE.pn, { kind: 'text', text: 'delivered anyway', options: {} }),
      'CHAT_NOT_FOUND',
    );
    const sent = await h.phone<Array<{ body: string; id: string }>>('sent');
    expect(sent.map((m) => m.body)).to.deep.equal(['delivered anyway']);
    expect(sent[0].id).to.match(/^true_15550000002@c\.us_3EB0/);

    const incoming = nextEvent(engine, 'message');
    await h.phone('receive', { from: ALICE.pn, body: 'hello' });
    const [message] = await incoming;
    expect(message.body).to.equal('hello');
    expect(message.id).to.equal(undefined);
    // wids keep `_serialized`: the chat and the sender are intact
    expect(message.chatId).to.equal(ALICE.pn);
  });

  it('2026-09-17 media id clobber: every media send fails with the error users reported (#201921, #201922)', async () => {
    await linkedOn(MEDIA_ID_CLOBBER_BUILD);
    let failure: unknown;
    try {
      await engine.send(ALICE.pn, {
        kind: 'image',
        media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
      });
    } catch (error) {
      failure = error;
    }
    expect(isWakitError(failure) && failure.code).to.equal('ENGINE_ERROR');
    const cause = (failure as { cause?: Error }).cause;
    expect(String(cause?.message)).to.contain(
      "Data passed to getter must include an id property (it's how we memoize) but got undefined",
    );
    expect(await h.phone('sent')).to.deep.equal([]);
  });

  it('the baseline build sends the same media', async () => {
    await linkedOn(BASELINE_BUILD);
    const result = await engine.send(ALICE.pn, {
      kind: 'image',
      media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
    });
    expect(await h.phone('sentMedia', result.id)).to.equal(PNG.toString('base64'));
  });
});
