// seq [-s SEP] [-w] [FIRST [INCREMENT]] LAST: print a sequence of numbers.

import { command, quote } from '../../../userland/lib/index.js';

const USAGE = `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help     display this help and exit
      --version  output version information and exit
`;

/** Digits after the decimal point as written (exponents are not supported). */
const decimals = (s: string): number => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);

export const seq = command(
  {
    name: 'seq',
    usage: USAGE,
    short: 's:w',
    long: { separator: ['s', 'required'], 'equal-width': ['w', 'none'] },
    numericOperands: true,
  },
  (c) => {
    const ops = c.operands;
    if (ops.length === 0) c.usage('missing operand');
    if (ops.length > 3) c.usage(`extra operand ${quote(ops[3])}`);
    const nums = ops.map((s) => {
      const t = s.trim();
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) c.usage(`invalid floating point argument: ${quote(s)}`);
      return Number(t);
    });
    const [first, step, last] = ops.length === 1 ? [1, 1, nums[0]] : ops.length === 2 ? [nums[0], 1, nums[1]] : nums;
    if (step === 0) c.usage(`invalid Zero increment value: ${quote(ops[1])}`);
    const prec = Math.max(ops.length > 1 ? decimals(ops[0]) : 0, ops.length === 3 ? decimals(ops[1]) : 0);
    const sep = c.get('s') ?? '\n';
    const fmt = (v: number) => v.toFixed(prec);
    let width = 0;
    if (c.has('w')) width = Math.max(fmt(first).length, ops.length ? fmt(last).length : 0);
    const pad = (s: string) => {
      if (s.length >= width) return s;
      return s.startsWith('-') ? '-' + s.slice(1).padStart(width - 1, '0') : s.padStart(width, '0');
    };
    let n = 0;
    // Compute each term from FIRST so floating error does not accumulate.
    for (let v = first; step > 0 ? v <= last : v >= last; v = first + ++n * step) {
      c.out.write((n ? sep : '') + pad(fmt(v)));
    }
    if (n) c.out.write('\n');
  },
);
