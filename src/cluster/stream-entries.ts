/**
 * Entries of the fleet's event stream (a Redis Stream): the fields a node writes with XADD and the
 * `FleetEvent` a reader gets back, plus the order of stream ids (`<ms>-<n>`).
 */
import type { FleetEvent } from './cluster-view.js';

/** A stream entry as ioredis returns it: `[id, [field, value, field, value, ...]]`. */
export type RawEntry = [id: string, fields: string[]];

/** The fields of one event, in XADD order. */
export function entryFields(client: string, event: string, at: string, data: unknown): string[] {
  return ['event', event, 'client', client, 'at', at, 'data', JSON.stringify(data ?? null)];
}

/** An entry as a FleetEvent; undefined for one wakit did not write (it is skipped). */
export function fleetEventOf([id, fields]: RawEntry): FleetEvent | undefined {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i], fields[i + 1]);
  const event = values.get('event');
  const client = values.get('client');
  const at = values.get('at');
  const raw = values.get('data');
  if (event === undefined || client === undefined || at === undefined || raw === undefined) {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return undefined; // not reported: not an event of ours (the consumer acknowledges it)
  }
  return { id, event, client, at, data };
}

/** Events of raw entries, in stream order, skipping foreign ones. */
export function fleetEventsOf(entries: readonly RawEntry[]): FleetEvent[] {
  const out: FleetEvent[] = [];
  for (const entry of entries) {
    const event = fleetEventOf(entry);
    if (event) out.push(event);
  }
  return out;
}

const STREAM_ID = /^(\d{1,20})(?:-(\d{1,20}))?$/;

/** Whether `id` is a stream id (`<ms>-<n>`, or `<ms>` alone, which means `<ms>-0`). */
export function isStreamId(id: string): boolean {
  return STREAM_ID.test(id);
}

/** Negative, zero or positive as stream id `a` comes before, equals or comes after `b`. */
export function compareStreamIds(a: string, b: string): number {
  const ma = STREAM_ID.exec(a);
  const mb = STREAM_ID.exec(b);
  if (!ma || !mb) throw new RangeError(`not a stream id: ${ma ? b : a}`);
  const ms = BigInt(ma[1]) - BigInt(mb[1]);
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const n = BigInt(ma[2] ?? '0') - BigInt(mb[2] ?? '0');
  return n === 0n ? 0 : n < 0n ? -1 : 1;
}

/**
 * The entries of an XREAD / XREADGROUP reply for one stream, whichever protocol answered: RESP2
 * gives `[[key, entries]]`, RESP3 a map (`[key, entries]` flattened, or a Map); null: none.
 * A deleted entry still pending in a group comes with null fields.
 */
export function readReplyEntries(reply: unknown): [string, string[] | null][] {
  if (reply === null || reply === undefined) return [];
  if (reply instanceof Map) {
    const first = [...(reply as Map<unknown, unknown>).values()][0];
    return Array.isArray(first) ? (first as [string, string[] | null][]) : [];
  }
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const head: unknown = reply[0];
  if (Array.isArray(head)) return (head[1] ?? []) as [string, string[] | null][];
  return (reply[1] ?? []) as [string, string[] | null][];
}
