import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a server-side fetch may reach: only public unicast ones. The special-purpose
 * ranges come from ipaddr.js (the IANA IPv4 and IPv6 special-purpose registries: loopback,
 * private, link-local where cloud metadata lives, carrier-grade NAT, documentation, benchmarking,
 * multicast, reserved...). Addresses that embed an IPv4 address (IPv4-mapped and -translated,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address inside, so `2002:7f00:1::`
 * (6to4 of 127.0.0.1) is refused while NAT64 of a public address (DNS64 on IPv6-only networks)
 * still works. Deprecated forms that nothing routes publicly (IPv4-compatible `::a.b.c.d`,
 * site-local `fec0::/10`) are refused outright.
 */

/** IPv6 ranges ipaddr.js names whose last 32 bits are an IPv4 address. */
const EMBEDS_IPV4_TAIL = new Set(['ipv4Mapped', 'rfc6145']);
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
/** IPv4-compatible addresses (RFC 4291 §2.5.5.1, deprecated): `::a.b.c.d`, `::` and `::1` included. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function publicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

function tail32(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12, 16));
}

function publicIPv6(address: ipaddr.IPv6): boolean {
  if (address.match(IPV4_COMPATIBLE)) return false;
  const range = address.range();
  if (EMBEDS_IPV4_TAIL.has(range) || address.match(NAT64)) return publicIPv4(tail32(address));
  if (address.match(SIX_TO_FOUR)) {
    // 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD
    const bytes = address.toByteArray();
    return publicIPv4(new ipaddr.IPv4(bytes.slice(2, 6)));
  }
  return range === 'unicast';
}

/**
 * `::a.b.c.d` → `::xxxx:xxxx`: ipaddr.js reads any IPv6 address with a dotted tail as
 * IPv4-mapped (`::8.8.8.8` becomes `::ffff:8.8.8.8`); spell the tail in hex as Node does.
 */
function hexTail(address: string): string {
  const match = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(address);
  if (!match) return address;
  const [a, b, c, d] = match.slice(2, 6).map(Number) as [number, number, number, number];
  const hex = (hi: number, lo: number): string => ((hi << 8) | lo).toString(16);
  return `${match[1]}${hex(a, b)}:${hex(c, d)}${match[6] ?? ''}`;
}

/**
 * True when the address is not a public unicast address (loopback, private, link-local, any other
 * special-purpose range, or an IPv6 form of one of them). Anything that is not a plain IP address
 * is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(family === 6 ? hexTail(address) : address);
  } catch {
    // not reported: an address that does not parse is treated as private (refused)
    return true;
  }
  if (family === 4 && parsed.kind() === 'ipv4') return !publicIPv4(parsed as ipaddr.IPv4);
  if (family === 6 && parsed.kind() === 'ipv6') return !publicIPv6(parsed as ipaddr.IPv6);
  return true;
}
