/**
 * The hung-page detector (src/engines/wwebjs/page-deadlines.ts): page calls that time out in a
 * row make a verdict; an answer between them, or a timeout outside the window, does not.
 */
import { expect } from 'chai';
import type { Clock } from '../../src/kernel/clock.js';
import {
  HUNG_PAGE_WINDOW_MS,
  HungPageDetector,
  capabilityOf,
  isProtocolTimeout,
  watchForHungPage,
  watchPageCalls,
} from '../../src/engines/wwebjs/page-deadlines.js';
import { engineSchema } from '../../src/config/schema.js';
import type { Attempt } from '../../src/engines/wwebjs/attempt.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import type { WakitError } from '../../src/errors/index.js';

class ProtocolError extends Error {
  override name = 'ProtocolError';
}
const timeout = (): Error =>
  new ProtocolError(
    "Runtime.callFunctionOn timed out. Increase the 'protocolTimeout' setting in launch/connect calls for a higher timeout if needed.",
  );

function clockAt(start = 0): Clock & { at: number } {
  return {
    at: start,
    now() {
      return this.at;
    },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle),
  };
}

describe('wwebjs page deadlines (hung-page detector)', () => {
  it("recognises puppeteer's protocol timeout, not other page errors", () => {
    expect(isProtocolTimeout(timeout())).to.equal(true);
    expect(isProtocolTimeout(new Error('Evaluation failed: timed out waiting for chat'))).to.equal(
      false,
    );
    expect(isProtocolTimeout(new Error('Protocol error: Target closed'))).to.equal(false);
  });

  it('two timeouts in a row are a verdict naming the capability and the deadline', () => {
    const detector = new HungPageDetector(clockAt());
    expect(detector.timedOut('contacts.lid', timeout(), 3_000)).to.equal(null);
    const verdict = detector.timedOut('contacts.lid', timeout(), 3_000);
    expect(verdict).to.include({ capability: 'contacts.lid', timeouts: 2 });
    expect(verdict?.detail).to.match(/timed out after 3000 ms/);
  });

  it('an answer between them, or a timeout older than the window, is no verdict', () => {
    const clock = clockAt();
    const detector = new HungPageDetector(clock);
    detector.timedOut('send.text', timeout(), 3_000);
    detector.answered();
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.equal(null);
    clock.at += HUNG_PAGE_WINDOW_MS;
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.equal(null);
  });

  it('watches page.evaluate: answers and timeouts reported, results and errors unchanged', async () => {
    const seen: string[] = [];
    const page = {
      evaluate: (fn: unknown): Promise<unknown> =>
        String(fn).includes('getContactLidAndPhone')
          ? Promise.reject(timeout())
          : Promise.resolve(7),
    };
    watchPageCalls(page, {
      answered: () => seen.push('answered'),
      timedOut: (capability) => seen.push(capability),
    });
    expect(await page.evaluate(() => 1)).to.equal(7);
    const error = await page
      .evaluate(() => 'window.WWebJS.getContactLidAndPhone')
      .catch((e: Error) => e);
    expect(error).to.be.instanceOf(ProtocolError);
    expect(seen).to.deep.equal(['answered', 'contacts.lid']);
    expect(capabilityOf(() => 'window.WWebJS.sendMessage')).to.equal('send.text');
  });

  it('engine.hungPage: the configured count and window are used (defaults 2 in 60 s)', () => {
    const parse = (input: object): WwebjsEngineConfig =>
      engineSchema.parse({ type: 'whatsapp-web.js', ...input }) as WwebjsEngineConfig;
    expect(parse({}).hungPage).to.deep.equal({ timeouts: 2, windowMs: 60_000 });
    const limits = parse({ hungPage: { timeouts: 3, windowMs: 10_000 } }).hungPage;
    const clock = clockAt();
    const detector = new HungPageDetector(clock, limits);
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.equal(null);
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.equal(null);
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.include({ timeouts: 3 });
    // older than the configured window: forgotten
    detector.timedOut('send.text', timeout(), 3_000);
    clock.at += 10_000;
    detector.timedOut('send.text', timeout(), 3_000);
    expect(detector.timedOut('send.text', timeout(), 3_000)).to.equal(null);
    expect(() => parse({ hungPage: { timeouts: 0 } })).to.throw();
  });

  it("watchForHungPage ends a READY page's attempt at the configured count, not before", async () => {
    const page = { evaluate: (): Promise<unknown> => Promise.reject(timeout()) };
    const attempt = {
      client: { pupPage: page },
      ready: true,
      retired: false,
    } as unknown as Attempt;
    const verdicts: WakitError[] = [];
    const limits = { timeouts: 3, windowMs: 60_000 };
    watchForHungPage(attempt, clockAt(), 3_000, (e) => verdicts.push(e), limits);
    for (let i = 1; i <= 3; i += 1) {
      await page.evaluate().catch(() => undefined);
      expect(verdicts.length, `after ${i} timeout(s)`).to.equal(i < 3 ? 0 : 1);
    }
    expect(verdicts[0]?.details).to.deep.include({ reason: 'page_hung', capability: 'send.text' });
  });
});
