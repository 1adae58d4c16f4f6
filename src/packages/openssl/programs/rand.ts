// openssl rand [-hex|-base64] [-out FILE] NUM: NUM random bytes (from /dev/urandom).

import { base64Lines } from './enc.js';
import { toHex } from './kdf.js';
import { parseOpts, type Tool } from './tool.js';

export function rand(t: Tool, args: string[]): number {
  const p = parseOpts(t, args, new Set(['out', 'rand', 'writerand', 'engine', 'provider']), new Set(['hex', 'base64']));
  if (!p) return 1;
  // No count: OpenSSL 3.0 writes nothing and succeeds.
  if (p.files.length === 0) return 0;
  if (p.files.length > 1) return t.usage(`Extra option: "${p.files[1]}"`);
  const n = p.files[0];
  const m = /^(\d+)([KMGT]?)$/.exec(n);
  if (!m) return t.usage(`Can't parse "${n}" as a number`);
  if (Number(m[1]) === 0) {
    t.err(`${t.cmd}: Use -help for summary.\n`);
    return 1;
  }
  const count = Number(m[1]) * 1024 ** ' KMGT'.indexOf(m[2] || ' ');
  if (!t.openOut(p.opts.get('out')?.at(-1) ?? null)) return 1;
  const bytes = t.random(count);
  if (p.opts.has('hex')) t.out.write(`${toHex(bytes)}\n`);
  else if (p.opts.has('base64')) t.out.write(base64Lines(bytes, true));
  else t.out.write(bytes);
  return 0;
}
