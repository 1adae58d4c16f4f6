// bc's numbers: arbitrary-precision decimals, value = n / 10^scale, with the
// scale rules of POSIX/GNU bc (every result is truncated, never rounded).

export class BcError extends Error {}

const pow10Cache: bigint[] = [];
export function pow10(k: number): bigint {
  if (k < 64) return (pow10Cache[k] ??= 10n ** BigInt(k));
  return 10n ** BigInt(k);
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

export class Num {
  constructor(
    readonly n: bigint,
    readonly scale: number,
  ) {}

  static readonly ZERO = new Num(0n, 0);
  static readonly ONE = new Num(1n, 0);

  static int(v: number | bigint): Num {
    return new Num(BigInt(v), 0);
  }

  isZero(): boolean {
    return this.n === 0n;
  }

  isNeg(): boolean {
    return this.n < 0n;
  }

  /** The same value at another scale, truncating when it shrinks. */
  rescale(s: number): Num {
    if (s === this.scale) return this;
    if (s > this.scale) return new Num(this.n * pow10(s - this.scale), s);
    return new Num(this.n / pow10(this.scale - s), s);
  }

  /** The integer part (truncated toward zero). */
  trunc(): bigint {
    return this.n / pow10(this.scale);
  }

  /** Digits before the point (at least 1), as bc's n_len. */
  intDigits(): number {
    const i = abs(this.trunc());
    return i === 0n ? 1 : i.toString().length;
  }

  cmp(b: Num): number {
    const s = Math.max(this.scale, b.scale);
    const x = this.rescale(s).n;
    const y = b.rescale(s).n;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  add(b: Num): Num {
    const s = Math.max(this.scale, b.scale);
    return new Num(this.rescale(s).n + b.rescale(s).n, s);
  }

  sub(b: Num): Num {
    const s = Math.max(this.scale, b.scale);
    return new Num(this.rescale(s).n - b.rescale(s).n, s);
  }

  /** Product at min(s1 + s2, max(scale, s1, s2)) digits. */
  mul(b: Num, scale: number): Num {
    const full = new Num(this.n * b.n, this.scale + b.scale);
    return full.rescale(Math.min(full.scale, Math.max(scale, this.scale, b.scale)));
  }

  /** Quotient at `scale` digits. */
  div(b: Num, scale: number): Num {
    if (b.isZero()) throw new BcError('Divide by zero');
    // n1/10^s1 / (n2/10^s2) * 10^scale = n1 * 10^(scale + s2 - s1) / n2
    const e = scale + b.scale - this.scale;
    const q = e >= 0 ? (this.n * pow10(e)) / b.n : this.n / (b.n * pow10(-e));
    return new Num(q, scale);
  }

  /** a - (a / b) * b, the quotient at `scale` digits; the result at max(s1, s2 + scale). */
  mod(b: Num, scale: number): Num {
    if (b.isZero()) throw new BcError('Modulo by zero');
    const rscale = Math.max(this.scale, b.scale + scale);
    const q = this.div(b, scale);
    return this.sub(q.mul(b, rscale)).rescale(rscale);
  }

  /** this ^ e for an integer e (a fraction is dropped by the caller, with a warning). */
  pow(e: bigint, scale: number): Num {
    if (e === 0n) return Num.ONE;
    const neg = e < 0n;
    const k = neg ? -e : e;
    if (k > 2_000_000_000n) throw new BcError('exponent too large in raise');
    const exact = new Num(this.n ** k, this.scale * Number(k));
    if (neg) return Num.ONE.div(exact, scale);
    return exact.rescale(Math.min(exact.scale, Math.max(scale, this.scale)));
  }

  /** Square root truncated at max(scale, own scale) digits. */
  sqrt(scale: number): Num {
    if (this.isNeg()) throw new BcError('Square root of a negative number');
    const rs = Math.max(scale, this.scale);
    // sqrt(n / 10^s) * 10^rs = sqrt(n * 10^(2rs - s))
    return new Num(isqrt(this.n * pow10(2 * rs - this.scale)), rs);
  }

  /** bc's length(): significant digits (for 0.xxx the leading zero is not one). */
  length(): number {
    if (this.intDigits() === 1 && this.scale !== 0 && this.trunc() === 0n) return this.scale;
    return this.intDigits() + this.scale;
  }

  /** The value as a JS integer (truncated), for indexes, bases and the like. */
  toInt(): number {
    return Number(this.trunc());
  }
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton from above (2^ceil(bits/2) >= sqrt(n)): decreases to the floor.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * A numeric literal in base `ibase`, as bc converts it: a lone digit keeps
 * its value whatever the base; in longer numbers digits too big for the base
 * count as base-1; the scale is the number of digits after the point.
 */
export function parseNumber(text: string, ibase: number): Num {
  const digit = (c: string) => (c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55);
  const [ip, fp] = text.split('.') as [string, string | undefined];
  if (ip.length === 1 && (fp === undefined || fp === '') && text.length === 1) return Num.int(digit(ip));
  const base = BigInt(ibase);
  const clamp = (d: number) => BigInt(d >= ibase ? ibase - 1 : d);
  let v = 0n;
  for (const c of ip) v = v * base + clamp(digit(c));
  let num = Num.int(v);
  if (fp) {
    let f = 0n;
    let div = 1n;
    for (const c of fp) {
      f = f * base + clamp(digit(c));
      div *= base;
    }
    num = num.add(new Num(f, 0).div(new Num(div, 0), fp.length));
  }
  return num;
}

const DIGITS = '0123456789ABCDEF';

/** A number as bc prints it in base `obase` (without line wrapping). */
export function formatNumber(x: Num, obase: number): string {
  if (x.isZero()) return '0';
  let s = x.isNeg() ? '-' : '';
  const a = x.isNeg() ? new Num(-x.n, x.scale) : x;
  if (obase === 10) {
    const digits = a.n.toString().padStart(a.scale + 1, '0');
    const ip = digits.slice(0, digits.length - a.scale);
    if (ip !== '0') s += ip;
    if (a.scale > 0) s += `.${digits.slice(digits.length - a.scale)}`;
    return s;
  }
  const base = BigInt(obase);
  const width = String(obase - 1).length;
  const big = obase > 16;
  const digit = (d: number, space: boolean) => (big ? `${space ? ' ' : ''}${String(d).padStart(width, '0')}` : DIGITS[d]);
  let ip = a.trunc();
  const out: string[] = [];
  while (ip > 0n) {
    out.push(digit(Number(ip % base), true));
    ip /= base;
  }
  s += out.reverse().join('');
  if (a.scale > 0) {
    s += '.';
    let frac = a.sub(Num.int(a.trunc()));
    let t = 1n;
    let first = true;
    while (t.toString().length <= a.scale) {
      frac = frac.mul(Num.int(base), a.scale);
      const d = frac.trunc();
      frac = frac.sub(Num.int(d));
      s += digit(Number(d), !first);
      first = false;
      t *= base;
    }
  }
  return s;
}
