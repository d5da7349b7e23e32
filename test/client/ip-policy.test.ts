import { expect } from 'chai';
import { isPrivateAddress } from '../../src/client/media/ip-policy.js';

/**
 * Every special-purpose range of the IANA IPv4 and IPv6 special-purpose address registries (plus
 * multicast, the deprecated site-local and IPv4-compatible ranges), each probed at its first
 * address, one inside and its last address, and the translation ranges (IPv4-mapped, NAT64, 6to4)
 * with a private IPv4 address inside.
 */
const REFUSED: Record<string, string[]> = {
  'this network 0.0.0.0/8': ['0.0.0.0', '0.1.2.3', '0.255.255.255'],
  'private 10/8': ['10.0.0.0', '10.1.2.3', '10.255.255.255'],
  'shared CGN 100.64/10': ['100.64.0.0', '100.100.1.1', '100.127.255.255'],
  'loopback 127/8': ['127.0.0.1', '127.1.2.3', '127.255.255.255'],
  'link-local 169.254/16 (cloud metadata)': ['169.254.0.0', '169.254.169.254', '169.254.255.255'],
  'private 172.16/12': ['172.16.0.0', '172.20.1.1', '172.31.255.255'],
  'IETF protocol assignments 192.0.0/24': ['192.0.0.0', '192.0.0.8', '192.0.0.170', '192.0.0.255'],
  'TEST-NET-1 192.0.2/24': ['192.0.2.0', '192.0.2.1', '192.0.2.255'],
  'AS112 192.31.196/24': ['192.31.196.1'],
  'AMT 192.52.193/24': ['192.52.193.1'],
  '6to4 relay anycast 192.88.99/24': ['192.88.99.1'],
  'private 192.168/16': ['192.168.0.0', '192.168.1.1', '192.168.255.255'],
  'AS112 192.175.48/24': ['192.175.48.1'],
  'benchmarking 198.18/15': ['198.18.0.0', '198.19.255.255'],
  'TEST-NET-2 198.51.100/24': ['198.51.100.7'],
  'TEST-NET-3 203.0.113/24': ['203.0.113.9'],
  'multicast 224/4': ['224.0.0.1', '239.255.255.255'],
  'reserved 240/4': ['240.0.0.1', '255.255.255.254'],
  'limited broadcast': ['255.255.255.255'],
  'IPv6 unspecified and loopback': ['::', '::1', '0:0:0:0:0:0:0:1'],
  'IPv4-compatible ::/96 (deprecated)': ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::8.8.8.8'],
  'IPv4-mapped ::ffff:0:0/96 of private': [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0.0.0.0',
  ],
  'IPv4-translated ::ffff:0:0:0/96 of private': ['::ffff:0:7f00:1', '::ffff:0:a00:1'],
  'NAT64 64:ff9b::/96 of private': ['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe'],
  'local-use NAT64 64:ff9b:1::/48': ['64:ff9b:1::1', '64:ff9b:1:ffff::808:808'],
  'discard 100::/64': ['100::', '100::1'],
  'IETF protocol assignments 2001::/23': ['2001:1::1', '2001:1ff::1'],
  'Teredo 2001::/32': ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'benchmarking 2001:2::/48': ['2001:2::1'],
  'AMT 2001:3::/32': ['2001:3::1'],
  'AS112 2001:4:112::/48 and 2620:4f:8000::/48': ['2001:4:112::1', '2620:4f:8000::1'],
  'ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28, DRIP 2001:30::/28': [
    '2001:10::1',
    '2001:20::1',
    '2001:30::1',
  ],
  'documentation 2001:db8::/32 and 3fff::/20': ['2001:db8::1', '3fff::1', '3fff:fff::1'],
  '6to4 2002::/16 of private': [
    '2002:7f00:1::',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2002:c0a8:101::1',
  ],
  'segment routing 5f00::/16': ['5f00::1'],
  'unique local fc00::/7': ['fc00::1', 'fd00::1', 'fdff:ffff::1'],
  'deprecated site-local fec0::/10': ['fec0::1', 'feff::1'],
  'link-local fe80::/10': ['fe80::1', 'fe80::1%lo', 'febf::1'],
  'multicast ff00::/8': ['ff02::1', 'ff05::2'],
  'not an address': ['not-an-ip', '', '0x7f.1', '2130706433', '127.1', '1.2.3', '[::1]'],
};

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.167.255.255',
  '198.17.255.255',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '::ffff:8.8.8.8',
  // NAT64 (DNS64 on IPv6-only networks) and 6to4 of public IPv4 addresses stay reachable
  '64:ff9b::808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

describe('ip-policy: every special-purpose range is refused', () => {
  for (const [range, addresses] of Object.entries(REFUSED)) {
    it(`refuses ${range}`, () => {
      for (const address of addresses) expect(isPrivateAddress(address), address).to.equal(true);
    });
  }

  it('allows public unicast addresses, also through IPv4-mapped, NAT64 and 6to4 forms', () => {
    for (const address of ALLOWED) expect(isPrivateAddress(address), address).to.equal(false);
  });
});
