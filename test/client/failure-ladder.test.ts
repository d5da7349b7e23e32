/**
 * The reconnect ladder's table (src/client/connection/failure-ladder.ts): which failures are
 * retried until cured, which a limited number of times, which fail at once.
 */
import { expect } from 'chai';
import {
  FAILURE_LADDER,
  classifyFailure,
  type FailureRow,
} from '../../src/client/connection/failure-ladder.js';
import { WakitError } from '../../src/errors/index.js';

/** What puppeteer's Frame.goto throws when the navigation fails: `${errorText} at ${url}`. */
const goto = (errorText: string): Error => new Error(`${errorText} at https://web.whatsapp.com/`);

describe('the reconnect ladder', () => {
  const cases: Array<[string, Parameters<typeof classifyFailure>[0], string, string]> = [
    [
      'DNS failing',
      { reason: 'connection_lost', error: goto('net::ERR_NAME_NOT_RESOLVED') },
      'network',
      'forever',
    ],
    [
      'no network at all',
      { reason: 'connection_lost', error: goto('net::ERR_INTERNET_DISCONNECTED') },
      'network',
      'forever',
    ],
    [
      'the network changed mid-load',
      { reason: 'connection_lost', error: goto('net::ERR_NETWORK_CHANGED') },
      'network',
      'forever',
    ],
    [
      'WhatsApp refusing the connection',
      { reason: 'connection_lost', error: goto('net::ERR_CONNECTION_REFUSED') },
      'whatsapp_unreachable',
      'forever',
    ],
    [
      'the connection reset',
      { reason: 'connection_lost', error: goto('net::ERR_CONNECTION_RESET') },
      'whatsapp_unreachable',
      'forever',
    ],
    [
      "puppeteer's navigation timeout",
      { reason: 'connection_lost', error: new Error('Navigation timeout of 30000 ms exceeded') },
      'whatsapp_unreachable',
      'forever',
    ],
    [
      'the page not loading within authTimeoutMs (engine TIMEOUT)',
      { reason: 'connection_lost', error: new WakitError('TIMEOUT', 'did not load') },
      'whatsapp_unreachable',
      'forever',
    ],
    [
      'a net error wrapped in an ENGINE_ERROR',
      {
        reason: 'connection_lost',
        error: new WakitError('ENGINE_ERROR', 'start failed', {
          cause: goto('net::ERR_NAME_NOT_RESOLVED'),
        }),
      },
      'network',
      'forever',
    ],
    [
      'no browser (BROWSER_NOT_FOUND)',
      { reason: 'connection_lost', error: new WakitError('BROWSER_NOT_FOUND', 'none') },
      'browser_missing',
      'fail',
    ],
    [
      'puppeteer spawning a missing executable',
      {
        reason: 'browser_crashed',
        error: new Error(
          // @puppeteer/browsers launch.js: the spawn error, then the stderr and a hint
          'Failed to launch the browser process:  spawn /usr/bin/chromium ENOENT\n\nstderr:\n',
        ),
      },
      'browser_missing',
      'fail',
    ],
    [
      'auth refused',
      { reason: 'connection_lost', error: new WakitError('AUTH_FAILED', 'refused') },
      'auth_refused',
      'fail',
    ],
    ['banned', { reason: 'banned' }, 'auth_refused', 'fail'],
    [
      'the browser crashing (no error)',
      { reason: 'browser_crashed' },
      'browser_crashed',
      'limited',
    ],
    [
      'an unknown start failure',
      { reason: 'connection_lost', error: new Error('Evaluation failed: boom') },
      'connection_lost',
      'limited',
    ],
    ['a conflict', { reason: 'conflict' }, 'conflict', 'limited'],
  ];
  for (const [what, failure, cause, rung] of cases) {
    it(`${what} → ${cause} (${rung})`, () => {
      expect(classifyFailure(failure)).to.deep.equal({ cause, rung });
    });
  }

  it('is a table: a row added in front classifies a new cause (e.g. a strict pin mismatch)', () => {
    const pin: FailureRow = { cause: 'pin_mismatch', rung: 'fail', codes: ['WEB_VERSION_PINNED'] };
    const failure = {
      reason: 'connection_lost' as const,
      error: Object.assign(new Error('the running build is not the pinned one'), {
        code: 'WEB_VERSION_PINNED',
      }),
    };
    expect(classifyFailure(failure).rung).to.equal('limited');
    expect(classifyFailure(failure, [pin, ...FAILURE_LADDER])).to.deep.equal({
      cause: 'pin_mismatch',
      rung: 'fail',
    });
  });
});
