// hexdump's format language (util-linux, after BSD): format strings made of
// units `[iterations][/bytes] "format"`, each conversion consuming bytes of
// a block; blocks are as long as the longest format string; the last unit
// repeats to fill a block; %_a/%_A print addresses, %_c %_p %_u characters;
// past the end of the data conversions print as blanks of their width.

export class FormatError extends Error {}

type Kind = 'text' | 'int' | 'uint' | 'dbl' | 'str' | 'char' | 'addr' | 'c' | 'p' | 'u';

interface Pr {
  kind: Kind;
  /** printf-style text: preceding text, then one conversion (none for text). */
  pre: string;
  spec: { flags: string; width: string; prec: string; conv: string } | null;
  bcnt: number;
  /** Text after the conversion is a separate text Pr; the last iteration drops a trailing blank. */
  nospace: boolean;
  padded: boolean;
  /** One-byte conversions, precomputed for every byte value (speed). */
  table?: string[];
}

interface Unit {
  reps: number;
  repsSet: boolean;
  bcnt: number;
  fmt: string;
  prs: Pr[];
  /** Holds a %_A: performed once, at the end. */
  end: boolean;
}

export type FormatString = Unit[];

/** Backslash escapes of format text (\n, \t, ...). */
function escape(s: string): string {
  const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') out += s[i];
    else if (i + 1 >= s.length) out += '\\';
    else out += map[s[++i]] ?? s[i];
  }
  return out;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && ' \t\n\v\f\r'.includes(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Parse one -e format string into units. */
export function parseFormat(fmt: string): FormatString {
  const units: Unit[] = [];
  let p = 0;
  const skip = () => {
    while (isSpace(fmt[p])) p++;
  };
  for (;;) {
    skip();
    if (p >= fmt.length) break;
    const u: Unit = { reps: 1, repsSet: false, bcnt: 0, fmt: '', prs: [], end: false };
    if (isDigit(fmt[p])) {
      const s = p;
      while (isDigit(fmt[p])) p++;
      if (!isSpace(fmt[p]) && fmt[p] !== '/') throw new FormatError(`bad format {${fmt}}`);
      u.reps = Number(fmt.slice(s, p));
      u.repsSet = true;
      if (fmt[p] !== '/') p++;
      skip();
    }
    if (fmt[p] === '/') {
      p++;
      skip();
    }
    if (isDigit(fmt[p])) {
      const s = p;
      while (isDigit(fmt[p])) p++;
      if (!isSpace(fmt[p])) throw new FormatError(`bad format {${fmt}}`);
      u.bcnt = Number(fmt.slice(s, p));
      p++;
      skip();
    }
    if (fmt[p] !== '"') throw new FormatError(`bad format {${fmt}}`);
    const s = ++p;
    while (fmt[p] !== '"') {
      if (p >= fmt.length) throw new FormatError(`bad format {${fmt}}`);
      p++;
    }
    u.fmt = escape(fmt.slice(s, p));
    p++;
    units.push(u);
  }
  return units;
}

/** Bytes one pass of the format string consumes (GNU: block_size). */
export function blockSize(fs: FormatString): number {
  let size = 0;
  for (const u of fs) {
    if (u.bcnt) {
      size += u.bcnt * u.reps;
      continue;
    }
    let b = 0;
    for (const m of u.fmt.matchAll(/%[-+ #0-9]*(?:\.(\d+))?(_?.)/g)) {
      const c = m[2];
      if (c === 'c' || c === '_c' || c === '_p' || c === '_u') b += 1;
      else if ('diouxX'.includes(c)) b += 4;
      else if ('eEfgG'.includes(c)) b += 8;
      else if (c === 's') b += Number(m[1] ?? 0);
    }
    size += b * u.reps;
  }
  return size;
}

/** Split units into conversions, fix their byte counts, and stretch the last unit to the block (GNU: rewrite). */
export function rewrite(fs: FormatString, blocksize: number): void {
  const fsBcnt = blockSize(fs);
  for (const u of fs) {
    let rest = u.fmt;
    let nconv = 0;
    while (rest.length) {
      const at = findConversion(rest);
      if (at < 0) {
        u.prs.push({ kind: 'text', pre: rest.replace(/%%/g, '%'), spec: null, bcnt: 0, nospace: false, padded: false });
        break;
      }
      const m = /^%([-+ #0]*)(\d*)(?:\.(\d*))?(_[aAcpu][dox]?|[cdiouxXeEfgGs])/.exec(rest.slice(at));
      if (!m) throw new FormatError(`bad conversion character %${rest.slice(at + 1, at + 2)}`);
      const [whole, flags, width, prec, conv] = m;
      const pre = rest.slice(0, at).replace(/%%/g, '%');
      const pr: Pr = { kind: 'text', pre, spec: { flags, width, prec: prec ?? '', conv }, bcnt: 0, nospace: false, padded: false };
      const count = (allowed: number[], dflt: number): number => {
        const b = u.bcnt || dflt;
        if (!allowed.includes(b)) throw new FormatError(`bad byte count for conversion character ${conv}`);
        return b;
      };
      if (conv === 'c') [pr.kind, pr.bcnt] = ['char', count([1], 1)];
      else if (conv === 'd' || conv === 'i') [pr.kind, pr.bcnt] = ['int', count([1, 2, 4, 8], 4)];
      else if ('ouxX'.includes(conv)) [pr.kind, pr.bcnt] = ['uint', count([1, 2, 4, 8], 4)];
      else if ('eEfgG'.includes(conv)) [pr.kind, pr.bcnt] = ['dbl', count([4, 8], 8)];
      else if (conv === 's') {
        pr.kind = 'str';
        if (u.bcnt) pr.bcnt = u.bcnt;
        else if (prec) pr.bcnt = Number(prec);
        else throw new FormatError('%s: requires a precision or a byte count');
      } else if (conv[1] === 'a' || conv[1] === 'A') {
        if (conv.length < 3) throw new FormatError(`bad conversion character %${conv}`);
        pr.kind = 'addr';
        if (conv[1] === 'A') u.end = true;
      } else if (conv === '_c' || conv === '_p' || conv === '_u') [pr.kind, pr.bcnt] = [conv === '_c' ? 'c' : conv === '_p' ? 'p' : 'u', count([1], 1)];
      else throw new FormatError(`bad conversion character %${conv}`);
      if (pr.kind !== 'addr' && u.bcnt && nconv++) throw new FormatError('byte count with multiple conversion characters');
      if (pr.bcnt === 1 && pr.kind !== 'str' && pr.kind !== 'dbl') {
        const one = new Uint8Array(1);
        pr.table = Array.from({ length: 256 }, (_, v) => ((one[0] = v), convert(pr, one, 0, 0, false)));
      }
      u.prs.push(pr);
      rest = rest.slice(at + whole.length);
    }
    if (!u.bcnt) u.bcnt = u.prs.reduce((n, pr) => n + pr.bcnt, 0);
  }
  fs.forEach((u, i) => {
    if (i === fs.length - 1 && fsBcnt < blocksize && !u.repsSet && u.bcnt) u.reps += Math.floor((blocksize - fsBcnt) / u.bcnt);
    if (u.reps > 1 && u.prs.length) {
      const last = u.prs[u.prs.length - 1];
      const text = last.kind === 'text' ? last.pre : '';
      if (text.length && isSpace(text[text.length - 1])) last.nospace = true;
    }
  });
}

/** Index of the first '%' that starts a conversion ("%%" is a literal percent). */
function findConversion(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '%') continue;
    if (s[i + 1] === '%') i++;
    else return i;
  }
  return -1;
}

/** printf of one conversion with C semantics for the flags we meet. */
function printf(spec: NonNullable<Pr['spec']>, conv: string, v: number | string | bigint): string {
  const { flags } = spec;
  const width = spec.width === '' ? 0 : Number(spec.width);
  const hasPrec = spec.prec !== '';
  const prec = spec.prec === '' ? -1 : Number(spec.prec);
  let body: string;
  let sign = '';
  if (conv === 's') body = prec >= 0 ? String(v).slice(0, prec) : String(v);
  else if (conv === 'c') body = typeof v === 'number' ? String.fromCharCode(v) : String(v);
  else if ('eEfgG'.includes(conv)) {
    const n = Number(v);
    const p = prec < 0 ? 6 : prec;
    if (n < 0 || Object.is(n, -0)) sign = '-';
    else if (flags.includes('+')) sign = '+';
    else if (flags.includes(' ')) sign = ' ';
    const a = Math.abs(n);
    if (conv === 'f') body = a.toFixed(p);
    else if (conv === 'e' || conv === 'E') body = expo(a, p, conv);
    else body = gfmt(a, p === 0 ? 1 : p, conv === 'G', flags.includes('#'));
  } else {
    let n = BigInt(v as number);
    if (conv === 'd' || conv === 'i') {
      if (n < 0n) {
        sign = '-';
        n = -n;
      } else if (flags.includes('+')) sign = '+';
      else if (flags.includes(' ')) sign = ' ';
    }
    body = conv === 'o' ? n.toString(8) : conv === 'x' ? n.toString(16) : conv === 'X' ? n.toString(16).toUpperCase() : n.toString(10);
    if (prec >= 0) body = prec === 0 && n === 0n ? '' : body.padStart(prec, '0');
    if (flags.includes('#') && conv === 'o' && !body.startsWith('0')) body = `0${body}`;
    if (flags.includes('#') && (conv === 'x' || conv === 'X') && n !== 0n) sign = conv === 'x' ? '0x' : '0X';
  }
  const len = sign.length + body.length;
  if (len >= width) return sign + body;
  if (flags.includes('-')) return sign + body + ' '.repeat(width - len);
  const numeric = conv !== 's' && conv !== 'c';
  if (flags.includes('0') && numeric && !(hasPrec && 'diouxX'.includes(conv))) return sign + '0'.repeat(width - len) + body;
  return ' '.repeat(width - len) + sign + body;
}

function expo(a: number, p: number, conv: string): string {
  const s = a.toExponential(p);
  const [m, e] = s.split('e');
  const n = Number(e);
  const r = `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  return conv === 'E' ? r.toUpperCase() : r;
}

function gfmt(a: number, p: number, upper: boolean, alt: boolean): string {
  if (a === 0) return '0';
  const x = Math.floor(Math.log10(a));
  let s: string;
  if (x < -4 || x >= p) s = expo(a, p - 1, 'e');
  else s = a.toFixed(Math.max(0, p - 1 - x));
  if (!alt) s = s.replace(/\.?0+(e|$)/, '$1').replace(/\.e/, 'e');
  return upper ? s.toUpperCase() : s;
}

const NAMES = ['nul', 'soh', 'stx', 'etx', 'eot', 'enq', 'ack', 'bel', 'bs', 'ht', 'lf', 'vt', 'ff', 'cr', 'so', 'si', 'dle', 'dc1', 'dc2', 'dc3', 'dc4', 'nak', 'syn', 'etb', 'can', 'em', 'sub', 'esc', 'fs', 'gs', 'rs', 'us'];
const ESCAPES: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };
const isPrint = (b: number): boolean => b >= 32 && b < 127;

function readInt(b: Uint8Array, at: number, n: number, signed: boolean): bigint {
  let v = 0n;
  for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(b[at + k]);
  if (signed && n > 0 && b[at + n - 1] & 0x80) v -= 1n << BigInt(8 * n);
  return v;
}

/** One conversion's text for the bytes at `at` (or blanks past the end of the data). */
function convert(pr: Pr, b: Uint8Array, at: number, address: number, blank: boolean): string {
  const spec = pr.spec;
  if (!spec) return pr.pre;
  if (blank || pr.padded) {
    // Past the end: the conversion as %s of nothing, its flags dropped.
    pr.padded = true;
    return pr.pre + printf({ flags: spec.flags.includes('-') ? '-' : '', width: spec.width, prec: spec.prec, conv: 's' }, 's', '');
  }
  if (pr.table) return pr.table[b[at]];
  const x = b[at];
  let s: string;
  switch (pr.kind) {
    case 'addr':
      s = printf(spec, spec.conv[2], address);
      break;
    case 'char':
      s = printf(spec, 'c', x);
      break;
    case 'int':
    case 'uint':
      s = printf(spec, spec.conv, readInt(b, at, pr.bcnt, pr.kind === 'int'));
      break;
    case 'dbl': {
      const dv = new DataView(b.buffer, b.byteOffset + at, pr.bcnt);
      s = printf(spec, spec.conv, pr.bcnt === 4 ? dv.getFloat32(0, true) : dv.getFloat64(0, true));
      break;
    }
    case 'str': {
      let str = '';
      for (let k = 0; k < pr.bcnt && b[at + k] !== 0; k++) str += String.fromCharCode(b[at + k]);
      s = printf(spec, 's', str);
      break;
    }
    case 'c':
      s = x in ESCAPES ? printf(spec, 's', ESCAPES[x]) : isPrint(x) ? printf(spec, 'c', x) : printf(spec, 's', x.toString(8).padStart(3, '0'));
      break;
    case 'p':
      s = printf(spec, 'c', isPrint(x) ? x : 46);
      break;
    default:
      s = x <= 0x1f ? printf(spec, 's', NAMES[x]) : x === 0x7f ? printf(spec, 's', 'del') : isPrint(x) ? printf(spec, 'c', x) : printf(spec, 'x', x);
  }
  return pr.pre + s;
}

/** Print one block through every format string (GNU: display's inner loops). */
export function formatBlock(fss: FormatString[], block: Uint8Array, address: number, eaddress: number | null): string {
  let out = '';
  for (const fs of fss) {
    let at = 0;
    let addr = address;
    for (const u of fs) {
      if (u.end) break;
      for (let cnt = u.reps; cnt; cnt--) {
        for (const pr of u.prs) {
          const blank = eaddress !== null && addr >= eaddress && pr.kind !== 'text';
          let s = convert(pr, block, at, addr, blank);
          if (cnt === 1 && pr.nospace) s = s.slice(0, -1);
          out += s;
          addr += pr.bcnt;
          at += pr.bcnt;
        }
      }
    }
  }
  return out;
}

/** The last %_A unit (GNU keeps only that one), printed once with the final address. */
export function formatEnd(fss: FormatString[], eaddress: number): string {
  const end = fss.flat().filter((u) => u.end).pop();
  let out = '';
  for (const pr of end?.prs ?? []) {
    if (pr.kind === 'addr' && pr.spec) out += pr.pre + printf(pr.spec, pr.spec.conv[2], eaddress);
    else if (pr.kind === 'text') out += pr.pre;
  }
  return out;
}
