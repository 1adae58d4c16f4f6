// libm builtins: one-argument functions of the input, two- and
// three-argument functions of their arguments (C builtins: every
// combination, the last argument outermost). Functions JavaScript lacks
// (gamma, Bessel, frexp, nextafter, ...) are computed here.

import { describe } from './ops.js';
import { err, isNum, num, type Json } from './value.js';
import type { Table } from './natives.js';

const need = (v: Json): number => {
  if (!isNum(v)) throw err(`${describe(v)} number required`);
  return num(v);
};

/** Round half to even (rint, nearbyint). */
function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Round half away from zero (C round). */
const round = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let m = x * 2 ** -e;
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) >= 1) {
    m /= 2;
    e++;
  }
  return [m, e];
}

const logb = (x: number): number => (x === 0 ? -Infinity : !Number.isFinite(x) ? Math.abs(x) : frexp(x)[1] - 1);

const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.61503916999186,
  12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];

/** Γ(x) by the Lanczos approximation (reflection below 0.5). */
function tgamma(x: number): number {
  if (Number.isInteger(x) && x <= 0) return NaN;
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * tgamma(1 - x));
  if (Number.isInteger(x) && x <= 171) {
    let r = 1;
    for (let i = 2; i < x; i++) r *= i;
    return r;
  }
  x -= 1;
  let a = LANCZOS[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
  return Math.sqrt(2 * Math.PI) * t ** (x + 0.5) * Math.exp(-t) * a;
}

function lgamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  if (x < 100) return Math.log(Math.abs(tgamma(x)));
  // Stirling's series for large arguments.
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3);
}

const gammaSign = (x: number): number => (x > 0 || Math.floor(x) % 2 === 0 ? 1 : -1);

/** Bessel functions of the first kind by power series (small x) or the asymptotic form. */
function besselJ(n: number, x: number): number {
  if (Math.abs(x) > 25) {
    const w = x - (n * Math.PI) / 2 - Math.PI / 4;
    return Math.sqrt(2 / (Math.PI * x)) * Math.cos(w);
  }
  let term = (x / 2) ** n / tgamma(n + 1);
  let sum = term;
  for (let m = 1; m < 200; m++) {
    term *= -((x / 2) ** 2) / (m * (m + n));
    sum += term;
    if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}

/** Bessel functions of the second kind (Neumann) from the first kind. */
function besselY(n: number, x: number): number {
  if (x <= 0) return x === 0 ? -Infinity : NaN;
  if (x > 25) {
    const w = x - (n * Math.PI) / 2 - Math.PI / 4;
    return Math.sqrt(2 / (Math.PI * x)) * Math.sin(w);
  }
  const h = 1e-7;
  const nu = n + h;
  const jnu = (v: number) => {
    let term = (x / 2) ** v / tgamma(v + 1);
    let sum = term;
    for (let m = 1; m < 200; m++) {
      term *= -((x / 2) ** 2) / (m * (m + v));
      sum += term;
    }
    return sum;
  };
  return (jnu(nu) * Math.cos(nu * Math.PI) - jnu(-nu)) / Math.sin(nu * Math.PI);
}

function nextafter(x: number, y: number): number {
  if (x !== x || y !== y) return NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? 5e-324 : -5e-324;
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  let bits = b.getBigUint64(0);
  bits += (y > x) === (x > 0) ? 1n : -1n;
  b.setBigUint64(0, bits);
  return b.getFloat64(0);
}

/** IEEE remainder: x - n*y with n = x/y rounded half to even. */
const remainder = (x: number, y: number): number => (y === 0 ? NaN : x - rint(x / y) * y);

const ONE: Record<string, (x: number) => Json> = {
  floor: Math.floor,
  ceil: Math.ceil,
  round,
  rint,
  nearbyint: rint,
  trunc: Math.trunc,
  fabs: Math.abs,
  sqrt: Math.sqrt,
  cbrt: Math.cbrt,
  exp: Math.exp,
  exp2: (x) => 2 ** x,
  exp10: (x) => 10 ** x,
  expm1: Math.expm1,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  log1p: Math.log1p,
  logb,
  significand: (x) => (x === 0 || !Number.isFinite(x) ? x : x / 2 ** logb(x)),
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  gamma: lgamma,
  lgamma,
  tgamma,
  lgamma_r: (x) => [lgamma(x), gammaSign(x)],
  frexp: (x) => frexp(x),
  modf: (x) => {
    const i = Math.trunc(x);
    return [Number.isFinite(x) ? x - i : 0, i];
  },
  j0: (x) => besselJ(0, x),
  j1: (x) => besselJ(1, x),
  y0: (x) => besselY(0, x),
  y1: (x) => besselY(1, x),
};

const TWO: Record<string, (x: number, y: number) => number> = {
  pow: (x, y) => x ** y,
  atan2: Math.atan2,
  fmod: (x, y) => x % y,
  fmin: (x, y) => (x !== x ? y : y !== y ? x : Math.min(x, y)),
  fmax: (x, y) => (x !== x ? y : y !== y ? x : Math.max(x, y)),
  fdim: (x, y) => (x > y ? x - y : 0),
  hypot: Math.hypot,
  copysign: (x, y) => (Object.is(y, -0) || y < 0 ? -Math.abs(x) : Math.abs(x)),
  drem: remainder,
  remainder,
  ldexp: (x, e) => x * 2 ** Math.trunc(e),
  scalb: (x, e) => x * 2 ** e,
  scalbln: (x, e) => x * 2 ** Math.trunc(e),
  nextafter,
  nexttoward: nextafter,
  jn: (n, x) => besselJ(Math.trunc(n), x),
  yn: (n, x) => besselY(Math.trunc(n), x),
};

export const MATH: Table = {
  'infinite/0': { fn: () => Infinity },
  'nan/0': { fn: () => NaN },
  'isinfinite/0': { fn: (v) => Math.abs(need(v)) === Infinity },
  'isnan/0': { fn: (v) => Number.isNaN(need(v)) },
  'isnormal/0': {
    fn: (v) => {
      const x = Math.abs(need(v));
      return Number.isFinite(x) && x >= 2.2250738585072014e-308;
    },
  },
  'fma/3': { fn: (_v, [x, y, z]) => need(x) * need(y) + need(z) },
};
for (const [name, f] of Object.entries(ONE)) MATH[`${name}/0`] = { fn: (v) => f(need(v)) };
for (const [name, f] of Object.entries(TWO)) MATH[`${name}/2`] = { fn: (_v, [x, y]) => f(need(x), need(y)) };
