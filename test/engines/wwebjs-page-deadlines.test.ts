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
  watchPageCalls,
} from '../../src/engines/wwebjs/page-deadlines.js';

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
});
