/**
 * One API on every node of a fleet: a request for a client that another node runs is forwarded to
 * that node (its advertised URL) with the same method, path, query, body and the headers that
 * matter, plus `x-wakit-forwarded-by: <this node>`; the owner's answer is streamed back as it is.
 * Route handlers ask for forwarding by resolving their client (`resolveClient` throws
 * `ForwardToOwner`), so token checks and validation have run before. A forwarded request is never
 * forwarded again; with no owner known the answer is 503 CLIENT_UNAVAILABLE with `Retry-After`.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Context, Next } from 'koa';
import { WakitError } from '../../../src/index.js';
import type { Logger } from 'pino';
import type { RestFleet } from '../fleet-view.js';

/** The header that marks a forwarded request (value: the forwarding node's id). */
export const FORWARDED_BY = 'x-wakit-forwarded-by';

/** Headers passed on to the owner. */
const PASSED = ['authorization', 'content-type', 'idempotency-key', 'prefer', 'accept'];

/** Response headers not copied back (hop by hop, or set by this node). */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
  'server',
  'content-length',
]);

/** Long enough for `Prefer: wait=60` answered by the owner. */
const FORWARD_TIMEOUT_MS = 75_000;

/** How long a caller should wait before retrying when no node runs the client (a heartbeat or two). */
const RETRY_AFTER_MS = 2_000;

/** Thrown by a handler whose client runs on another node; the forwarding middleware answers. */
export class ForwardToOwner extends Error {
  constructor(readonly client: string) {
    super(`client ${client} runs on another node`);
  }
}

/** What forwarding needs of the REST context. */
interface ForwardHost {
  readonly fleet: RestFleet;
  readonly log: Logger;
}

/** Throws `ForwardToOwner` when this node is part of a fleet and does not run `client`. */
export function requireLocal(rc: Pick<ForwardHost, 'fleet'>, client: string): void {
  if (!rc.fleet.runsHere(client)) throw new ForwardToOwner(client);
}

function unavailable(client: string, why: string): WakitError {
  return new WakitError('CLIENT_UNAVAILABLE', `Client ${client} is not reachable: ${why}`, {
    details: { client, retryAfterMs: RETRY_AFTER_MS },
  });
}

/** Koa middleware: answers `ForwardToOwner` by proxying the request to the client's owner. */
export function forwardToOwner(rc: ForwardHost) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof ForwardToOwner)) throw error;
      await forward(rc, ctx, error.client);
    }
  };
}

async function forward(rc: ForwardHost, ctx: Context, client: string): Promise<void> {
  const cluster = rc.fleet.view;
  if (!cluster) throw unavailable(client, 'no fleet');
  if (ctx.get(FORWARDED_BY)) {
    throw unavailable(client, 'a forwarded request reached a node that does not run it');
  }
  let owner;
  try {
    owner = await cluster.ownerOf(client);
  } catch {
    throw unavailable(client, 'the fleet cannot be asked who runs it');
  }
  if (!owner || !owner.url || owner.nodeId === cluster.nodeId) {
    throw unavailable(client, 'no node runs it now');
  }
  const target = new URL(ctx.originalUrl, `${owner.url}/`);
  const headers: Record<string, string> = { [FORWARDED_BY]: cluster.nodeId };
  for (const name of PASSED) {
    const value = ctx.get(name);
    if (value) headers[name] = value;
  }
  const request = ctx.request as { rawBody?: string; body?: unknown };
  const body =
    request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: ctx.method, headers, timeout: FORWARD_TIMEOUT_MS }, resolve);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  }).catch((error: unknown) => {
    rc.log.warn(
      { client, owner: owner.nodeId, err: error instanceof Error ? error.message : String(error) },
      'forwarding to the owner failed',
    );
    throw unavailable(client, `its node ${owner.nodeId} did not answer`);
  });
  ctx.status = response.statusCode ?? 502;
  copyHeaders(ctx, response.headers);
  ctx.set('x-wakit-node', owner.nodeId);
  ctx.body = response;
}

function copyHeaders(ctx: Context, headers: IncomingHttpHeaders): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED.has(name)) continue;
    ctx.set(name, value);
  }
}
