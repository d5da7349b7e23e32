import ipaddr from 'ipaddr.js';

/**
 * Whether `host` is a loopback interface: `localhost`, 127.0.0.0/8, `::1` (also written `[::1]`
 * or in full) and IPv4-mapped loopback. Uses the same address library as the SSRF guard.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = /^\[.*\]$/.test(host) ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(bare) || !/^[0-9a-f:.]+$/i.test(bare)) return false;
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}
