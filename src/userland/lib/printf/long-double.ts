// The x87 80-bit long double that bash's printf builtin and GNU printf use for
// %f %e %g %a: an argument is parsed as strtold does (rounded once, half to
// even, to a 64-bit significand) and printed exactly from that value, as
// glibc does. So `printf '%.20f' 0.1` is 0.10000000000000000000 (a double
// would give ...0555) and `%.2f` of 0.125 is 0.12 (a tie goes to even).
// BigInt carries the arithmetic.

/** A finite value is (-1)^neg × mant × 2^exp; mant < 2^64, at least 2^63 unless the value is subnormal or 0. */
export type LongDouble =
  | { kind: 'finite'; neg: boolean; mant: bigint; exp: number }
  | { kind: 'inf'; neg: boolean }
  | { kind: 'nan'; neg: boolean };

/** strtold's result: the value, how many characters it took (0: no number at all), and whether it was out of range (ERANGE). */
export interface ParsedLongDouble {
  value: LongDouble;
  end: number;
  range: boolean;
}

const MANT_BITS = 64;
/** The exponent of the least subnormal's unit: 2^-16445. */
const MIN_EXP = -16445;
/** Values at or past 2^16384 overflow. */
const MAX_BINARY_EXP = 16384;
const TOP = 1n << 64n;
const HALF_TOP = 1n << 63n;

const ZERO = (neg: boolean): LongDouble => ({ kind: 'finite', neg, mant: 0n, exp: 0 });

const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** num/den × 2^shift (all positive) rounded half to even to the format: a finite value, or infinity past the range. */
function round(neg: boolean, num: bigint, den: bigint, shift: number): { value: LongDouble; range: boolean } {
  if (shift >= 0) num <<= BigInt(shift);
  else den <<= BigInt(-shift);
  let e = Math.max(bitLength(num) - bitLength(den) - MANT_BITS, MIN_EXP);
  const quotient = (ex: number): [bigint, bigint, bigint] => {
    const n = ex < 0 ? num << BigInt(-ex) : num;
    const d = ex > 0 ? den << BigInt(ex) : den;
    return [n / d, n % d, d];
  };
  let [q, r, d] = quotient(e);
  if (q >= TOP) [q, r, d] = quotient(++e);
  else if (q < HALF_TOP && e > MIN_EXP) [q, r, d] = quotient(--e);
  if (2n * r > d || (2n * r === d && (q & 1n) === 1n)) q++;
  if (q === TOP) {
    q = HALF_TOP;
    e++;
  }
  if (e + MANT_BITS > MAX_BINARY_EXP) return { value: { kind: 'inf', neg }, range: true };
  // A subnormal result (or one rounded to zero) is ERANGE too, as glibc reports it.
  return { value: q === 0n ? ZERO(neg) : { kind: 'finite', neg, mant: q, exp: e }, range: q < HALF_TOP };
}

const SPACE = /[ \t\n\v\f\r]/;

/** strtold(3) on the start of `s`: leading blanks, a sign, then inf/infinity, nan[(...)], a hex float or a decimal. */
export function parseLongDouble(s: string): ParsedLongDouble {
  let i = 0;
  while (i < s.length && SPACE.test(s[i])) i++;
  let neg = false;
  if (s[i] === '+' || s[i] === '-') neg = s[i++] === '-';
  const rest = s.slice(i).toLowerCase();
  if (rest.startsWith('inf')) return { value: { kind: 'inf', neg }, end: i + (rest.startsWith('infinity') ? 8 : 3), range: false };
  if (rest.startsWith('nan')) {
    const paren = /^nan\([0-9a-z_]*\)/.exec(rest);
    return { value: { kind: 'nan', neg }, end: i + (paren ? paren[0].length : 3), range: false };
  }
  const hex = /^0x((?:[0-9a-f]+\.?[0-9a-f]*)|(?:\.[0-9a-f]+))(p[+-]?\d+)?/.exec(rest);
  if (hex) return hexFloat(neg, hex[1], hex[2], i + hex[0].length);
  const dec = /^((?:\d+\.?\d*)|(?:\.\d+))(e[+-]?\d+)?/.exec(rest);
  if (!dec) return { value: ZERO(false), end: 0, range: false };
  const [whole, frac = ''] = dec[1].split('.');
  const digits = (whole + frac).replace(/^0+/, '');
  const end = i + dec[0].length;
  if (!digits) return { value: ZERO(neg), end, range: false };
  const e10 = clampExp(dec[2]?.slice(1)) - frac.length;
  // Decimal exponent of the leading digit: far outside the range, skip the arithmetic.
  const magnitude = digits.length - 1 + e10;
  if (magnitude > 4933) return { value: { kind: 'inf', neg }, end, range: true };
  if (magnitude < -4952) return { value: ZERO(neg), end, range: true };
  const d = BigInt(digits);
  const r = e10 >= 0 ? round(neg, d * pow10(e10), 1n, 0) : round(neg, d, pow10(-e10), 0);
  return { ...r, end };
}

function hexFloat(neg: boolean, body: string, pexp: string | undefined, end: number): ParsedLongDouble {
  const [whole, frac = ''] = body.split('.');
  const digits = (whole + frac).replace(/^0+/, '');
  if (!digits) return { value: ZERO(neg), end, range: false };
  const shift = clampExp(pexp?.slice(1)) - 4 * frac.length;
  const top = digits.length * 4 + shift;
  if (top > MAX_BINARY_EXP + 4) return { value: { kind: 'inf', neg }, end, range: true };
  if (top < MIN_EXP - 4) return { value: ZERO(neg), end, range: true };
  return { ...round(neg, BigInt(`0x${digits}`), 1n, shift), end };
}

