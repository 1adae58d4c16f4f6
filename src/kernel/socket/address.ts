// Internet addresses on the VM's one interface, the loopback: reading a
// guest's address, and which bound sockets an address reaches.
//
// An IP is kept as text in one form: IPv4 as a dotted quad, IPv6 compressed,
// and an IPv4-mapped IPv6 address (::ffff:127.0.0.1) as its IPv4 address, since
// a dual-stack socket reaches the IPv4 socket there. Only 127.0.0.0/8, ::1 and
// the wildcards exist in the VM: binding another address is EADDRNOTAVAIL and
// reaching one is ENETUNREACH (outgoing sockets to the host's network are not
// part of the VM; the network policy governs only the `http` syscall).

import { Errno, SysError } from '../../abi/errno.js';
import { AF_INET, AF_INET6, type SockAddr } from '../../abi/socket.js';
import { parseIPv4, parseIPv6 } from '../net/address.js';

export const ANY4 = '0.0.0.0';
export const ANY6 = '::';

export const isV4 = (ip: string): boolean => !ip.includes(':');

/** The canonical text of an address of `family`, or null when it is not one. 'localhost' is the loopback. */
function canonical(family: number, s: string): string | null {
  if (/^localhost\.?$/i.test(s)) return family === AF_INET ? '127.0.0.1' : '::1';
  // Strict dotted quads only, as inet_pton reads them.
  if (family === AF_INET) return /^\d{1,3}(\.\d{1,3}){3}$/.test(s) ? (parseIPv4(s)?.join('.') ?? null) : null;
  const b = parseIPv6(s);
  if (!b) return null;
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  // RFC 5952: the longest run of zero words (two or more) becomes '::'.
  let best = -1, bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  return best < 0 ? hex(words) : `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

const isLoopback = (ip: string) => (isV4(ip) ? ip.startsWith('127.') : ip === '::1');
const isAny = (ip: string) => ip === ANY4 || ip === ANY6;

/** An internet address from a guest, checked for `family`; EINVAL when it is not an address. */
export function inetAddress(family: number, a: SockAddr): { ip: string; port: number } {
  if (a.family !== family) throw new SysError(Errno.EAFNOSUPPORT, 'address family does not match the socket');
  if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535) throw new SysError(Errno.EINVAL, `port ${a.port}`);
  const ip = canonical(family, a.address);
  if (ip === null) throw new SysError(Errno.EINVAL, `not an ${family === AF_INET ? 'IPv4' : 'IPv6'} address: ${a.address}`);
  return { ip, port: a.port };
}

/** An address a socket may bind: the loopback or a wildcard, else EADDRNOTAVAIL. */
export function bindable(ip: string): string {
  if (!isLoopback(ip) && !isAny(ip)) throw new SysError(Errno.EADDRNOTAVAIL, `${ip} is not an address of the VM (only its loopback: 127.0.0.0/8, ::1)`);
  return ip;
}

/** An address a socket may reach: the loopback (a wildcard means it, as on Linux), else ENETUNREACH. */
export function reachable(ip: string): string {
  if (ip === ANY4) return '127.0.0.1';
  if (ip === ANY6) return '::1';
  if (!isLoopback(ip)) {
    throw new SysError(Errno.ENETUNREACH, `${ip} is outside the VM: sockets reach only the VM's loopback (127.0.0.0/8, ::1); outside traffic goes through the http syscall and the network policy`);
  }
  return ip;
}

/** The addresses a bound socket receives on: per IP version, none, all ('*') or one. */
export interface Scope {
  v4: string | null;
  v6: string | null;
}

export function scopeOf(family: number, ip: string, v6only: boolean): Scope {
  if (family === AF_INET) return { v4: ip === ANY4 ? '*' : ip, v6: null };
  if (ip === ANY6) return { v4: v6only ? null : '*', v6: '*' };
  return isV4(ip) ? { v4: ip, v6: null } : { v4: null, v6: ip };
}

const meet = (a: string | null, b: string | null) => a !== null && b !== null && (a === '*' || b === '*' || a === b);

/** Whether two bound sockets on one port would share an address. */
export const overlaps = (a: Scope, b: Scope): boolean => meet(a.v4, b.v4) || meet(a.v6, b.v6);

/** Whether a socket bound with scope `s` receives traffic sent to `ip`. */
export const receives = (s: Scope, ip: string): boolean => (isV4(ip) ? meet(s.v4, ip) : meet(s.v6, ip));

/** The address as the guest gets it back: an IPv4 peer of an IPv6 socket is ::ffff:a.b.c.d. */
export function sockAddr(family: number, ip: string, port: number): SockAddr {
  return { family, address: family === AF_INET6 && isV4(ip) ? `::ffff:${ip}` : ip, port };
}

