// seq [-f FORMAT] [-s SEP] [-w] [FIRST [INCREMENT]] LAST: print a sequence of numbers.

import { command, quote } from '../../../userland/lib/index.js';
import { formatFloat, type Spec } from '../../../userland/lib/printf/convert.js';
import { parseLongDouble } from '../../../userland/lib/printf/long-double.js';

const USAGE = `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help     display this help and exit
      --version  output version information and exit
`;

/** A -f FORMAT: text around exactly one floating-point conversion (%% is a percent sign). */
interface Format {
  before: string;
  spec: Spec;
  after: string;
}

/** Parse FORMAT as GNU seq does, or return the message that refuses it. */
function parseFormat(f: string): Format | string {
  const directive = /%([-+ #0']*)(\d*)(?:\.(\d*))?([a-zA-Z]?)/y;
  let text = '';
  let found: { at: string; spec: Spec } | null = null;
  for (let i = 0; i < f.length; ) {
    if (f[i] !== '%') {
      text += f[i++];
      continue;
    }
    if (f[i + 1] === '%') {
      text += '%';
      i += 2;
      continue;
    }
    directive.lastIndex = i;
    const m = directive.exec(f)!;
    if (found) return `format ${quote(f)} has too many % directives`;
    if (!/^[aAeEfFgG]$/.test(m[4])) return m[4] ? `format ${quote(f)} has unknown %${m[4]} directive` : `format ${quote(f)} ends in %`;
    found = { at: text, spec: { flags: m[1], width: m[2] ? Number(m[2]) : undefined, precision: m[3] === undefined ? undefined : Number(m[3] || 0), conv: m[4] } };
    text = '';
    i = directive.lastIndex;
  }
  if (!found) return `format ${quote(f)} has no % directive`;
  return { before: found.at, spec: found.spec, after: text };
}

/** Digits after the decimal point as written (exponents are not supported). */
const decimals = (s: string): number => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);

export const seq = command(
  {
    name: 'seq',
    usage: USAGE,
    short: 'f:s:w',
    long: { format: ['f', 'required'], separator: ['s', 'required'], 'equal-width': ['w', 'none'] },
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
    const format = c.get('f');
    if (format !== undefined && c.has('w')) c.usage('format string may not be specified when printing equal width strings');
    const parsed = format === undefined ? null : parseFormat(format);
    if (typeof parsed === 'string') return c.fail(parsed);
    const user = parsed;
    const fmt = user
      ? (v: number) => user.before + formatFloat(user.spec, parseLongDouble(String(v)).value) + user.after
      : (v: number) => v.toFixed(prec);
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
