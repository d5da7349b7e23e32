import { WakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Attempt } from './attempt.js';
import type { Capability } from '../health.js';

/** Page-call timeouts in a row (no call answered between them) that make a page hung. */
export const HUNG_PAGE_TIMEOUTS = 2;
/** The timeouts must fall within this window (older ones are forgotten). */
export const HUNG_PAGE_WINDOW_MS = 60_000;

/** `engine.hungPage`: the defaults above unless configured. */
export interface HungPageLimits {
  timeouts: number;
  windowMs: number;
}
const DEFAULT_LIMITS: HungPageLimits = {
  timeouts: HUNG_PAGE_TIMEOUTS,
  windowMs: HUNG_PAGE_WINDOW_MS,
};

/**
 * Puppeteer's error when a page call outlives `protocolTimeout` (`engine.protocolTimeoutMs`):
 * a ProtocolError "Runtime.callFunctionOn timed out. Increase the 'protocolTimeout' setting…".
 */
export function isProtocolTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  return (
    /\btimed out\b/i.test(message) &&
    (name === 'ProtocolError' || /protocolTimeout|Runtime\.\w+ timed out/i.test(message))
  );
}

/** The capability a page function serves, read from its source (whatsapp-web.js's own calls). */
export function capabilityOf(pageFunction: unknown): Capability {
  const source = typeof pageFunction === 'function' ? String(pageFunction) : '';
  if (/sendMessage|forwardMessage/.test(source)) return 'send.text';
  if (/downloadMedia|decryptMedia/i.test(source)) return 'media.download';
  if (/GroupMetadata|getGroup/i.test(source)) return 'groups.metadata';
  if (/Contact|Lid|NumberId|WidExists|getChat/i.test(source)) return 'contacts.lid';
  return 'send.text';
}

export interface HungVerdict {
  capability: Capability;
  timeouts: number;
  detail: string;
}

/**
 * Counts page calls that timed out with no call answering in between. The `limits.timeouts`th
 * within `limits.windowMs` (`engine.hungPage`; 2 within 60 s by default) is a verdict: the page is
 * hung (the engine then ends the attempt and the client's supervisor starts a fresh page; engines
 * never restart themselves).
 */
export class HungPageDetector {
  #timeouts: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly limits: HungPageLimits = DEFAULT_LIMITS,
  ) {}

  answered(): void {
    this.#timeouts = [];
  }

  timedOut(capability: Capability, error: unknown, timeoutMs: number): HungVerdict | null {
    const now = this.clock.now();
    const { timeouts: limit, windowMs } = this.limits;
    this.#timeouts = [...this.#timeouts.filter((at) => now - at < windowMs), now];
    if (this.#timeouts.length < limit) return null;
    const timeouts = this.#timeouts.length;
    this.#timeouts = [];
    const why = error instanceof Error ? error.message.split('.')[0] : String(error);
    return {
      capability,
      timeouts,
      detail:
        `the page did not answer: ${timeouts} page call(s) in a row timed out after ${timeoutMs} ms ` +
        `(engine.protocolTimeoutMs; last: ${why}); the page is restarted`,
    };
  }
}

interface EvaluatingPage {
  evaluate?: (pageFunction: unknown, ...args: unknown[]) => Promise<unknown>;
}
const WATCHED = new WeakSet<object>();

/**
 * Observes every `page.evaluate` (how whatsapp-web.js calls the page): answers and protocol
 * timeouts go to the callbacks; the call itself is unchanged. Once per page object.
 */
export function watchPageCalls(
  page: object | null | undefined,
  on: {
    answered(): void;
    timedOut(capability: Capability, error: unknown): void;
  },
): void {
  const target = page as EvaluatingPage | null | undefined;
  if (!target?.evaluate || WATCHED.has(target)) return;
  WATCHED.add(target);
  const evaluate = target.evaluate.bind(target);
  target.evaluate = async (pageFunction, ...args) => {
    try {
      const result = await evaluate(pageFunction, ...args);
      on.answered();
      return result;
    } catch (error) {
      if (isProtocolTimeout(error)) on.timedOut(capabilityOf(pageFunction), error);
      else on.answered(); // the page answered, with an error
      throw error;
    }
  };
}

/**
 * Watches a READY attempt's page (start-up has its own deadline, `engine.authTimeoutMs`): page
 * calls timing out in a row (`limits`, `engine.hungPage`) call `hung` with a TIMEOUT error whose details are
 * `{ reason: 'page_hung', capability, detail }`, for `disconnected('connection_lost', error)`: the
 * client marks the capability degraded and its supervisor starts a fresh page (engines never
 * restart themselves).
 */
export function watchForHungPage(
  attempt: Attempt,
  clock: Clock,
  timeoutMs: number,
  hung: (error: WakitError) => void,
  limits: HungPageLimits = DEFAULT_LIMITS,
): void {
  const detector = new HungPageDetector(clock, limits);
  watchPageCalls(attempt.client.pupPage, {
    answered: () => detector.answered(),
    timedOut: (capability, error) => {
      if (!attempt.ready || attempt.retired) return;
      const verdict = detector.timedOut(capability, error, timeoutMs);
      if (!verdict) return;
      hung(
        new WakitError('TIMEOUT', `WhatsApp Web is hung: ${verdict.detail}`, {
          details: { reason: 'page_hung', capability, detail: verdict.detail },
          cause: error,
        }),
      );
    },
  });
}
