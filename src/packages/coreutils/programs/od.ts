// od [OPTION]... [FILE]...: dump files in octal and other formats.

import { chunks, command, forEachInput, join, quote, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --help     display this help and exit
      --version  output version information and exit

Traditional format specifications may be intermixed; they accumulate:
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -o   same as -t o2, select octal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units
`;

interface Fmt {
  kind: 'o' | 'x' | 'd' | 'u' | 'c' | 'a';
  size: number;
  width: number; // field width including the leading space
}

const ESC: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
const NAMES = ['nul', 'soh', 'stx', 'etx', 'eot', 'enq', 'ack', 'bel', 'bs', 'ht', 'nl', 'vt', 'ff', 'cr', 'so', 'si', 'dle', 'dc1', 'dc2', 'dc3', 'dc4', 'nak', 'syn', 'etb', 'can', 'em', 'sub', 'esc', 'fs', 'gs', 'rs', 'us', 'sp'];

function makeFmt(c: Cmd, spec: string): Fmt[] {
  const out: Fmt[] = [];
  let s = spec;
  while (s) {
    const m = /^([oxduca])(\d*|[CSIL]?)/.exec(s);
    if (!m) return c.fail(`invalid type string ${quote(spec)}`);
    const kind = m[1] as Fmt['kind'];
    const letter = { C: 1, S: 2, I: 4, L: 8 } as Record<string, number>;
    let size = kind === 'c' || kind === 'a' ? 1 : m[2] === '' ? 4 : (letter[m[2]] ?? Number(m[2]));
    if (![1, 2, 4, 8].includes(size)) return c.fail(`invalid type string ${quote(spec)};\nthis system doesn't provide a ${size}-byte integral type`);
    if (kind === 'c' || kind === 'a') size = 1;
    const max = 2n ** BigInt(size * 8) - 1n;
    const width =
      kind === 'c' || kind === 'a' ? 4
      : kind === 'o' ? max.toString(8).length + 1
      : kind === 'x' ? size * 2 + 1
      : kind === 'u' ? max.toString().length + 1
      : (-(max / 2n) - 1n).toString().length + 1;
    out.push({ kind, size, width });
    s = s.slice(m[0].length);
  }
  return out;
}

function field(f: Fmt, b: Uint8Array, i: number): string {
  if (f.kind === 'c') {
    const x = b[i];
    const t = ESC[x] ?? (x >= 32 && x < 127 ? String.fromCharCode(x) : x.toString(8).padStart(3, '0'));
    return t.padStart(f.width);
  }
  if (f.kind === 'a') {
    const x = b[i] & 127;
    return (x <= 32 ? NAMES[x] : x === 127 ? 'del' : String.fromCharCode(x)).padStart(f.width);
  }
  let v = 0n;
  for (let k = f.size - 1; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k] ?? 0);
  if (f.kind === 'd' && v >= 1n << BigInt(f.size * 8 - 1)) v -= 1n << BigInt(f.size * 8);
  if (f.kind === 'o') return ' ' + v.toString(8).padStart(f.width - 1, '0');
  if (f.kind === 'x') return ' ' + v.toString(16).padStart(f.width - 1, '0');
  return v.toString().padStart(f.width);
}

export const od = command(
  {
    name: 'od',
    usage: USAGE,
    short: 'A:j:N:t:vw::bcdox',
    long: {
      'address-radix': ['A', 'required'], 'skip-bytes': ['j', 'required'], 'read-bytes': ['N', 'required'],
      format: ['t', 'required'], 'output-duplicates': ['v', 'none'], width: ['w', 'optional'],
    },
  },
  (c) => {
    const fmts: Fmt[] = [];
    const trad: Record<string, string> = { b: 'o1', c: 'c', d: 'u2', o: 'o2', x: 'x2' };
    for (const [k, v] of c.all) {
      if (k === 't') fmts.push(...makeFmt(c, v!));
      else if (k in trad) fmts.push(...makeFmt(c, trad[k]));
    }
    if (fmts.length === 0) fmts.push(...makeFmt(c, 'o2'));
    const radix = c.get('A') ?? 'o';
    if (!'doxn'.includes(radix) || radix.length !== 1) return c.fail(`invalid output address radix ${quote(radix)}; it must be one character from [doxn]`);
    const wv = c.get('w');
    const width = c.has('w') ? (wv === undefined ? 32 : Number(wv)) : 16;
    let data: Uint8Array = new Uint8Array(0);
    forEachInput(c, c.operands, (fd) => {
      for (const b of chunks(c.sys, fd)) data = join(data, b);
    });
    if (c.status && data.length === 0) return;
    const skip = Number(c.get('j') ?? 0);
    data = data.subarray(skip);
    if (c.has('N')) data = data.subarray(0, Number(c.get('N')));
    const addr = (n: number) =>
      radix === 'n' ? '' : radix === 'd' ? String(n).padStart(7, '0') : radix === 'x' ? n.toString(16).padStart(6, '0') : n.toString(8).padStart(7, '0');
    // Every format's fields share one width per byte so columns line up.
    const perByte = Math.max(...fmts.map((f) => f.width / f.size));
    let prev: Uint8Array | null = null;
    let starred = false;
    for (let off = 0; off < data.length; off += width) {
      const row = data.subarray(off, off + width);
      if (!c.has('v') && prev && row.length === width && prev.length === width && row.every((x, i) => x === prev![i])) {
        if (!starred) c.out.write('*\n');
        starred = true;
        continue;
      }
      starred = false;
      prev = row;
      fmts.forEach((f, n) => {
        let line = n === 0 ? addr(skip + off) : ' '.repeat(addr(0).length);
        for (let i = 0; i < row.length; i += f.size) line += field(f, row, i).padStart(perByte * f.size);
        c.out.write(line + '\n');
      });
    }
    if (radix !== 'n') c.out.write(addr(skip + data.length) + '\n');
  },
);
