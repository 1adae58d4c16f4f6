// base64 [OPTION]... [FILE]: base64 encode or decode FILE to standard output.

import { chunks, command, forEachInput, join, quote } from '../../../userland/lib/index.js';
import { count } from './text.js';

const USAGE = `Usage: base64 [OPTION]... [FILE]
Base64 encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help     display this help and exit
      --version  output version information and exit

The data are encoded as described for the base64 alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal base64 alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`;

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) VALUE[ALPHA.charCodeAt(i)] = i;

export const base64 = command(
  {
    name: 'base64',
    usage: USAGE,
    short: 'diw:',
    long: { decode: ['d', 'none'], 'ignore-garbage': ['i', 'none'], wrap: ['w', 'required'] },
  },
  (c) => {
    const w = c.get('w');
    const wrap = w === undefined ? 76 : count(w);
    if (wrap === null) return c.fail(`invalid wrap size: ${quote(w!)}`);
    if (c.operands.length > 1) c.usage(`extra operand ${quote(c.operands[1])}`);
    forEachInput(c, c.operands, (fd) => {
      let data: Uint8Array = new Uint8Array(0);
      for (const b of chunks(c.sys, fd)) data = join(data, b);
      if (c.has('d')) {
        const r = decode(data, c.has('i'));
        c.out.write(r.bytes);
        if (!r.ok) c.fail('invalid input');
      } else c.out.write(encode(data, wrap));
    });
  },
);

function encode(b: Uint8Array, wrap: number): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += ALPHA[n >> 18] + ALPHA[(n >> 12) & 63];
    s += i + 1 < b.length ? ALPHA[(n >> 6) & 63] : '=';
    s += i + 2 < b.length ? ALPHA[n & 63] : '=';
  }
  if (wrap === 0) return s;
  let out = '';
  for (let i = 0; i < s.length; i += wrap) out += s.slice(i, i + wrap) + '\n';
  return out;
}

function decode(b: Uint8Array, garbage: boolean): { bytes: Uint8Array; ok: boolean } {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let pad = 0;
  let quad = 0;
  for (const x of b) {
    if (x === 10) continue;
    if (x === 61) {
      pad++;
      quad++;
      continue;
    }
    const v = VALUE[x];
    if (v < 0 || pad) {
      if (garbage && v < 0) continue;
      return { bytes: Uint8Array.from(out), ok: false };
    }
    quad++;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 255);
    }
  }
  const ok = quad % 4 === 0 || (pad === 0 && quad % 4 !== 1);
  return { bytes: Uint8Array.from(out), ok: ok && quad % 4 !== 1 };
}
