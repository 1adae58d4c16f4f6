// factor [NUMBER]...: print the prime factors of each number (from stdin when
// none are given). BigInt arithmetic: trial division by small primes, then
// Miller–Rabin and Pollard's rho for what is left.

import { command, lines, type Cmd } from '../../../userland/lib/index.js';
import { str } from './text.js';

const USAGE = `Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

      --help     display this help and exit
      --version  output version information and exit
`;

function modpow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b %= m;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return r;
}

const WITNESSES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n];

function isPrime(n: bigint): boolean {
  if (n < 2n) return false;
  for (const p of WITNESSES) if (n % p === 0n) return n === p;
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  outer: for (const a of WITNESSES) {
    let x = modpow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let i = 1; i < s; i++) {
      x = (x * x) % n;
      if (x === n - 1n) continue outer;
    }
    return false;
  }
  return true;
}

const gcd = (a: bigint, b: bigint): bigint => {
  while (b) [a, b] = [b, a % b];
  return a;
};

/** A non-trivial factor of composite n (Brent's variant of Pollard's rho). */
function rho(n: bigint): bigint {
  if (n % 2n === 0n) return 2n;
  for (let c = 1n; ; c++) {
    const f = (x: bigint) => (x * x + c) % n;
    let x = 2n;
    let y = 2n;
    let d = 1n;
    while (d === 1n) {
      x = f(x);
      y = f(f(y));
      d = gcd(x > y ? x - y : y - x, n);
    }
    if (d !== n) return d;
  }
}

function factorize(n: bigint, out: bigint[]): void {
  if (n < 2n) return;
  for (const p of [2n, 3n, 5n]) {
    while (n % p === 0n) {
      out.push(p);
      n /= p;
    }
  }
  for (let p = 7n, i = 0; p * p <= n && p < 10000n; p += [4n, 2n, 4n, 2n, 4n, 6n, 2n, 6n][i++ % 8]) {
    while (n % p === 0n) {
      out.push(p);
      n /= p;
    }
  }
  const stack = n > 1n ? [n] : [];
  const big: bigint[] = [];
  while (stack.length) {
    const m = stack.pop()!;
    if (isPrime(m)) big.push(m);
    else {
      const d = rho(m);
      stack.push(d, m / d);
    }
  }
  out.push(...big.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}

function one(c: Cmd, token: string): void {
  const t = token.replace(/^\+/, '');
  if (!/^\d+$/.test(t)) {
    c.error(`'${token}' is not a valid positive integer`);
    return;
  }
  const n = BigInt(t);
  const fs: bigint[] = [];
  factorize(n, fs);
  c.out.write(`${n}:${fs.map((f) => ` ${f}`).join('')}\n`);
}

export const factor = command({ name: 'factor', usage: USAGE, numericOperands: true }, (c) => {
  if (c.operands.length) {
    for (const a of c.operands) one(c, a.trim());
    return;
  }
  for (const l of lines(c.sys, 0)) {
    for (const tok of str(l).split(/[ \t\n]+/)) if (tok !== '') one(c, tok);
  }
});
