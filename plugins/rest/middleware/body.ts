import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { WakitError } from '../../../src/index.js';
import { toProblem } from '../problem.js';

/** `application/json` as clients send it; anything else goes through Koa's full check. */
function isPlainJson(type: string): boolean {
  return type === 'application/json' || type.toLowerCase() === 'application/json; charset=utf-8';
}

function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || (ctx.request.length ?? 0) > 0;
}

/**
 * Reads a JSON request body (routes call it when they take one): `application/json` only
 * (UNSUPPORTED_MEDIA_TYPE otherwise), at most `limit` bytes, strict JSON; a body that cannot be
 * read is the caller's fault (VALIDATION_FAILED), never a 5xx.
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
    try {
      await parser(ctx, () => Promise.resolve());
    } catch (error) {
      if (toProblem(error).status < 500) throw error;
      throw new WakitError('VALIDATION_FAILED', 'The request body could not be read');
    }
    return ctx.request.body;
  };
}
