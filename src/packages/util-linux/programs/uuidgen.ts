// uuidgen [options]   Create a new UUID (util-linux 2.38): random (-r, the
// default, version 4), time-based (-t, version 1), or name-based from a
// namespace and a name (-m MD5 version 3, -s SHA-1 version 5; -x: the name
// is hex). Random bytes come from /dev/urandom.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError } from '../../../userland/lib/args.js';
import { DIGESTS } from '../../../common/digest.js';

const USAGE = `
Usage:
 uuidgen [options]

Create a new UUID value.

Options:
 -r, --random        generate random-based uuid
 -t, --time          generate time-based uuid
 -n, --namespace ns  generate hash-based uuid in this namespace
                       available namespaces: @dns @url @oid @x500
 -N, --name name     generate hash-based uuid from this name
 -m, --md5           generate md5 hash
 -s, --sha1          generate sha1 hash
 -x, --hex           interpret name as hex string

 -h, --help          display this help
 -V, --version       display version

For more details see uuidgen(1).
`;

const NAMESPACES: Record<string, string> = {
  '@dns': '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  '@url': '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  '@oid': '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  '@x500': '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

/** 100-ns intervals between the Gregorian reform (1582-10-15) and the Unix epoch. */
const GREGORIAN_OFFSET = 122192928000000000n;

function format(b: Uint8Array): string {
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function parseUuid(s: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s)) return null;
  return hexBytes(s.replace(/-/g, ''));
}

function hexBytes(h: string): Uint8Array {
  return Uint8Array.from({ length: h.length / 2 }, (_, i) => parseInt(h.slice(2 * i, 2 * i + 2), 16));
}

function random(os: AgentosApi, n: number): Uint8Array {
  const fd = os.sys.open('/dev/urandom');
  try {
    return os.sys.read(fd, n);
  } finally {
    os.sys.close(fd);
  }
}

function stamp(b: Uint8Array, version: number): Uint8Array {
  b[6] = (b[6] & 0x0f) | (version << 4);
  b[8] = (b[8] & 0x3f) | 0x80;
  return b;
}

function timeBased(os: AgentosApi): Uint8Array {
  const t = BigInt(Date.now()) * 10000n + GREGORIAN_OFFSET;
  const r = random(os, 8);
  const b = new Uint8Array(16);
  const low = Number(t & 0xffffffffn);
  const mid = Number((t >> 32n) & 0xffffn);
  const hi = Number((t >> 48n) & 0x0fffn);
  new DataView(b.buffer).setUint32(0, low);
  new DataView(b.buffer).setUint16(4, mid);
  new DataView(b.buffer).setUint16(6, hi);
  b.set(r.subarray(0, 2), 8);
  b.set(r.subarray(2, 8), 10);
  // No hardware address: a random node with the multicast bit set (RFC 4122 4.5).
  b[10] |= 0x01;
  return stamp(b, 1);
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const fail = (msg: string): number => {
    os.eprint(`uuidgen: ${msg}\nTry 'uuidgen --help' for more information.\n`);
    return 1;
  };
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), {
      short: 'rtn:N:msxhV',
      long: {
        random: ['r', 'none'], time: ['t', 'none'], namespace: ['n', 'required'], name: ['N', 'required'], md5: ['m', 'none'],
        sha1: ['s', 'none'], hex: ['x', 'none'], help: ['h', 'none'], version: ['V', 'none'],
      },
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return fail(e.message);
  }
  let mode = 'r';
  let ns: string | null = null;
  let name: string | null = null;
  let hex = false;
  for (const [k, v] of parsed.list) {
    if (k === 'h') {
      os.print(USAGE);
      return 0;
    }
    if (k === 'V') {
      os.print('uuidgen from agentOS util-linux 2.38.1\n');
      return 0;
    }
    if ('rtms'.includes(k)) mode = k;
    else if (k === 'n') ns = v!;
    else if (k === 'N') name = v!;
    else if (k === 'x') hex = true;
  }
  if (parsed.operands.length) return fail(`unexpected argument: ${parsed.operands[0]}`);
  if (name !== null && ns === null) return fail('--name requires --namespace argument');
  if (ns !== null && name === null) return fail('--namespace requires --name argument');
  if ((mode === 'm' || mode === 's') && (ns === null || name === null)) return fail('--md5 or --sha1 requires --namespace and --name arguments');
  if (ns !== null && mode !== 'm' && mode !== 's') return fail('--namespace requires --md5 or --sha1');
  let out: Uint8Array;
  if (mode === 'm' || mode === 's') {
    let nsBytes: Uint8Array | null;
    if (ns!.startsWith('@')) {
      const known = NAMESPACES[ns!];
      if (!known) return fail(`unknown namespace alias: '${ns}'`);
      nsBytes = parseUuid(known);
    } else nsBytes = parseUuid(ns!);
    if (!nsBytes) return fail(`invalid uuid for namespace: '${ns}'`);
    let nameBytes: Uint8Array;
    if (hex) {
      if (!/^([0-9a-fA-F]{2})*$/.test(name!)) return fail('failed to parse --name=hex string');
      nameBytes = hexBytes(name!);
    } else nameBytes = new TextEncoder().encode(name!);
    const data = new Uint8Array(16 + nameBytes.length);
    data.set(nsBytes);
    data.set(nameBytes, 16);
    const digest = hexBytes(DIGESTS[mode === 'm' ? 'md5' : 'sha1'].fn(data)).subarray(0, 16);
    out = stamp(Uint8Array.from(digest), mode === 'm' ? 3 : 5);
  } else if (mode === 't') out = timeBased(os);
  else out = stamp(Uint8Array.from(random(os, 16)), 4);
  os.print(`${format(out)}\n`);
  return 0;
}
