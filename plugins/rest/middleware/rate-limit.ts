/**
 * Per-token rate limiting: one token bucket per bearer token (refilled at `requestsPerSecond`, at
 * most `burst` requests at once). Requests without a valid token are not counted here (they get
 * their 401 from the route); in insecure mode all requests share one bucket.
 */
import type { Context, Next } from 'koa';
import { WakitError } from '../../../src/index.js';
import type { Principal } from './auth.js';

export interface RateLimitOptions {
  requestsPerSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimitMiddleware(
  options: RateLimitOptions,
  identify: (ctx: Context) => Principal | undefined,
  now: () => number = () => performance.now(),
): (ctx: Context, next: Next) => Promise<void> {
  const buckets = new Map<number, Bucket>();
  const perMs = options.requestsPerSecond / 1000;
  return async (ctx, next) => {
    const principal = identify(ctx);
    if (!principal) {
      await next();
      return;
    }
    const t = now();
    const bucket = buckets.get(principal.tokenIndex) ?? { tokens: options.burst, at: t };
    bucket.tokens = Math.min(options.burst, bucket.tokens + (t - bucket.at) * perMs);
    bucket.at = t;
    buckets.set(principal.tokenIndex, bucket);
    if (bucket.tokens < 1) {
      const waitSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
      ctx.set('Retry-After', String(waitSeconds));
      throw new WakitError(
        'TOO_MANY_REQUESTS',
        `Too many requests for this token: at most ${options.requestsPerSecond} per second (bursts of ${options.burst}); retry in ${waitSeconds} s`,
        { details: { retryAfterSeconds: waitSeconds } },
      );
    }
    bucket.tokens -= 1;
    await next();
  };
}
