/**
 * The one table of wakit error codes. A code is stable: callers and REST clients may rely on it.
 * `status` is the HTTP status the REST API answers with; `transient` marks errors that a retry may cure.
 * Documented in docs/errors.md (a test keeps the two in step).
 */
export const ERROR_CODES = {
  CONFIG_INVALID: { status: 500, title: 'Configuration is invalid', transient: false },
  VALIDATION_FAILED: { status: 400, title: 'Request is invalid', transient: false },
  INVALID_CHAT_ID: { status: 400, title: 'Chat id is invalid', transient: false },
  CHAT_NOT_FOUND: { status: 404, title: 'Chat not found', transient: false },
  MEDIA_DOWNLOAD_FAILED: { status: 502, title: 'Media download failed', transient: false },
  MEDIA_TOO_LARGE: { status: 413, title: 'Media is too large', transient: false },
  MEDIA_NOT_FOUND: { status: 404, title: 'Message has no downloadable media', transient: false },
  PERMISSION_DENIED: { status: 403, title: 'Not allowed in this chat', transient: false },
  CLIENT_NOT_READY: { status: 409, title: 'Client is not ready', transient: false },
  CLIENT_NOT_FOUND: { status: 404, title: 'Client not found', transient: false },
  CLIENT_EXISTS: { status: 409, title: 'A client with this name already exists', transient: false },
  CLIENT_NOT_MANAGED: {
    status: 409,
    title: 'The client is not managed at run time',
    transient: false,
  },
  REGISTRY_UNAVAILABLE: {
    status: 503,
    title: 'The client registry cannot be read or written',
    transient: true,
  },
  REGISTRY_CORRUPT: {
    status: 500,
    title: 'The client registry file is corrupt',
    transient: false,
  },
  SESSION_EXPIRED: { status: 409, title: 'Session expired', transient: false },
  SESSION_LEASED: { status: 409, title: 'Session is held by another server', transient: true },
  SESSION_STORE_ERROR: { status: 503, title: 'Session storage failed', transient: true },
  AUTH_FAILED: { status: 401, title: 'Authentication with WhatsApp failed', transient: false },
  QR_NOT_AVAILABLE: { status: 409, title: 'No QR code is available', transient: false },
  QUEUE_FULL: { status: 429, title: 'Outbound queue is full', transient: true },
  SEND_TIMEOUT: { status: 504, title: 'Sending timed out', transient: true },
  MESSAGE_NOT_FOUND: { status: 404, title: 'Message not found', transient: false },
  MESSAGE_TOO_OLD: {
    status: 409,
    title: 'Message is too old to be edited or deleted for everyone',
    transient: false,
  },
  ENGINE_ERROR: { status: 502, title: 'WhatsApp engine error', transient: true },
  ENGINE_INCOMPATIBLE: {
    status: 503,
    title: 'The engine cannot do this on the running WhatsApp Web build',
    transient: false,
  },
  WEB_VERSION_MISMATCH: {
    status: 503,
    title: 'The running WhatsApp Web build is not the pinned one',
    transient: false,
  },
  ACCOUNT_RESTRICTED: {
    status: 429,
    title: 'WhatsApp restricts this account for now',
    transient: false,
  },
  BROWSER_NOT_FOUND: { status: 500, title: 'No Chromium browser found', transient: false },
  NOT_SUPPORTED: { status: 501, title: 'Not supported by this engine', transient: false },
  INVALID_STATE: {
    status: 409,
    title: 'Operation not allowed in the current state',
    transient: false,
  },
  SHUTTING_DOWN: { status: 503, title: 'Shutting down', transient: true },
  TIMEOUT: { status: 504, title: 'Timed out', transient: true },
  UNAUTHORIZED: { status: 401, title: 'Missing or invalid token', transient: false },
  FORBIDDEN: { status: 403, title: 'Token may not access this resource', transient: false },
  NOT_FOUND: { status: 404, title: 'Route not found', transient: false },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed', transient: false },
  NOT_ACCEPTABLE: { status: 406, title: 'Not acceptable', transient: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported content type', transient: false },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body is too large', transient: false },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many requests', transient: true },
  PLUGIN_DUPLICATE: { status: 500, title: 'Two plugins have the same name', transient: false },
  PLUGIN_DEPENDENCY_MISSING: {
    status: 500,
    title: 'A plugin dependency is missing',
    transient: false,
  },
  PLUGIN_TIMEOUT: { status: 500, title: 'Plugin setup timed out', transient: false },
  PLUGIN_LOAD_FAILED: { status: 500, title: 'Plugin could not be loaded', transient: false },
  ADDRESS_IN_USE: { status: 500, title: 'The port is already in use', transient: false },
  INTERNAL: { status: 500, title: 'Internal error', transient: false },
  CLIENT_UNAVAILABLE: {
    status: 503,
    title: 'No node of the fleet runs the client now',
    transient: true,
  },
  STORAGE_UNAVAILABLE: { status: 503, title: 'The outbox cannot be written', transient: true },
  STORAGE_FULL: { status: 507, title: 'The outbox has no space left', transient: true },
  STORAGE_CORRUPT: { status: 500, title: 'The outbox file is corrupt', transient: false },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'Idempotency key already used for another request',
    transient: false,
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    title: 'A request with this idempotency key is still being accepted',
    transient: true,
  },
  CLIENT_FAILED: { status: 409, title: 'The client failed and needs a person', transient: false },
  CONNECTION_LOST: { status: 503, title: 'The connection to WhatsApp was lost', transient: true },
  MEDIA_URL_REFUSED: {
    status: 422,
    title: 'Media URL refused by the address policy',
    transient: false,
  },
  EXPECTATION_FAILED: { status: 417, title: 'Expectation not supported', transient: false },
  HANDLER_TIMEOUT: { status: 500, title: 'A plugin handler timed out', transient: false },
  CONVERSATION_NOT_FOUND: { status: 404, title: 'Conversation not found', transient: false },
  CONVERSATION_ACTIVE: {
    status: 409,
    title: 'The chat already has an active conversation',
    transient: false,
  },
  CONVERSATION_UNKNOWN: { status: 404, title: 'No conversation of that name', transient: false },
  CONVERSATION_NONDETERMINISTIC: {
    status: 500,
    title: 'A conversation took another path on replay',
    transient: false,
  },
  CONVERSATION_SIDE_EFFECT: {
    status: 500,
    title: 'A conversation had a side effect outside its API',
    transient: false,
  },
  STATE_CONFLICT: { status: 409, title: 'Chat state changed meanwhile', transient: true },
  STATE_TOO_LARGE: { status: 413, title: 'Chat state over its size limit', transient: false },
  GROUP_INVITE_INVALID: {
    status: 404,
    title: 'Group invite code is invalid or revoked',
    transient: false,
  },
  CALL_NOT_FOUND: { status: 404, title: 'Call not found', transient: false },
  MEDIA_TYPE_MISMATCH: {
    status: 422,
    title: 'Media is not of the declared type',
    transient: false,
  },
  INVALID_SEND_AT: {
    status: 400,
    title: 'sendAt is not a valid time within the schedule limits',
    transient: false,
  },
  MESSAGE_NOT_SCHEDULED: {
    status: 409,
    title: 'The message is not scheduled (any more)',
    transient: false,
  },
  SEND_CANCELLED: { status: 409, title: 'The scheduled send was cancelled', transient: false },
  SCHEDULE_UNSUPPORTED: {
    status: 501,
    title: 'This outbox cannot hold scheduled sends',
    transient: false,
  },
} as const satisfies Record<string, { status: number; title: string; transient: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
