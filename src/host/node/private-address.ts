// Addresses a guest must not reach by a public-looking name (DNS rebinding):
// loopback, private ranges, link-local, CGNAT, unspecified, multicast, and
// their IPv4-mapped IPv6 forms.

import { isIP } from 'node:net';

function v4Private(a: string): boolean {
  const [x, y] = a.split('.').map(Number);
  return (
    x === 0 || x === 10 || x === 127 || x >= 224 ||
    (x === 100 && y >= 64 && y < 128) ||
    (x === 169 && y === 254) ||
    (x === 172 && y >= 16 && y < 32) ||
    (x === 192 && y === 168)
  );
}

export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return v4Private(address);
  if (kind !== 6) return true;
  const a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return v4Private(mapped[1]);
  return a === '::' || a === '::1' || /^f[cd]/.test(a) || /^fe[89ab]/.test(a) || a.startsWith('ff');
}
