import { WakitError } from '../../src/index.js';
import type { RestOptions } from './options.js';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** The server refuses to start without a token, unless `insecure` on a loopback host. */
export function checkSecurity(options: RestOptions): void {
  if (options.tokens.length > 0) return;
  if (!options.insecure) {
    throw new WakitError(
      'CONFIG_INVALID',
      'plugins.rest.tokens is empty: add a token (e.g. "${WAKIT_REST_TOKEN}") or set insecure: true on a loopback host',
      { issues: [{ path: 'plugins.rest.tokens', message: 'at least one token is required' }] },
    );
  }
  if (!isLoopbackHost(options.host)) {
    throw new WakitError(
      'CONFIG_INVALID',
      `insecure: true is only allowed on a loopback host, not ${options.host}`,
      {
        issues: [{ path: 'plugins.rest.host', message: 'must be loopback when insecure' }],
      },
    );
  }
}
