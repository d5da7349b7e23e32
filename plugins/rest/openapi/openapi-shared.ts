/**
 * What the OpenAPI document says once for many operations: the error answers (shared
 * `components/responses`, one per status, with the codes of src/errors that carry it and the
 * headers they may bring), the request headers the server reads (`components/parameters`), and
 * which of them apply to a route. Most of these answers come from layers before the route (Node's
 * HTTP parser: 400, 417, 431; the rate limit: 429; the body reader: 413, 415; the problem
 * boundary: 503 while closing), so every operation lists them.
 */
import { ERROR_CODES } from '../../../src/index.js';
import type { AnyRoute } from '../route.js';
import { MessageAccepted } from '../schemas/api-schemas.js';

type Json = Record<string, unknown>;

/** Request headers the server reads, as `components/parameters`. */
export const HEADER_PARAMETERS: Record<string, Json> = {
  Prefer: {
    name: 'Prefer',
    in: 'header',
    description:
      '`wait=N` (RFC 7240): answer 201 once the send was made, waiting up to N seconds (at most 60); 202 when not made in time. Other preferences are ignored.',
    schema: { type: 'string', maxLength: 1024 },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'The same key with the same request (per token and client) answers the first send again instead of sending twice; with another request it is 422 IDEMPOTENCY_KEY_REUSED.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    description:
      'Resume a stream: replay the buffered events after this event id (a number; in a fleet `<ms>-<n>`).',
    schema: { type: 'string', pattern: '^\\s*\\d{1,20}(-\\d{1,20})?\\s*$' },
  },
};

const LOCATION = {
  description: 'URL of the status of this send or action',
  schema: { type: 'string' },
};
const PREFERENCE_APPLIED = {
  description: '`wait=N` when `Prefer: wait=N` was honoured',
  schema: { type: 'string', pattern: '^wait=\\d+$' },
};
const RETRY_AFTER = {
  description: 'Seconds to wait before retrying',
  schema: { type: 'string', pattern: '^[1-9]\\d*$' },
};

/** Extra codes a status carries besides those of the table (Node's own 431 answer). */
const EXTRA_CODES: Record<number, string[]> = { 431: ['VALIDATION_FAILED'] };

const WHAT: Record<number, string> = {
  400: 'Invalid request: a field, path or query parameter out of its schema, an undeclared query parameter, a body where the operation takes none, a malformed HTTP request',
  401: 'Missing or invalid bearer token',
  403: 'The token may not act on this client, or WhatsApp does not allow it',
  404: 'Not found',
  409: 'Conflict with the state of the client, the send or an idempotency key in use',
  413: 'Request body over `bodyLimit`, or media over `media.maxBytes`',
  415: 'The body is not UTF-8 `application/json`',
  417: 'An `Expect` header other than `100-continue`',
  422: 'The idempotency key was used for another request, or the media URL is refused by the address policy',
  429: 'Too many requests for this token (the rate limit applies before routing, to every request that carries a valid token), too many event streams, or the outbound queue is full',
  431: 'Request headers too large (answered by the HTTP parser before routing)',
  500: 'Internal error (a bug: the log has the details)',
  501: 'Not supported by the engine',
  502: 'WhatsApp or a media download failed',
  503: 'The server is shutting down (`Connection: close`), or a dependency (storage, the fleet, WhatsApp) is unavailable now',
  504: 'Timed out',
  507: 'The outbox has no space left',
};

/** Headers an error answer may carry, by status; `queued`: errors of a send or action. */
function errorHeaders(status: number, queued: boolean): Json | undefined {
  const headers: Json = {};
  if (status === 401) {
    headers['WWW-Authenticate'] = {
      description: '`Bearer realm="wakit"`',
      required: true,
      schema: { type: 'string' },
    };
  }
  if (status === 429 || status === 503) headers['Retry-After'] = RETRY_AFTER;
  // Once queued, a send (or action) that failed while `Prefer: wait` waited keeps both headers.
  if (queued && !NOT_AFTER_ENQUEUE.has(status)) {
    headers.Location = LOCATION;
    headers['Preference-Applied'] = PREFERENCE_APPLIED;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** Statuses a request gets before its send is queued, never after. */
const NOT_AFTER_ENQUEUE = new Set([401, 415, 417, 429, 431]);

export function errorCodes(status: number): string[] {
  const codes = Object.entries(ERROR_CODES)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => code);
  return [...codes, ...(EXTRA_CODES[status] ?? [])];
}

/** The `components/responses` name of an error status (`Queued`: a send's or action's). */
export function errorResponseName(status: number, queued: boolean): string {
  return `Error${status}${queued && errorHeaders(status, true)?.Location ? 'Queued' : ''}`;
}

/** One shared error response: problem+json whose `status` and `code` belong together. */
export function errorResponse(status: number, queued: boolean): Json {
  const codes = errorCodes(status);
  const out: Json = {
    description: `${WHAT[status] ?? 'Error'} (${codes.join(', ')})`,
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Problem' },
            { type: 'object', properties: { status: { const: status }, code: { enum: codes } } },
          ],
        },
      },
    },
  };
  const headers = errorHeaders(status, queued);
  if (headers) out.headers = headers;
  return out;
}

/** Whether the route enqueues a send or action (202 with the tracking id, `Prefer: wait`). */
export function isQueued(route: AnyRoute): boolean {
  return route.responses[202]?.schema === MessageAccepted;
}

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Whether the route names a client (path, query or body): then 403 and 404 CLIENT_NOT_FOUND. */
export function namesClient(route: AnyRoute, bodyHasClient: boolean): boolean {
  return (
    shapeKeys(route.params).includes('name') ||
    shapeKeys(route.query).includes('client') ||
    route.path.startsWith('/api/v1/client/') ||
    bodyHasClient
  );
}

/** Every error status `route` can answer with. */
export function errorStatuses(route: AnyRoute, bodyHasClient: boolean): number[] {
  const statuses = new Set([...(route.errors ?? []), 400, 417, 429, 431, 500, 503]);
  if (route.auth !== false) statuses.add(401);
  // every method but GET reads a body when one is sent (and refuses it where none is taken)
  if (route.method !== 'GET') [413, 415].forEach((s) => statuses.add(s));
  if (namesClient(route, bodyHasClient)) [403, 404].forEach((s) => statuses.add(s));
  if (isQueued(route))
    [403, 404, 409, 413, 422, 502, 503, 504, 507].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

/** The shared error responses the operations refer to, by name. */
export function errorComponents(used: Iterable<[number, boolean]>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, queued] of used) {
    out[errorResponseName(status, queued)] ??= errorResponse(status, queued);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** Headers of the success answers of a send or action. */
export const QUEUED_SUCCESS_HEADERS: Json = {
  Location: LOCATION,
  'Preference-Applied': PREFERENCE_APPLIED,
};
