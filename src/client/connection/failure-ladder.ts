/**
 * The reconnect ladder: what a failed (re)start or a disconnect means for retrying, by its cause.
 * One row per cause, first match wins; a failure no row names is retried `reconnect.maxAttempts`
 * times, as before. Add a row to classify a new cause (e.g. a strict pin mismatch's code).
 */
import type { DisconnectReason } from '../../engines/types.js';

/**
 * `forever`: retrying cures it (the network or WhatsApp comes back): retried with the capped
 * backoff however long it takes; `limited`: retried `reconnect.maxAttempts` times, then FAILED;
 * `fail`: no retry cures it (a person must act): FAILED at once.
 */
export type Rung = 'forever' | 'limited' | 'fail';

export interface FailureRow {
  /** The name of the cause, shown in client info (`reconnect.cause`) and logs. */
  cause: string;
  rung: Rung;
  /** WakitError codes (anywhere in the error's `cause` chain) this row matches. */
  codes?: readonly string[];
  /** Error messages (anywhere in the chain) this row matches. */
  message?: RegExp;
  /** Disconnect reasons this row matches (with or without an error). */
  reasons?: readonly DisconnectReason[];
}

export interface Failure {
  reason: DisconnectReason;
  /** What the engine said failed, when it said (a start failure's error). */
  error?: unknown;
}

export interface Classified {
  cause: string;
  rung: Rung;
}

/**
 * Chromium's net errors (net/base/net_error_list.h) as puppeteer reports a failed `page.goto`:
 * `net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/` (puppeteer Frame.goto →
 * `new Error(`${errorText} at ${url}`)`); Node's own resolver says ENOTFOUND / EAI_AGAIN.
 */
const NETWORK_DOWN =
  /net::ERR_(NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|INTERNET_DISCONNECTED|NETWORK_CHANGED|NETWORK_ACCESS_DENIED|ADDRESS_UNREACHABLE|PROXY_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED)\b|\b(ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)\b/;

/** The network works but WhatsApp Web does not answer (refused, reset, timed out, blocked). */
const WHATSAPP_UNREACHABLE =
  /net::ERR_(CONNECTION_(REFUSED|RESET|CLOSED|ABORTED|FAILED|TIMED_OUT)|TIMED_OUT|EMPTY_RESPONSE|SSL_PROTOCOL_ERROR|HTTP2_PROTOCOL_ERROR|QUIC_PROTOCOL_ERROR)\b|Navigation timeout of \d+ ms exceeded|\bECONNREFUSED\b|\bETIMEDOUT\b/;

/** puppeteer's launch of an executable that is not there (or not executable). */
const BROWSER_MISSING =
  /Failed to launch the browser process.*\b(ENOENT|EACCES)\b|Browser was not found at the configured executablePath/s;

export const FAILURE_LADDER: readonly FailureRow[] = [
  {
    cause: 'browser_missing',
    rung: 'fail',
    codes: ['BROWSER_NOT_FOUND'],
    message: BROWSER_MISSING,
  },
  { cause: 'auth_refused', rung: 'fail', codes: ['AUTH_FAILED'], reasons: ['banned'] },
  { cause: 'network', rung: 'forever', message: NETWORK_DOWN },
  { cause: 'whatsapp_unreachable', rung: 'forever', message: WHATSAPP_UNREACHABLE },
  // the page did not load within engine.authTimeoutMs (a black-holed network hangs the load:
  // whatsapp-web.js navigates with no timeout, Client.js:487); the engine reports it as TIMEOUT
  { cause: 'whatsapp_unreachable', rung: 'forever', codes: ['TIMEOUT'] },
];

/** The error and the errors it wraps (`cause`), outermost first; at most 8 deep. */
function chain(error: unknown): Array<{ code?: unknown; message?: unknown }> {
  const out: Array<{ code?: unknown; message?: unknown }> = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && out.length < 8) {
    const link = current as { code?: unknown; message?: unknown; cause?: unknown };
    out.push(link);
    current = link.cause;
  }
  if (typeof error === 'string') out.push({ message: error });
  return out;
}

function matches(row: FailureRow, failure: Failure): boolean {
  if (row.reasons?.includes(failure.reason)) return true;
  return chain(failure.error).some(
    (link) =>
      (row.codes !== undefined && typeof link.code === 'string' && row.codes.includes(link.code)) ||
      (row.message !== undefined &&
        typeof link.message === 'string' &&
        row.message.test(link.message)),
  );
}

/** The first row of `ladder` that names this failure; else `limited`, named by its reason. */
export function classifyFailure(
  failure: Failure,
  ladder: readonly FailureRow[] = FAILURE_LADDER,
): Classified {
  const row = ladder.find((candidate) => matches(candidate, failure));
  return row ? { cause: row.cause, rung: row.rung } : { cause: failure.reason, rung: 'limited' };
}
