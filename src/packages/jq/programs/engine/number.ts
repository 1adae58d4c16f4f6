// Numbers as jq prints and reads them. Doubles print like jq's dtoa-based
// formatter (shortest round-trip digits; exponent form below 1e-4 or when
// the exponent exceeds the digit count by more than 15, with at least two
// exponent digits: 1e-05, 1e+17). Literals whose canonical decimal text
// differs from that (1.0, 1.10, 1e2, 100000000000000000001) become Lit so
// they print as jq 1.7 prints them: decNumber's to-scientific-string.

import { Lit, type Json } from './value.js';

/** A double as jq prints it (NaN is printed as null by the callers). */
export function fmtDouble(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const a = n < 0 ? -n : n;
  if (a >= 1e-4 && a < 1e16) return String(n);
  if (a === Infinity) return n < 0 ? '-1.7976931348623157e+308' : '1.7976931348623157e+308';
  const e = a.toExponential();
  const p = e.indexOf('e');
  const digits = e[0] + e.slice(2, p);
  const decpt = Number(e.slice(p + 1)) + 1;
  const sign = n < 0 ? '-' : '';
  if (decpt <= -4 || decpt > digits.length + 15) {
    const x = decpt - 1;
    const ex = Math.abs(x) < 10 ? `0${Math.abs(x)}` : String(Math.abs(x));
    return `${sign}${digits[0]}${digits.length > 1 ? '.' + digits.slice(1) : ''}e${x < 0 ? '-' : '+'}${ex}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return sign + digits + '0'.repeat(decpt - digits.length);
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** A number value as text (literal text when it has one). */
export const fmtNumber = (v: number | Lit): string => (typeof v === 'number' ? (v !== v ? 'null' : fmtDouble(v)) : v.s);

const LITERAL = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * decNumber's to-scientific-string of a numeric literal: the coefficient
 * keeps trailing zeros (1.10), plain notation when the exponent is <= 0 and
 * the adjusted exponent >= -6, scientific (1E+2) otherwise. Null when the
 * text is not a number literal.
 */
export function canonicalLiteral(text: string): string | null {
  const m = LITERAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const frac = m[3] ?? '';
  let coef = (m[2] + frac).replace(/^0+(?=\d)/, '');
  if (coef === '') coef = '0';
  const exp = Number(m[4] ?? 0) - frac.length;
  if (!Number.isFinite(exp)) return null;
  const adj = exp + coef.length - 1;
  let body: string;
  if (exp <= 0 && adj >= -6) {
    if (exp === 0) body = coef;
    else {
      const point = coef.length + exp;
      body = point > 0 ? `${coef.slice(0, point)}.${coef.slice(point)}` : `0.${'0'.repeat(-point)}${coef}`;
    }
  } else {
    body = `${coef[0]}${coef.length > 1 ? '.' + coef.slice(1) : ''}E${adj >= 0 ? '+' : '-'}${Math.abs(adj)}`;
  }
  return m[1] + body;
}

/**
 * The value of a number literal: a plain double when jq would print it the
 * same way, else a Lit keeping its canonical text. Null for non-numbers.
 */
export function numberLiteral(text: string): Json {
  const plain = plainDecimal(text);
  if (plain > 0) {
    const d = +text;
    const a = d < 0 ? -d : d;
    const inRange = a === 0 || (a >= 1e-4 && a < 1e16);
    // Up to 15 significant digits a double reproduces the text exactly; 16 or 17 may.
    if (inRange && (plain <= 15 || (plain <= 17 && String(d) === text))) return d;
    return new Lit(d, text);
  }
  if (!LITERAL.test(text)) return null;
  const n = literalDouble(text);
  if (n !== n) return null;
  const lit = canonicalLiteral(text);
  if (lit === null) return null;
  return lit === fmtDouble(n) ? n : new Lit(n, lit);
}

/**
 * Significant digits of a literal that is already in canonical form (no
 * exponent, no leading zeros, no trailing fraction zeros, not below 1e-6),
 * or 0 when it is not.
 */
function plainDecimal(t: string): number {
  const n = t.length;
  let i = t.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i >= n) return 0;
  let sig = 0;
  let c = t.charCodeAt(i);
  if (c === 0x30) {
    i++;
    if (i < n && t.charCodeAt(i) !== 0x2e) return 0;
  } else {
    for (; i < n; i++) {
      c = t.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      sig++;
    }
    if (sig === 0) return 0;
  }
  if (i === n) return sig || 1;
  if (t.charCodeAt(i) !== 0x2e || i + 1 === n) return 0;
  let zeros = 0;
  for (i++; i < n; i++) {
    c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return 0;
    if (sig === 0 && c === 0x30) zeros++;
    else sig++;
  }
  if (c === 0x30 || sig === 0 || zeros > 5) return 0;
  return sig;
}

/** The double of a literal; more than 17 significant digits round to 17 first, as jq 1.7's decNumber conversion does. */
function literalDouble(text: string): number {
  const n = Number(text);
  if (text.length < 19) return n;
  const m = LITERAL.exec(text);
  if (!m) return n;
  const digits = (m[2] + (m[3] ?? '')).replace(/^0+/, '');
  if (digits.replace(/0+$/, '').length <= 17) return n;
  return Number(round17(m[1], m[2], m[3] ?? '', Number(m[4] ?? 0)));
}

/** Round a decimal to 17 significant digits, half to even; returns a literal Number() can read. */
function round17(sign: string, int: string, frac: string, exp: number): string {
  let all = int + frac;
  let e = exp - frac.length;
  const lead = all.search(/[1-9]/);
  all = all.slice(lead);
  const keep = all.slice(0, 17);
  const rest = all.slice(17);
  e += rest.length;
  let d = BigInt(keep);
  const first = rest.charCodeAt(0) - 48;
  const tail = /[1-9]/.test(rest.slice(1));
  if (first > 5 || (first === 5 && (tail || d % 2n === 1n))) d += 1n;
  return `${sign}${d}e${e}`;
}
