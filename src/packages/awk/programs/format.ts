// printf/sprintf formatting with C semantics (flags - + space # 0, width,
// precision, `*`), done by hand because JS has no printf.

import { codeChar, countsChars, fieldBytes, fieldChars, firstChar } from './chars.js';
import { toNum, type Val } from './value.js';

export class FormatError extends Error {}

interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  alt: boolean;
  zero: boolean;
  width: number;
  prec: number; // -1: none
}

function pad(body: string, sign: string, s: Spec, numeric: boolean): string {
  const len = sign.length + body.length;
  if (len >= s.width) return sign + body;
  const fill = s.width - len;
  if (s.minus) return sign + body + ' '.repeat(fill);
  if (s.zero && numeric) return sign + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + sign + body;
}

/** Pad a body that is `chars` characters wide (multibyte text: its byte length is not its width). */
function padChars(body: string, chars: number, s: Spec): string {
  if (chars >= s.width) return body;
  const fill = ' '.repeat(s.width - chars);
  return s.minus ? body + fill : fill + body;
}

function signOf(neg: boolean, s: Spec): string {
  return neg ? '-' : s.plus ? '+' : s.space ? ' ' : '';
}

/** Exponent form with at least two exponent digits, as C prints it. */
function expForm(a: number, prec: number): string {
  const [m, e] = a.toExponential(prec).split('e');
  const ex = Number(e);
  return `${m}e${ex < 0 ? '-' : '+'}${String(Math.abs(ex)).padStart(2, '0')}`;
}

/** An exact tie at the last digit rounds to even, as C's printf does with the binary value. */
function halfEven(a: number, prec: number, s: string): string {
  if (prec > 15) return s;
  const scaled = a * 10 ** prec;
  const fl = Math.floor(scaled);
  if (scaled - fl !== 0.5 || (fl + 0.5) / 10 ** prec !== a || fl % 2 !== 0) return s;
  return (fl / 10 ** prec).toFixed(prec);
}

function fixed(a: number, prec: number): string {
  if (a < 1e21) return halfEven(a, prec, a.toFixed(prec));
  const int = BigInt(Math.round(a)).toString();
  return prec > 0 ? `${int}.${'0'.repeat(prec)}` : int;
}

export function formatFloat(conv: string, v: number, s: Spec): string {
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  let body: string;
  if (!Number.isFinite(a)) {
    body = Number.isNaN(a) ? 'nan' : 'inf';
    const sign = Number.isNaN(a) ? (s.plus ? '+' : s.space ? ' ' : '-') : signOf(neg, s);
    const r = pad(body, sign, { ...s, zero: false }, false);
    return conv === 'E' || conv === 'G' || conv === 'F' ? r.toUpperCase() : r;
  }
  const prec = s.prec < 0 ? 6 : s.prec;
  switch (conv) {
    case 'f':
    case 'F':
      body = fixed(a, prec);
      if (s.alt && prec === 0) body += '.';
      break;
    case 'e':
    case 'E':
      body = expForm(a, prec);
      if (s.alt && prec === 0) body = body.replace('e', '.e');
      break;
    default: {
      const p = prec === 0 ? 1 : prec;
      const x = a === 0 ? 0 : Number(a.toExponential(p - 1).split('e')[1]);
      if (x < -4 || x >= p) {
        body = expForm(a, p - 1);
        if (!s.alt) body = body.replace(/\.?0+e/, 'e');
      } else {
        body = fixed(a, p - 1 - x);
        if (!s.alt && body.includes('.')) body = body.replace(/\.?0+$/, '');
      }
    }
  }
  if (conv === 'E' || conv === 'G') body = body.toUpperCase();
  return pad(body, signOf(neg, s), s, true);
}

function formatInt(conv: string, v: number, s: Spec): string {
  if (!Number.isFinite(v)) return formatFloat('f', v, s);
  const t = Math.trunc(v);
  let big = BigInt(t);
  let neg = false;
  let body: string;
  if (conv === 'd' || conv === 'i') {
    neg = big < 0n;
    body = (neg ? -big : big).toString();
  } else {
    if (big < 0n) big = BigInt.asUintN(64, big);
    body = big.toString(conv === 'o' ? 8 : conv === 'u' ? 10 : 16);
    if (conv === 'X') body = body.toUpperCase();
  }
  if (s.prec >= 0) {
    if (s.prec === 0 && t === 0) body = '';
    body = body.padStart(s.prec, '0');
  }
  if (s.alt && conv === 'o' && !body.startsWith('0')) body = `0${body}`;
  const prefix = s.alt && t !== 0 && (conv === 'x' || conv === 'X') ? `0${conv}` : '';
  const sign = conv === 'd' || conv === 'i' ? signOf(neg, s) : '';
  return pad(body, sign + prefix, s.prec >= 0 ? { ...s, zero: false } : s, true);
}

