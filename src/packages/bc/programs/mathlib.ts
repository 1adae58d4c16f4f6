// The -l math library: s(x) c(x) a(x) l(x) e(x) j(n,x). Each is computed in
// fixed point with guard digits beyond `scale` and then truncated to `scale`
// digits, so results are the true values truncated (GNU's library, written
// in bc, is sometimes one unit off in the last digit at small scales).

import { Num, pow10 } from './number.js';

const GUARD = 12;

/** Fixed-point helpers: v stands for v / 10^w. */
class Fixed {
  readonly one: bigint;
  constructor(readonly w: number) {
    this.one = pow10(w);
  }
  from(x: Num): bigint {
    return x.rescale(this.w).n;
  }
  mul(a: bigint, b: bigint): bigint {
    return (a * b) / this.one;
  }
  div(a: bigint, b: bigint): bigint {
    return (a * this.one) / b;
  }
  /** The value truncated to `scale` digits. */
  result(v: bigint, scale: number): Num {
    return new Num(v, this.w).rescale(scale);
  }
}

/** Decimal digits of the integer part of |x|. */
const magnitude = (x: Num): number => (x.trunc() === 0n ? 0 : (x.trunc() < 0n ? -x.trunc() : x.trunc()).toString().length);

/** atan(z) for |z| <= 1/2, by its Taylor series. */
function atanSeries(f: Fixed, z: bigint): bigint {
  let sum = 0n;
  let pw = z;
  const z2 = f.mul(z, z);
  for (let k = 0n; pw !== 0n; k++) {
    const term = pw / (2n * k + 1n);
    sum += k % 2n === 0n ? term : -term;
    pw = f.mul(pw, z2);
  }
  return sum;
}

/** pi at f.w digits (Machin's formula). */
function pi(f: Fixed): bigint {
  return 4n * (4n * atanSeries(f, f.one / 5n) - atanSeries(f, f.one / 239n));
}

/** e^x for |x| <= 1, by its Taylor series. */
function expSmall(f: Fixed, x: bigint): bigint {
  let sum = f.one;
  let term = f.one;
  for (let k = 1n; term !== 0n; k++) {
    term = f.mul(term, x) / k;
    sum += term;
  }
  return sum;
}

export function exp(x: Num, scale: number): Num {
  // e^x has about 0.4343 * x integer digits; keep `scale` digits after the point.
  const big = x.isNeg() ? 0 : Math.ceil(Number(x.trunc()) * 0.4343) + 1;
  const halvings = Math.max(0, magnitude(x) * 4 + 1);
  const f = new Fixed(scale + big + GUARD + halvings);
  let v = f.from(x) >> BigInt(halvings);
  v = expSmall(f, v);
  for (let i = 0; i < halvings; i++) v = f.mul(v, v);
  return f.result(v, scale);
}

/** 2 * atanh(z) = ln((1 + z) / (1 - z)) for small z. */
function atanh2(f: Fixed, z: bigint): bigint {
  let sum = 0n;
  let pw = z;
  const z2 = f.mul(z, z);
  for (let k = 0n; pw !== 0n; k++) {
    sum += pw / (2n * k + 1n);
    pw = f.mul(pw, z2);
  }
  return 2n * sum;
}

export function ln(x: Num, scale: number): Num {
  // GNU's library gives (1 - 10^scale) for x <= 0.
  if (x.isNeg() || x.isZero()) return Num.ONE.sub(new Num(pow10(scale), 0)).rescale(scale);
  const f = new Fixed(scale + GUARD + magnitude(x) + Math.max(0, x.scale));
  let v = f.from(x);
  // x = m * 2^k with m in [1, 2): ln x = ln m + k ln 2.
  let k = 0;
  while (v >= 2n * f.one) {
    v /= 2n;
    k++;
  }
  while (v < f.one) {
    v *= 2n;
    k--;
  }
  const lnm = atanh2(f, f.div(v - f.one, v + f.one));
  const ln2 = atanh2(f, f.one / 3n);
  return f.result(lnm + BigInt(k) * ln2, scale);
}

export function atan(x: Num, scale: number): Num {
  const f = new Fixed(scale + GUARD);
  let v = f.from(x);
  const neg = v < 0n;
  if (neg) v = -v;
  let r: bigint;
  const invert = v > f.one;
  if (invert) v = f.div(f.one, v);
  // atan(v) = 2 atan(v / (1 + sqrt(1 + v^2))), twice, brings v below 1/4.
  let doublings = 0n;
  while (v > f.one / 4n) {
    v = f.div(v, f.one + sqrtFixed(f, f.one + f.mul(v, v)));
    doublings++;
  }
  r = atanSeries(f, v) << doublings;
  if (invert) r = pi(f) / 2n - r;
  return f.result(neg ? -r : r, scale);
}

function sqrtFixed(f: Fixed, v: bigint): bigint {
  return new Num(v, f.w).sqrt(f.w).n;
}

/** sin or cos of x: reduced modulo 2pi, then the Taylor series. */
function trig(x: Num, scale: number, cos: boolean): Num {
  const f = new Fixed(scale + GUARD + 2 * magnitude(x));
  const p = pi(f);
  let v = f.from(x) % (2n * p);
  if (v > p) v -= 2n * p;
  if (v < -p) v += 2n * p;
  const v2 = f.mul(v, v);
  let term = cos ? f.one : v;
  let sum = term;
  for (let k = cos ? 1n : 2n; term !== 0n; k += 2n) {
    term = -f.mul(term, v2) / (k * (k + 1n));
    sum += term;
  }
  return f.result(sum, scale);
}

export const sin = (x: Num, scale: number): Num => trig(x, scale, false);
export const cos = (x: Num, scale: number): Num => trig(x, scale, true);

/** The Bessel function of the first kind of integer order n. */
export function bessel(n: Num, x: Num, scale: number): Num {
  let order = n.trunc();
  const negOrder = order < 0n;
  if (negOrder) order = -order;
  // The terms grow to about e^|x| before they shrink: carry that many more digits.
  const ax = x.trunc() < 0n ? -x.trunc() : x.trunc();
  const f = new Fixed(scale + GUARD + Math.ceil(Number(ax) * 0.4343) + 2);
  const half = f.from(x) / 2n;
  const h2 = f.mul(half, half);
  // First term (x/2)^n / n!.
  let term = f.one;
  for (let k = 1n; k <= order; k++) term = f.mul(term, half) / k;
  let sum = term;
  for (let k = 1n; term !== 0n; k++) {
    term = -f.mul(term, h2) / (k * (k + order));
    sum += term;
  }
  if (negOrder && order % 2n === 1n) sum = -sum;
  return f.result(sum, scale);
}
