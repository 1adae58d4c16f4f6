// openssl dgst [-md5|-sha1|-sha256|-sha512] [-hmac KEY] [-r] [-c] [-binary] [-out FILE] [FILE...]
// and the shorthands openssl md5/sha1/sha256/sha512: "SHA2-256(file)= hex"
// (plain `dgst` says "SHA256(…)"), coreutils style with -r.

import type { Algo } from '../../../common/digest.js';
import { digest, hmac, toHex } from './kdf.js';
import { parseOpts, type Tool } from './tool.js';

const NAMES: Record<Algo, string> = { md5: 'MD5', sha1: 'SHA1', sha256: 'SHA2-256', sha512: 'SHA2-512' };
const ALGOS = new Set<string>(['md5', 'sha1', 'sha256', 'sha512']);

export function dgst(t: Tool, args: string[], fixed: Algo | null): number {
  const p = parseOpts(t, args, new Set(['hmac', 'out', 'sign', 'verify', 'signature', 'passin', 'keyform', 'mac', 'macopt']),
    new Set(['r', 'c', 'hex', 'binary', 'd', 'debug', 'list', ...ALGOS, 'sha224', 'sha384', 'sha3-256', 'blake2b512']));
  if (!p) return 1;
  let algo: Algo = fixed ?? 'sha256';
  let label = fixed ? NAMES[fixed] : 'SHA256';
  for (const k of p.opts.keys()) {
    if (ALGOS.has(k)) {
      algo = k as Algo;
      label = NAMES[algo];
    } else if (['sha224', 'sha384', 'sha3-256', 'blake2b512'].includes(k)) return t.usage(`Unknown option or message digest: ${k}`);
    else if (['sign', 'verify', 'signature', 'passin', 'keyform', 'mac', 'macopt'].includes(k)) {
      t.err(`dgst: -${k} is not supported by agentOS openssl\n`);
      return 1;
    }
  }
  const key = p.opts.get('hmac')?.at(-1);
  if (key !== undefined) label = `HMAC-${label}`;
  if (!t.openOut(p.opts.get('out')?.at(-1) ?? null)) return 1;
  const files = p.files.length ? p.files : [null];
  let status = 0;
  for (const f of files) {
    const data = t.readInput(f);
    if (data === null) {
      status = 1;
      continue;
    }
    const sum = key !== undefined ? hmac(algo, new TextEncoder().encode(key), data) : digest(algo, data);
    if (p.opts.has('binary')) {
      t.out.write(sum);
      continue;
    }
    const hex = p.opts.has('c') ? Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join(':') : toHex(sum);
    // OpenSSL 3.0 names the HMAC only for files: stdin's line says just the digest.
    const name = f ?? 'stdin';
    const shown = f === null && key !== undefined ? label.replace(/^HMAC-/, '') : label;
    t.out.write(p.opts.has('r') ? `${hex} *${f ?? 'stdin'}\n` : `${shown}(${name})= ${hex}\n`);
  }
  return status;
}
