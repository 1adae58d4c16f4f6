// The address classifier (kernel/net/address.ts): its parsers agree with the
// WHATWG URL parser on every spelling, and every range is classified.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalHost, classifyAddress, classifyHost, parseIPv4, parseIPv6 } from '../../../src/kernel/net/address.js';

/** What the URL parser makes of a host: its hostname, or null when it refuses the URL. */
function urlHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

test('address: IPv4 in every spelling, as the URL parser reads it', () => {
  const table = [
    '127.0.0.1', '127.1', '127.0.1', '2130706433', '0x7f000001', '0x7F.0.0.1', '0x7f.1', '0177.0.0.1', '0177.1',
    '017700000001', '127.000.000.001', '127.0.0.1.', '0', '0x0', '0x', '00', '0.0.0.0', '4294967295', '0xffffffff',
    '1.2.65535', '1.16777215', '10.0.0.010', '0xa9.0xfe.0xa9.0xfe', '2852039166', '012.1',
    // refused by the URL parser, and not an address here
    '4294967296', '256.0.0.1', '1.2.3.256', '1.2.65536', '1.2.3.4.5', '08.1', '0x7g.1', '1..1', '.1.2.3', '1.2.3.4..',
    // names
    'example.com', '1e100.net', 'deadbeef', '127.0.0.1.nip.io', '0x7f.example',
  ];
  for (const s of table) {
    const url = urlHost(s);
    const mine = parseIPv4(s);
    const urlV4 = url !== null && /^\d+\.\d+\.\d+\.\d+$/.test(url) ? url : null;
    assert.equal(mine ? mine.join('.') : null, urlV4, `${s}: URL parser says ${url}`);
  }
});

test('address: IPv6 in every spelling, as the URL parser reads it', () => {
  const table = [
    '::1', '0:0:0:0:0:0:0:1', '0000::0001', '::', '::ffff:127.0.0.1', '::FFFF:7F00:1', '0:0:0:0:0:ffff:127.0.0.1',
    '::127.0.0.1', '64:ff9b::10.0.0.1', '2002:7f00:1::', 'fe80::1', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:1.2.3.4',
    // refused by both
    '1:2:3:4:5:6:7:8:9', '1::2::3', ':1', '1:', '::ffff:127.0.0.01', '::ffff:1.2.3', '::ffff:256.0.0.1', '1.2.3.4::',
    '12345::', '1:2:3:4:5:6:7::8', 'g::1',
  ];
  for (const s of table) {
    const url = urlHost(`[${s}]`);
    const mine = parseIPv6(s);
    assert.equal(mine !== null, url !== null, `${s}: URL parser says ${url}`);
    if (url && mine) assert.deepEqual(parseIPv6(url), mine, `${s} is ${url}`);
  }
  assert.deepEqual(parseIPv6('[fe80::1%eth0]'), parseIPv6('fe80::1'), 'brackets and a zone are accepted');
});

test('address: every range classified', () => {
  const table: [string, string | null, string?][] = [
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['2130706433', 'loopback', '127.0.0.1'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['0', 'unspecified', '0.0.0.0'],
    ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'], ['100.64.0.1', 'shared'], ['100.127.255.255', 'shared'],
    ['224.0.0.1', 'multicast'], ['239.255.255.255', 'multicast'], ['240.0.0.1', 'reserved'], ['255.255.255.255', 'reserved'],
    ['192.0.0.170', 'reserved'], ['192.0.2.1', 'reserved'], ['198.18.0.1', 'reserved'], ['198.19.255.255', 'reserved'],
    ['198.51.100.1', 'reserved'], ['203.0.113.1', 'reserved'],
    ['8.8.8.8', 'public'], ['1.1.1.1', 'public'], ['11.0.0.1', 'public'], ['126.255.255.255', 'public'], ['128.0.0.1', 'public'],
    ['172.15.255.255', 'public'], ['172.32.0.1', 'public'], ['192.167.0.1', 'public'], ['192.169.0.1', 'public'],
    ['169.253.0.1', 'public'], ['100.63.255.255', 'public'], ['100.128.0.1', 'public'], ['223.255.255.255', 'public'],
    ['198.17.0.1', 'public'], ['198.20.0.1', 'public'], ['192.0.1.1', 'public'],
    ['::1', 'loopback'], ['[::1]', 'loopback', '::1'], ['::', 'unspecified'], ['::2', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'], ['::ffff:7f00:1', 'loopback', '127.0.0.1'], ['::ffff:a9fe:a9fe', 'link-local', '169.254.169.254'],
    ['::ffff:0.0.0.0', 'unspecified', '0.0.0.0'], ['::ffff:8.8.8.8', 'public', '8.8.8.8'],
    ['::127.0.0.1', 'loopback', '127.0.0.1'], ['::8.8.8.8', 'reserved'], ['::ffff:0:7f00:1', 'reserved'],
    ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.1'], ['64:ff9b::c0a8:1', 'private', '192.168.0.1'], ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'loopback', '127.0.0.1'], ['2002:a9fe:a9fe::1', 'link-local', '169.254.169.254'], ['2002:808:808::1', 'public'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '127.0.0.1'], ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
    ['2001:db8::1', 'reserved'], ['100::1', 'reserved'],
    ['fc00::1', 'private'], ['fd00:ec2::254', 'private'], ['fbff::1', 'public'], ['fe00::1', 'public'],
    ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf::1', 'link-local'], ['fec0::1', 'private'],
    ['ff02::1', 'multicast'], ['2606:4700:4700::1111', 'public'], ['2a00:1450:4001::200e', 'public'],
    ['localhost', null], ['example.com', null], ['', null], ['1.2.3.4.5', null], ['[::1', null],
  ];
  for (const [s, kind, address] of table) {
    const c = classifyAddress(s);
    assert.equal(c?.kind ?? null, kind, s);
    if (c && address) assert.equal(c.address, address, s);
  }
});

test('address: hosts by themselves, and the canonical form entries and requests are compared in', () => {
  for (const h of ['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost.']) assert.deepEqual(classifyHost(h), { kind: 'loopback', address: h });
  for (const h of ['localhost.example', 'notlocalhost', 'example.com', 'localhost..']) assert.equal(classifyHost(h), null, h);
  assert.equal(classifyHost('[::ffff:7f00:1]')?.kind, 'loopback');
  assert.equal(classifyHost('8.8.8.8')?.kind, 'public');
  const canon: [string, string][] = [
    ['[::ffff:7f00:1]', '127.0.0.1'], ['[::ffff:808:808]', '8.8.8.8'], ['[::1]', '[::1]'], ['[64:ff9b::7f00:1]', '[64:ff9b::7f00:1]'],
    ['Example.COM', 'example.com'], ['example.com.', 'example.com'], ['localhost.', 'localhost'], ['127.0.0.1', '127.0.0.1'],
  ];
  for (const [h, c] of canon) assert.equal(canonicalHost(h), c, h);
});
