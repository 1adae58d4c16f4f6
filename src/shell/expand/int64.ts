// bash arithmetic is C `intmax_t`: 64-bit signed with wrap-around. Values are
// JS numbers while they are exact (the fast, common case) and bigints only
// outside the safe range, so every result is normalised by `norm`.

export type Int = number | bigint;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Wraps to 64 bits and returns a number whenever that is exact. */
export function norm(b: bigint): Int {
  const w = BigInt.asIntN(64, b);
  return w <= SAFE && w >= -SAFE ? Number(w) : w;
}

const big = (a: Int): bigint => (typeof a === 'bigint' ? a : BigInt(a));
const int32 = (a: Int): boolean => typeof a === 'number' && a <= 0x7fffffff && a >= -0x80000000;

export const isZero = (a: Int): boolean => a === 0;

export function add(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  return norm(big(a) + big(b));
}

export function sub(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isSafeInteger(r)) return r;
  }
  return norm(big(a) - big(b));
}

export function mul(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    // A product that fits is computed exactly; `|| 0` drops the -0 of `0 * -1`.
    if (Number.isSafeInteger(r)) return r || 0;
  }
  return norm(big(a) * big(b));
}

/** Truncating division; the caller has checked for zero. INT64_MIN / -1 wraps like bash. */
export function div(a: Int, b: Int): Int {
  // Below 2^52 the rounded quotient cannot cross an integer, so trunc is exact.
  if (typeof a === 'number' && typeof b === 'number' && Math.abs(a) < 2 ** 52) return Math.trunc(a / b) || 0;
  return norm(big(a) / big(b));
}

export function mod(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') return a % b || 0;
  return norm(big(a) % big(b));
}

/** `**` with a non-negative exponent (checked by the caller), by squaring in 64 bits. */
export function pow(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number' && b < 64) {
    const r = a ** b;
    if (Number.isSafeInteger(r) && Math.abs(r) < 2 ** 52) return r;
  }
  let base = big(a);
  let e = big(b);
  let r = 1n;
  while (e > 0n) {
    if (e & 1n) r = BigInt.asIntN(64, r * base);
    base = BigInt.asIntN(64, base * base);
    e >>= 1n;
  }
  return norm(r);
}

/** Shift counts are taken modulo 64, as the x86-64 shift instructions bash compiles to do. */
const count = (b: Int): number => Number(big(b) & 63n);

export function shl(a: Int, b: Int): Int {
  const n = count(b);
  if (typeof a === 'number') {
    const r = a * 2 ** n;
    if (Number.isSafeInteger(r)) return r;
  }
  return norm(big(a) << BigInt(n));
}

export function shr(a: Int, b: Int): Int {
  const n = count(b);
  // Dividing by a power of two is exact in floating point; floor gives the arithmetic shift.
  if (typeof a === 'number') return Math.floor(a / 2 ** n);
  return norm(a >> BigInt(n));
}

export function band(a: Int, b: Int): Int {
  return int32(a) && int32(b) ? (a as number) & (b as number) : norm(big(a) & big(b));
}

export function bor(a: Int, b: Int): Int {
  return int32(a) && int32(b) ? (a as number) | (b as number) : norm(big(a) | big(b));
}

export function bxor(a: Int, b: Int): Int {
  return int32(a) && int32(b) ? (a as number) ^ (b as number) : norm(big(a) ^ big(b));
}

export function neg(a: Int): Int {
  return typeof a === 'number' ? -a || 0 : norm(-a);
}

export function bnot(a: Int): Int {
  if (typeof a === 'number') {
    const r = -a - 1;
    if (Number.isSafeInteger(r)) return r;
  }
  return norm(~big(a));
}

export const lt = (a: Int, b: Int): boolean => a < b;
export const eq = (a: Int, b: Int): boolean => a === b;

/** Decimal text, exact for every value. */
export const intString = (a: Int): string => String(a);

/** A decimal integer parsed with 64-bit wrap-around (bash accumulates in intmax_t). */
export function fromDecimal(s: string): Int {
  return s.length < 16 ? Number(s) : norm(BigInt(s));
}
