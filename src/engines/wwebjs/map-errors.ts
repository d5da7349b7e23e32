import type { DisconnectReason } from '../types.js';
import { WakitError, isWakitError } from '../../errors/index.js';

/** What whatsapp-web.js emits on `disconnected` when `qrMaxRetries` is exhausted. */
export const MAX_QR_RETRIES_REASON = 'Max qrcode retries reached';

const DISCONNECT_REASONS: Readonly<Record<string, DisconnectReason>> = {
  UNPAIRED: 'session_expired',
  UNPAIRED_IDLE: 'session_expired',
  LOGOUT: 'logout',
  CONFLICT: 'conflict',
  TIMEOUT: 'connection_lost',
  TOS_BLOCK: 'banned',
  SMB_TOS_BLOCK: 'banned',
  [MAX_QR_RETRIES_REASON]: 'qr_timeout',
};

/**
 * whatsapp-web.js `disconnected` payload (a `WAState` string, `'LOGOUT'` or the QR give-up message)
 * to our reason. Unknown states (PROXYBLOCK, DEPRECATED_VERSION, ...) count as a lost connection.
 */
export function mapDisconnectReason(reason: unknown): DisconnectReason {
  return (typeof reason === 'string' && DISCONNECT_REASONS[reason]) || 'connection_lost';
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);

/** Signs that the browser process or its page went away (puppeteer / CDP errors). */
const BROWSER_GONE =
  /failed to launch|target closed|session closed|protocol error|browser has disconnected|connection closed|crash|detached|websocket|econnreset|epipe/i;

/** Why a start attempt failed: the browser died, or WhatsApp Web could not be reached/loaded. */
export function classifyStartFailure(error: unknown): DisconnectReason {
  return BROWSER_GONE.test(messageOf(error)) ? 'browser_crashed' : 'connection_lost';
}

/**
 * WhatsApp Web's `toUserLidOrThrow` inside `findOrCreateLatestChat` (reached from
 * `WWebJS.getChat`, Injected/Utils.js:842-870, during `Client.sendMessage`, Client.js:1533) throws
 * `Error: No LID for user` when it has no LID for a `@c.us` id (wwebjs/whatsapp-web.js#145434,
 * rmyndharis/OpenWA#156).
 */
const NO_LID = /no lid for user/i;
/** Puppeteer's prefix for an exception thrown inside `page.evaluate` (the WhatsApp Web page). */
const EVALUATION_FAILED = /^evaluation failed/i;
/**
 * Strings WhatsApp Web (not whatsapp-web.js, whose sources throw none of these) puts in its
 * errors: `invalid wid` / `wid error` from `WAWebWidFactory.createWid` on a malformed id,
 * `Lid is missing` from the LID migration, `findOrCreateLatestChat` failing in
 * `WWebJS.getChat` (Injected/Utils.js:864); `not-authorized` / `forbidden` / `403` are the
 * server's IQ error texts for announcement groups and channels the account cannot post to.
 */
const CHAT_MISSING =
  /invalid wid|wid error|chat not found|no chat|lid is missing|not a (whatsapp|registered)|not registered|findorcreatelatestchat/i;
const NOT_ALLOWED =
  /not.?authori[sz]ed|forbidden|not an admin|only admins|announce|read.?only|403/i;

/**
 * Errors thrown by whatsapp-web.js while sending (usually `Evaluation failed: ...` strings from the
 * page) to our codes; anything unrecognised is `ENGINE_ERROR` with the original kept as `cause`.
 */
export function mapSendError(error: unknown, chatId: string): WakitError {
  if (isWakitError(error)) return error;
  const message = messageOf(error);
  if (NO_LID.test(message)) {
    return new WakitError(
      'CHAT_NOT_FOUND',
      `WhatsApp Web has no LID for ${chatId} ("No LID for user"): the number is not on WhatsApp, ` +
        `or WhatsApp Web has not learnt its LID yet; reply by the person's @lid id ` +
        `(message.sender.lid) or call resolveContact() first`,
      { details: { chatId, reason: 'no_lid' }, cause: error },
    );
  }
  if (CHAT_MISSING.test(message)) {
    return new WakitError('CHAT_NOT_FOUND', `Chat ${chatId} does not exist on WhatsApp`, {
      details: { chatId },
      cause: error,
    });
  }
  if (NOT_ALLOWED.test(message)) {
    return new WakitError('PERMISSION_DENIED', `This account may not send to ${chatId}`, {
      details: { chatId },
      cause: error,
    });
  }
  if (EVALUATION_FAILED.test(message)) {
    return new WakitError(
      'ENGINE_ERROR',
      `WhatsApp Web rejected the call (${message.slice(0, 200)}); if this started after a ` +
        `WhatsApp Web update, pin a known-good build with engine.webVersion`,
      { details: { chatId, reason: 'page_error' }, cause: error },
    );
  }
  return new WakitError('ENGINE_ERROR', `whatsapp-web.js failed: ${message}`, {
    details: { chatId },
    cause: error,
  });
}
