import ipaddr from 'ipaddr.js';
import { WakitError } from '../../../src/index.js';
import type { RestOptions } from '../options.js';

/**
 * Whether `host` is a loopback interface: `localhost`, 127.0.0.0/8, `::1` (also written `[::1]`
 * or in full) and IPv4-mapped loopback. Uses the same address library as the SSRF guard.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = /^\[.*\]$/.test(host) ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (!/^[0-9a-f:.]+$/i.test(bare) || !ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
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
