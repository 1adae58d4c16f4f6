// The `dns` module for the VM's network as it is: sockets reach only the VM's
// loopback, so lookup answers IP literals and `localhost` (127.0.0.1, ::1) and
// every other name is ENOTFOUND, in getaddrinfo's words. HTTP to the outside
// goes through fetch and the kernel's http syscall, which resolve on the host.

import { nodeError } from './errors.js';

type Family = 0 | 4 | 6;
interface Address { address: string; family: 4 | 6 }
interface LookupOpts { family?: number | string; all?: boolean; hints?: number; verbatim?: boolean; order?: string }
type LookupCb = (err: Error | null, address?: string | Address[], family?: number) => void;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIPv6 = (s: string) => s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && (s.match(/::/g) ?? []).length <= 1;

function resolve(host: string, o: LookupOpts): Address[] {
  const fam = (o.family === 'IPv4' ? 4 : o.family === 'IPv6' ? 6 : Number(o.family ?? 0)) as Family;
  let all: Address[];
  if (IPV4.test(host)) all = [{ address: host, family: 4 }];
  else if (isIPv6(host)) all = [{ address: host, family: 6 }];
  else if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) all = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
  else all = [];
  all = all.filter((a) => fam === 0 || a.family === fam);
  if (!all.length) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host });
  }
  return all;
}

export function makeDns(nextTick: (cb: (...a: unknown[]) => void, args: unknown[]) => void): Record<string, unknown> {
  const lookup = (host: string, o: LookupOpts | number | LookupCb, cb?: LookupCb) => {
    if (typeof o === 'function') [cb, o] = [o, {}];
    const opts: LookupOpts = typeof o === 'number' ? { family: o } : (o ?? {});
    if (typeof cb !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function');
    const done = cb;
    let r: Address[];
    try {
      r = resolve(String(host), opts);
    } catch (e) {
      return nextTick(done as (...a: unknown[]) => void, [e]);
    }
    nextTick(done as (...a: unknown[]) => void, opts.all ? [null, r] : [null, r[0].address, r[0].family]);
  };
  const promises = {
    lookup: async (host: string, o: LookupOpts | number = {}) => {
      const opts: LookupOpts = typeof o === 'number' ? { family: o } : o;
      const r = resolve(String(host), opts);
      return opts.all ? r : r[0];
    },
  };
  return {
    lookup, promises, ADDRCONFIG: 1024, V4MAPPED: 2048, ALL: 256,
    NOTFOUND: 'ENOTFOUND', getDefaultResultOrder: () => 'verbatim', setDefaultResultOrder: () => undefined, setServers: () => undefined, getServers: () => [],
  };
}
