import { createHash, timingSafeEqual } from 'node:crypto';
import { WakitError } from '../../../src/index.js';

/** Who a request is: the clients its token may see (`'*'` for all). */
export interface Principal {
  /** Index of the matching token in the config (for logs; never the token itself). */
  tokenIndex: number;
  clients: '*' | ReadonlySet<string>;
}

const ANONYMOUS: Principal = { tokenIndex: -1, clients: '*' };

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Authorization header values already proven valid, at most (see `TokenAuth`). */
const KNOWN_HEADERS_MAX = 32;

/**
 * Bearer token check. Tokens are kept as SHA-256 digests and compared with `timingSafeEqual`
 * against every configured token (no early exit), so the time taken does not depend on how much of
 * a guess is right, nor on which token matched.
 *
 * A header value that passed that check is remembered (at most KNOWN_HEADERS_MAX of them, never a
 * rejected one), so the next request with it skips the digest (SHA-256 per request was ~3 % of
 * the server's CPU under load). The look-up is a hash-map probe: a guess that is not a remembered
 * value misses (V8's string hash is seeded per process, so a miss says nothing about how close the
 * guess was) and takes the constant-time path above, as before; only a caller who already holds a
 * valid token sees the faster answer. Tokens are fixed for the server's life, so nothing remembered
 * goes stale; when the map is full, further values are simply checked the slow way.
 */
export class TokenAuth {
  readonly #tokens: { digest: Buffer; clients: '*' | ReadonlySet<string> }[];
  readonly #insecure: boolean;
  readonly #known = new Map<string, Principal>();

  constructor(tokens: readonly { token: string; clients: readonly string[] }[], insecure: boolean) {
    this.#tokens = tokens.map(({ token, clients }) => ({
      digest: sha256(token),
      clients: clients.includes('*') ? '*' : new Set(clients),
    }));
    this.#insecure = insecure && tokens.length === 0;
  }

  /** True when requests need no token (insecure mode without tokens). */
  get open(): boolean {
    return this.#insecure;
  }

  /** The principal of an `Authorization` header value; UNAUTHORIZED when missing or wrong. */
  authenticate(header: string | undefined): Principal {
    if (this.#insecure) return ANONYMOUS;
    if (header === undefined || header === '') {
      throw new WakitError('UNAUTHORIZED', 'An Authorization: Bearer <token> header is required');
    }
    const known = this.#known.get(header);
    if (known) return known;
    const match = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(header.trim());
    if (!match?.[1]) {
      throw new WakitError('UNAUTHORIZED', 'The Authorization header must be "Bearer <token>"');
    }
    const presented = sha256(match[1]);
    let found = -1;
    for (let i = 0; i < this.#tokens.length; i++) {
      const equal = timingSafeEqual(presented, this.#tokens[i].digest);
      if (equal && found === -1) found = i;
    }
    if (found === -1) throw new WakitError('UNAUTHORIZED', 'The token is not valid');
    const principal: Principal = Object.freeze({
      tokenIndex: found,
      clients: this.#tokens[found].clients,
    });
    if (this.#known.size < KNOWN_HEADERS_MAX) this.#known.set(header, principal);
    return principal;
  }
}

export function canSee(principal: Principal, client: string): boolean {
  return principal.clients === '*' || principal.clients.has(client);
}

/** FORBIDDEN unless the principal may act on `client`. */
export function requireClientAccess(principal: Principal, client: string): void {
  if (!canSee(principal, client)) {
    throw new WakitError('FORBIDDEN', `This token may not access client ${client}`, {
      details: { client },
    });
  }
}
