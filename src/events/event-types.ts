/**
 * The client events, declared once: for each, whether it is exposed outside the process (the REST
 * plugin's SSE stream and webhooks, the fleet's event stream) and how its handler arguments become
 * the plain, serialisable `data` of a bus record. The payload types are `ClientEvents`
 * (src/client/client-events.ts); the event bus checks at compile time that every client event has
 * its row here, so a new event is its payload type there and one row here.
 *
 * This file imports nothing: `client-events.ts` takes its name lists from it.
 */

/** A shallow copy of an object (class instances lose their prototype: only data travels). */
export function plain(value: unknown): unknown {
  return value && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : value;
}

/** One row: `exposed` on SSE and webhooks; `data` makes the record's payload from the arguments. */
export interface EventRow {
  readonly exposed: boolean;
  /** Only followed while somebody wants it (several per send: `message.status`). */
  readonly onDemand?: boolean;
  readonly data: (...args: never[]) => unknown;
}

const row = (data: EventRow['data'] = plain, onDemand = false) =>
  ({ exposed: true, data, ...(onDemand ? { onDemand } : {}) }) as const;

/** Every client event, in the order the docs and the OpenAPI document list them. */
export const EVENT_TABLE = {
  qr: row((qr: string) => ({ qr })),
  authenticated: row(),
  auth_failure: row((error: { code: string; message: string }) => ({
    code: error.code,
    message: error.message,
  })),
  ready: row(() => ({})),
  disconnected: row((reason: string) => ({ reason })),
  message: row(),
  'message.create': row(),
  'message.ack': row(),
  'message.reaction': row(),
  'message.edit': row(),
  'message.revoke': row(),
  'message.status': row(plain, true),
  /** Others typing: in the process only (turns), frequent and not an account's record. */
  'chat.state': { exposed: false, data: plain } as const,
  state: row((change: object) => ({ ...change })),
  'group.join': row(),
  'group.leave': row(),
  'group.update': row(),
  call: row(),
  'poll.vote': row(),
  'engine.health': row(),
  'account.restricted': row(),
  'account.resumed': row(),
  'chat.mode': row(),
  /** The lease retry notice stays in the process. */
  'session.leased': { exposed: false, data: plain } as const,
} as const satisfies Record<string, EventRow>;

export type TableEventName = keyof typeof EVENT_TABLE;

/** The names of the events exposed outside the process. */
export type ExposedEventName = {
  [E in TableEventName]: (typeof EVENT_TABLE)[E]['exposed'] extends true ? E : never;
}[TableEventName];

const names = Object.keys(EVENT_TABLE) as TableEventName[];

/** The events that carry what happens to an account (what REST streams over SSE and webhooks). */
export const EXPOSED_EVENT_NAMES = names.filter(
  (name): name is ExposedEventName => EVENT_TABLE[name].exposed,
) as unknown as readonly [ExposedEventName, ...ExposedEventName[]];

/** Every client event. */
export const EVENT_NAMES: readonly TableEventName[] = names;