/** An exponent's digits as a number, bounded (a huge one only needs to be huge). */
function clampExp(text: string | undefined): number {
  if (!text) return 0;
  const n = Number(text);
  return Math.max(-1e6, Math.min(1e6, n));
}

/** A BigInt, rounded to the format as strtold would round its digits. */
export function fromBigInt(n: bigint): LongDouble {
  const neg = n < 0n;
  const a = neg ? -n : n;
  return a === 0n ? ZERO(false) : round(neg, a, 1n, 0).value;
}

// ---- exact decimal and hexadecimal forms ------------------------------------------

type Finite = Extract<LongDouble, { kind: 'finite' }>;

/** |v| × 10^k, rounded half to even. */
function scaled(v: Finite, k: number): bigint {
  let num = v.mant;
  let den = 1n;
  if (k >= 0) num *= pow10(k);
  else den *= pow10(-k);
  if (v.exp >= 0) num <<= BigInt(v.exp);
  else den <<= BigInt(-v.exp);
  const q = num / den;
  const r2 = 2n * (num % den);
  return r2 > den || (r2 === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** %f's digits (no sign): `prec` after the point; `alt` (#) keeps the point with none. */
export function fixedDigits(v: Finite, prec: number, alt: boolean): string {
  const n = scaled(v, prec).toString().padStart(prec + 1, '0');
  const int = n.slice(0, n.length - prec);
  return prec > 0 ? `${int}.${n.slice(n.length - prec)}` : alt ? `${int}.` : int;
}

/** The significant digits (prec + 1 of them) and decimal exponent %e prints. */
function decimalDigits(v: Finite, prec: number): { digits: string; exp10: number } {
  if (v.mant === 0n) return { digits: '0'.repeat(prec + 1), exp10: 0 };
  // An estimate of floor(log10(|v|)), corrected by the length of the rounded digits.
  let x = Math.floor(Math.log10(Number(v.mant)) + v.exp * Math.LOG10E * Math.LN2);
  for (;;) {
    const n = scaled(v, prec - x).toString();
    if (n.length > prec + 1) {
      // Either the estimate was low, or rounding carried into a new digit (9.99 → 10.0).
      if (n === '1' + '0'.repeat(prec + 1)) return { digits: n.slice(0, prec + 1), exp10: x + 1 };
      x++;
    } else if (n.length < prec + 1) x--;
    else return { digits: n, exp10: x };
  }
}

function exponentText(x: number): string {
  return `e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
}

/** %e's text (no sign). */
export function exponentialDigits(v: Finite, prec: number, alt: boolean): string {
  const { digits, exp10 } = decimalDigits(v, prec);
  const point = prec > 0 || alt ? '.' : '';
  return `${digits[0]}${point}${digits.slice(1)}${exponentText(exp10)}`;
}

/** |v| < 10^k, exactly. */
function below(v: Finite, k: number): boolean {
  return v.exp >= 0 ? v.mant << BigInt(v.exp) < pow10(k) : v.mant < pow10(k) << BigInt(-v.exp);
}

/** %g's text (no sign): %e or %f by the exponent, trailing zeros dropped unless `alt`. */
export function generalDigits(v: Finite, prec: number, alt: boolean): string {
  const p = prec === 0 ? 1 : prec;
  const { exp10 } = decimalDigits(v, p - 1);
  // glibc's quirk, which bash shows: with #, a value below 10^P that rounds up to it loses its zeros (%#.3g of 999.99 is 1.e+03).
  if (alt && exp10 === p && below(v, p)) return `1.${exponentText(exp10)}`;
  const s = exp10 < p && exp10 >= -4 ? fixedDigits(v, p - 1 - exp10, alt) : exponentialDigits(v, p - 1, alt);
  if (alt) return s;
  const [significand, exp] = s.split('e');
  const trimmed = significand.includes('.') ? significand.replace(/0+$/, '').replace(/\.$/, '') : significand;
  return exp === undefined ? trimmed : `${trimmed}e${exp}`;
}

/**
 * %a's text (no sign) as glibc prints a long double: the significand's top
 * four bits as the leading digit, the other 60 as fifteen fraction digits
 * (trailing zeros dropped unless `prec` says how many), a binary exponent.
 */
export function hexDigits(v: Finite, prec: number | undefined, alt: boolean): string {
  if (v.mant === 0n) return `0x0${prec ? '.' + '0'.repeat(prec) : alt ? '.' : ''}p+0`;
  let lead = v.mant >> 60n;
  let frac = v.mant & ((1n << 60n) - 1n);
  let exp = v.exp + 60;
  let digits: string;
  if (prec !== undefined && prec < 15) {
    // Round the fraction to `prec` digits, half to even; a carry out of it goes to the leading digit.
    const drop = BigInt(60 - 4 * prec);
    const unit = 1n << drop;
    let q = frac >> drop;
    const r2 = 2n * (frac & (unit - 1n));
    if (r2 > unit || (r2 === unit && ((prec === 0 ? lead : q) & 1n) === 1n)) q++;
    if (q >> BigInt(4 * prec) !== 0n) {
      q = 0n;
      lead++;
    }
    if (lead === 16n) {
      lead = 1n;
      exp += 4;
    }
    frac = q;
    digits = prec ? frac.toString(16).padStart(prec, '0') : '';
  } else {
    digits = frac.toString(16).padStart(15, '0');
    digits = prec === undefined ? digits.replace(/0+$/, '') : digits.padEnd(prec, '0');
  }
  const point = digits || alt ? '.' : '';
  return `0x${lead.toString(16)}${point}${digits}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
}
