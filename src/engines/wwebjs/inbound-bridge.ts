import type { Logger } from 'pino';
import type { Clock } from '../../kernel/clock.js';
import type { CapabilityResult } from '../health.js';
import type { Attempt } from './attempt.js';

/** `engine.inboundCheck` (docs/engines.md, "The inbound bridge"). */
export interface InboundCheckOptions {
  /** READY with no message event for this long makes a health check test the bridge; 0: never. */
  silenceMs: number;
  /** Time the check's own message has to come back as `message_create`. */
  echoTimeoutMs: number;
}

/** The text of the check's own message (to the account's own chat, "message yourself"). */
export const BRIDGE_CHECK_TEXT = 'wakit: inbound check';

/**
 * Whether new messages still reach the engine. whatsapp-web.js hears every new message, sent or
 * received, through its listener on the page's Msg collection; some pages reach READY with that
 * bridge never attached (OpenWA users, October 2026): no inbound message, no error, health "ok".
 *
 * Silence alone proves nothing (a quiet account is quiet), so after `silenceMs` without a message
 * event the check sends one message to the account's own chat and waits for its `message_create`.
 * It comes: the bridge is alive. It does not: `events.inbound` is broken, and the page is reloaded
 * (whatsapp-web.js injects itself and attaches its listeners again on every navigation).
 */
export async function checkInboundBridge(
  attempt: Attempt,
  { clock, log, options }: { clock: Clock; log: Logger; options: InboundCheckOptions },
): Promise<CapabilityResult> {
  const quiet = clock.now() - attempt.lastMessageAt;
  if (options.silenceMs === 0 || quiet < options.silenceMs) {
    return { ok: true, detail: `a message event ${Math.round(quiet / 1000)} s ago` };
  }
  const own = attempt.identity?.id;
  if (!own) return { ok: true, detail: 'not checked: the account is not known yet' };
  const echo = attempt.waitForCreated(own, options.echoTimeoutMs, clock);
  try {
    await attempt.client.sendMessage(own, BRIDGE_CHECK_TEXT);
  } catch (error) {
    // not reported: a failed send is not a verdict on the bridge; health says "not checked"
    echo.resolve(null);
    log.warn({ err: error }, 'the inbound check could not send its message');
    return { ok: true, detail: 'not checked: the check message could not be sent' };
  }
  if (await echo.promise) {
    attempt.lastMessageAt = clock.now();
    return { ok: true, detail: 'the check message came back' };
  }
  const detail =
    `READY, no message event for ${Math.round(quiet / 1000)} s, and the check message did not ` +
    `come back within ${options.echoTimeoutMs} ms: the page's event bridge is not attached`;
  log.error({ quietMs: quiet }, `${detail}; reloading the page`);
  attempt.lastMessageAt = clock.now(); // one reload per silence, not one per health check
  attempt.bridgeReloads += 1;
  const page = attempt.client.pupPage as { reload?: () => Promise<unknown> } | null;
  // not reported: a reload that fails is seen by the next check (still broken), and logged
  void page?.reload?.().catch((error: unknown) => {
    log.warn({ err: error }, 'reloading the page failed');
  });
  return { ok: false, detail };
}