/** sprintf: `str` converts a value to a string (CONVFMT), for %s. */
export function sprintf(fmt: string, args: Val[], str: (v: Val) => string): string {
  let out = '';
  let ai = 0;
  // gawk's positional `%N$`: all conversions use it or none do.
  let positional: boolean | null = null;
  const mode = (pos: boolean) => {
    if (positional !== null && positional !== pos) throw new FormatError("must use `count$' on all formats or none");
    positional = pos;
  };
  const next = (): Val => {
    mode(false);
    if (ai >= args.length) throw new FormatError('not enough arguments to satisfy format string');
    return args[ai++];
  };
  /** `N$` at fmt[i]: the argument it names (i moves past it), or null when there is none. */
  const argAt = (): Val | null => {
    const m = /^(\d+)\$/.exec(fmt.slice(i, i + 12));
    if (!m) return null;
    mode(true);
    i += m[0].length;
    const n = Number(m[1]);
    if (n <= 0) throw new FormatError("argument index with `$' must be > 0");
    if (n > args.length) throw new FormatError(`argument index ${n} greater than total number of supplied arguments`);
    return args[n - 1];
  };
  let i = 0;
  for (; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    const start = i;
    const s: Spec = { minus: false, plus: false, space: false, alt: false, zero: false, width: 0, prec: -1 };
    i++;
    const arg = fmt[i] === '%' ? null : argAt();
    for (; i < fmt.length; i++) {
      const f = fmt[i];
      if (f === '-') s.minus = true;
      else if (f === '+') s.plus = true;
      else if (f === ' ') s.space = true;
      else if (f === '#') s.alt = true;
      else if (f === '0') s.zero = true;
      else if (f !== "'") break; // ' (thousands grouping) groups nothing in the C locale
    }
    if (fmt[i] === '*') {
      i++;
      s.width = Math.trunc(toNum(argAt() ?? next()));
      if (s.width < 0) {
        s.minus = true;
        s.width = -s.width;
      }
    } else {
      let w = '';
      while (/\d/.test(fmt[i] ?? '')) w += fmt[i++];
      if (w) s.width = Number(w);
    }
    if (fmt[i] === '.') {
      i++;
      if (fmt[i] === '*') {
        i++;
        s.prec = Math.trunc(toNum(argAt() ?? next()));
      } else {
        let p = '';
        while (/\d/.test(fmt[i] ?? '')) p += fmt[i++];
        s.prec = p ? Number(p) : 0;
      }
    }
    // Length modifiers mean nothing in awk.
    while (/[hlLqjzt]/.test(fmt[i] ?? '')) i++;
    const conv = fmt[i];
    const value = (): Val => arg ?? next();
    switch (conv) {
      case '%':
        out += '%';
        break;
      case 'c': {
        const v = value();
        // A string's first character; an empty one gives the NUL after it, as C's buffer does.
        const ch = typeof v === 'number' ? codeChar(v) : firstChar(str(v)) || '\0';
        out += padChars(ch, 1, s);
        break;
      }
      case 's': {
        let v = str(value());
        if ((s.width > 0 || s.prec >= 0) && countsChars(v)) {
          const n = Math.min(fieldChars(v), s.prec >= 0 ? s.prec : Infinity);
          out += padChars(v.slice(0, fieldBytes(v, n)), n, s);
          break;
        }
        if (s.prec >= 0) v = v.slice(0, s.prec);
        out += pad(v, '', s, false);
        break;
      }
      case 'd':
      case 'i':
      case 'o':
      case 'x':
      case 'X':
      case 'u':
        out += formatInt(conv, toNum(value()), s);
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
        out += formatFloat(conv, toNum(value()), s);
        break;
      default:
        // Unknown or truncated conversion: copied as is.
        out += fmt.slice(start, i + 1);
        if (conv === undefined) i = fmt.length;
    }
  }
  return out;
}

/** CONVFMT/OFMT conversion of a non-integral number. */
export function fmtNum(fmt: string, n: number): string {
  return sprintf(fmt, [n], String);
}
