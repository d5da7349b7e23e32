/**
 * Request bodies are read as UTF-8 (JSON is UTF-8, RFC 8259): a body declared with another
 * `charset` would be misread, so it is refused (415) instead.
 */
import type { Context, Next } from 'koa';
import { WakitError } from '../../../src/index.js';

const UTF8 = new Set(['utf-8', 'utf8']);

export function requireUtf8(ctx: Context, next: Next): Promise<void> {
  const type = ctx.get('content-type');
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type);
  const charset = match?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8.has(charset)) {
    throw new WakitError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Request bodies must be UTF-8 JSON, not charset ${charset.slice(0, 40)}`,
    );
  }
  return next();
}
