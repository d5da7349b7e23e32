import { bodyParser } from '@koa/bodyparser';
import bourne from '@hapi/bourne';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { WakitError } from '../../../src/index.js';
import { toProblem } from './problem.js';

/** `application/json` as clients send it; anything else goes through Koa's full check. */
function isPlainJson(type: string): boolean {
  return type === 'application/json' || type.toLowerCase() === 'application/json; charset=utf-8';
}

function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || (ctx.request.length ?? 0) > 0;
}

/** co-body's strict JSON: an object or an array, after RFC 7159 whitespace. */
const STRICT_JSON = /^[ \t\n\r]*[[{]/;

/**
 * An uncompressed body, read the way @koa/bodyparser reads it (co-body's JSON parser: raw-body with
 * the same length, limit and UTF-8 decoding, then strict JSON through bourne, which refuses
 * `__proto__` keys) without its layers: the content-type check again, option cloning, the
 * `inflation` pass-through. Those layers were ~3 % of a REST send. Errors are the same objects.
 */
async function readPlain(ctx: Context, limit: number): Promise<unknown> {
  const length = ctx.request.length;
  const text = await getRawBody(ctx.req, {
    limit,
    encoding: 'utf8',
    ...(length ? { length } : {}),
  });
  const request = ctx.request as { rawBody?: string; body?: unknown };
  request.rawBody = text; // what a fleet node forwards as it came
  try {
    if (!text) return (request.body = {});
    if (!STRICT_JSON.test(text)) {
      throw new SyntaxError('invalid JSON, only supports object and array');
    }
    return (request.body = bourne.parse(text, { protoAction: 'error' }) as unknown);
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, body: text });
  }
}

/**
 * Reads a JSON request body (routes call it when they take one): `application/json` only
 * (UNSUPPORTED_MEDIA_TYPE otherwise), at most `limit` bytes, strict JSON; a body that cannot be
 * read is the caller's fault (VALIDATION_FAILED), never a 5xx. Uncompressed bodies are read
 * directly; a `Content-Encoding` (gzip, deflate) goes through @koa/bodyparser.
 */
export function jsonBodyReader(limit: number): (ctx: Context) => Promise<unknown> {
  const parser = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    jsonStrict: true,
    encoding: 'utf-8',
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  });
  return async (ctx) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || !hasBody(ctx)) return undefined;
    if (!isPlainJson(ctx.get('content-type')) && !ctx.is('application/json')) {
      throw new WakitError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be application/json');
    }
    const encoding = ctx.get('content-encoding');
    try {
      if (encoding === '' || encoding === 'identity') return await readPlain(ctx, limit);
      await parser(ctx, () => Promise.resolve());
    } catch (error) {
      if (toProblem(error).status < 500) throw error;
      throw new WakitError('VALIDATION_FAILED', 'The request body could not be read');
    }
    return ctx.request.body;
  };
}
