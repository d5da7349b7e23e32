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
  return new WakitError('ENGINE_ERROR', `whatsapp-web.js failed: ${message}`, {
    details: { chatId },
    cause: error,
  });
}
