/**
 * `GET /api/v1/events`: client events as Server-Sent Events. Filters `client=a,b` (existing
 * clients only) and `types=message,ready`; heartbeat comments keep proxies from timing the stream
 * out. A new stream starts live: only `Last-Event-ID` (or `?since=<id>`) replays what the bounded
 * buffer (a fleet: the stream) still holds after that id, then goes on live without a gap or a
 * repeat. Streams are limited in total and per token.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { WakitError, z } from '../../../src/index.js';
import { canSee, requireClientAccess } from '../middleware/auth.js';
import type { RestContext } from '../context.js';
import type { HubEvent } from './event-hub.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { ClientEvent, EventsQuery } from '../schemas/api-schemas.js';

/** A stream whose reader lags this far behind is cut (it may reconnect with Last-Event-ID). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Events replayed per read of the buffer or the stream. */
const REPLAY_PAGE = 1_000;

export function formatEvent(event: HubEvent): string {
  const data = JSON.stringify({
    id: event.id,
    event: event.event,
    client: event.client,
    at: event.at,
    data: event.data,
  });
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${data}\n\n`;
}

/** `?since=` is an event id, like `Last-Event-ID` (a number; a fleet: `<ms>-<n>`). */
const StreamQuery = EventsQuery.extend({
  since: z
    .string()
    .regex(/^\d{1,20}(-\d{1,20})?$/, 'must be an event id (a number)')
    .optional(),
});

/** Streams open per token (by token index), to share `maxStreams` fairly. */
const perToken = new WeakMap<RestContext, Map<number, number>>();

function lastEventId(rc: RestContext, header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (!rc.hub.isId(trimmed)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      'Last-Event-ID must be an event id from this stream',
      {
        issues: [
          {
            path: 'headers.last-event-id',
            message: rc.hub.fleet ? 'must be a stream id (<ms>-<n>)' : 'must be a number',
          },
        ],
      },
    );
  }
  return trimmed;
}

function checkSince(rc: RestContext, since: string | undefined): string | undefined {
  if (since === undefined || rc.hub.isId(since)) return since;
  throw new WakitError('VALIDATION_FAILED', 'The query is not valid', {
    issues: [{ path: 'query.since', message: 'must be an event id (a number)' }],
  });
}

export function eventRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/events',
      operationId: 'streamEvents',
      summary: 'Client events as Server-Sent Events (`text/event-stream`)',
      description:
        'Each event has `id:` (resume with `Last-Event-ID`; in a fleet a stream id `<ms>-<n>`, valid on every node), `event:` (its type) and `data:` (a ClientEvent as JSON). Comment lines are heartbeats. A new stream starts live; `Last-Event-ID` or `?since=<id>` first replays the buffered events after that id (`since=0`: all of them). One server: ids increase by one per event and are never reused across restarts; an id whose events cannot all be replayed (from before a restart, or older than the buffer) first gets an `event: reset` line, then everything still buffered.',
      tag: 'events',
      query: StreamQuery,
      responses: {
        200: {
          description: 'An endless event stream; each `data:` line is a ClientEvent',
          raw: { 'text/event-stream': 'Server-Sent Events' },
          schema: ClientEvent,
        },
      },
      errors: [400, 401, 403, 429],
      handler(ctx, { query, principal }) {
        const wanted = query.client ? new Set(query.client) : undefined;
        for (const name of wanted ?? []) {
          requireClientAccess(principal, name);
          // an existing client (the names are not looked up in any object: `__proto__` is just unknown)
          rc.sdk.clients.get(name);
        }
        const types =
          query.types && query.types.length > 0 ? new Set<string>(query.types) : undefined;
        const asked =
          lastEventId(rc, ctx.get('last-event-id') || undefined) ?? checkSince(rc, query.since);
        // an id this server cannot replay after (before a restart, beyond the buffer): the reader
        // is told with a `reset` event and gets everything still buffered
        const reset = asked !== undefined && !rc.hub.replayable(asked);
        const after = reset ? '0' : asked;
        if (rc.streams.size >= rc.options.sse.maxStreams) {
          throw new WakitError('TOO_MANY_REQUESTS', 'Too many event streams are open');
        }
        let counts = perToken.get(rc);
        if (!counts) {
          counts = new Map<number, number>();
          perToken.set(rc, counts);
        }
        const token = principal.tokenIndex;
        if ((counts.get(token) ?? 0) >= rc.options.sse.maxStreamsPerToken) {
          throw new WakitError(
            'TOO_MANY_REQUESTS',
            `This token already has ${rc.options.sse.maxStreamsPerToken} event streams open`,
          );
        }
        const accepts = (event: HubEvent): boolean =>
          (!wanted || wanted.has(event.client)) &&
          canSee(principal, event.client) &&
          (!types || types.has(event.event));

        const stream = new PassThrough();
        const write = (chunk: string): void => {
          if (stream.writableLength > MAX_BUFFERED_BYTES) {
            rc.log.warn('an SSE reader is too slow: stream closed');
            handle.end();
            return;
          }
          stream.write(chunk);
        };
        // Live events wait while a replay runs; then only those after what it replayed are sent
        // (a fleet's stream may be read ahead of this node's live reader).
        let replaying = after !== undefined;
        let floor = after;
        const held: HubEvent[] = [];
        const fresh = (event: HubEvent): boolean =>
          floor === undefined || rc.hub.compare(event.id, floor) > 0;
        const unsubscribe = rc.hub.subscribe((event) => {
          if (!accepts(event)) return;
          if (replaying) held.push(event);
          else if (fresh(event)) write(formatEvent(event));
        }, types);
        const heartbeat = setInterval(
          () => write(`: heartbeat ${Date.now()}\n\n`),
          rc.options.sse.heartbeatMs,
        );
        heartbeat.unref();
        const handle = {
          end: () => {
            cleanup();
            if (!stream.writableEnded) stream.end();
          },
        };
        let released = false;
        const cleanup = (): void => {
          clearInterval(heartbeat);
          unsubscribe();
          rc.streams.delete(handle);
          if (released) return;
          released = true;
          const left = (counts.get(token) ?? 1) - 1;
          if (left > 0) counts.set(token, left);
          else counts.delete(token);
        };
        stream.on('close', cleanup);
        rc.streams.add(handle);
        counts.set(token, (counts.get(token) ?? 0) + 1);

        ctx.req.socket.setTimeout(0);
        ctx.req.socket.setNoDelay(true);
        ctx.req.socket.setKeepAlive(true);
        ctx.status = 200;
        ctx.type = 'text/event-stream';
        ctx.set('Cache-Control', 'no-cache, no-transform');
        ctx.set('X-Accel-Buffering', 'no');
        ctx.body = stream;
        stream.write(`retry: 2000\n: connected ${rc.hub.lastId}\n\n`);
        if (reset) {
          const data = {
            lastEventId: asked,
            lastId: rc.hub.lastId,
            reason:
              'events after this id cannot be replayed (the server restarted, or they left the buffer): what is still buffered follows',
          };
          stream.write(`event: reset\ndata: ${JSON.stringify(data)}\n\n`);
        }
        if (after === undefined) return;
        const replay = async (): Promise<void> => {
          for (;;) {
            const page = await rc.hub.since(floor ?? after, REPLAY_PAGE);
            for (const event of page) {
              if (accepts(event)) write(formatEvent(event));
              floor = event.id;
            }
            if (page.length < REPLAY_PAGE || stream.writableEnded) break;
            if (stream.writableLength > MAX_BUFFERED_BYTES / 2) {
              await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
            }
          }
          replaying = false;
          for (const event of held.splice(0)) if (fresh(event)) write(formatEvent(event));
        };
        replay().catch((error: unknown) => {
          // the reader reconnects with its Last-Event-ID (retry: 2000)
          rc.log.warn({ err: error }, 'SSE replay failed: stream closed');
          handle.end();
        });
      },
    }),
  ];
}
