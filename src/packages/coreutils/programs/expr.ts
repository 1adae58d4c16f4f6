// expr EXPRESSION: evaluate an expression (GNU grammar, arbitrary-precision integers).
// Exit status: 0 if the result is neither null nor 0, 1 if it is, 2 if the
// expression is invalid, 3 for other errors.

import { command, Exit, latin1Bytes, quote } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { charCount, charOffset, decode, encode, splitChars } from '../../../userland/lib/utf8.js';
import { byteRegExp, RegexError, translate } from '../../../userland/lib/regex/regex.js';

const USAGE = `Usage: expr EXPRESSION
  or:  expr OPTION

      --help     display this help and exit
      --version  output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
`;

type Val = string | bigint;

class ExprError extends Error {}

const INT = /^\s*[-+]?\d+$/;
const isNull = (v: Val): boolean => (typeof v === 'bigint' ? v === 0n : /^-?0*$/.test(v) && v !== '-');
const toInt = (v: Val): bigint | null => (typeof v === 'bigint' ? v : INT.test(v) ? BigInt(v.trim()) : null);
const str = (v: Val): string => String(v);

/**
 * The arguments are byte strings (one char per byte, as output is written);
 * with `utf8` the string operators count characters, as GNU expr does in a
 * UTF-8 locale.
 */
class Parser {
  private i = 0;
  constructor(
    private readonly args: string[],
    private readonly utf8: boolean,
  ) {}

  private peek(s: string): boolean {
    return this.args[this.i] === s;
  }

  private next(s: string): boolean {
    if (!this.peek(s)) return false;
    this.i++;
    return true;
  }

  private get done(): boolean {
    return this.i >= this.args.length;
  }

  run(): Val {
    const v = this.or(true);
    if (!this.done) throw new ExprError(`syntax error: unexpected argument ${quote(decode(this.args[this.i]))}`);
    return v;
  }

  private or(ev: boolean): Val {
    let l = this.and(ev);
    while (this.next('|')) {
      const r = this.and(ev && isNull(l));
      if (isNull(l)) l = isNull(r) ? 0n : r;
    }
    return l;
  }

  private and(ev: boolean): Val {
    let l = this.cmp(ev);
    while (this.next('&')) {
      const r = this.cmp(ev && !isNull(l));
      if (isNull(l) || isNull(r)) l = 0n;
    }
    return l;
  }

  private cmp(ev: boolean): Val {
    let l = this.sum(ev);
    for (;;) {
      const op = ['<', '<=', '=', '==', '!=', '>=', '>'].find((o) => this.peek(o));
      if (!op) return l;
      this.i++;
      const r = this.sum(ev);
      const [a, b] = [toInt(l), toInt(r)];
      const c = a !== null && b !== null ? (a < b ? -1 : a > b ? 1 : 0) : compareBytes(str(l), str(r));
      const ok = { '<': c < 0, '<=': c <= 0, '=': c === 0, '==': c === 0, '!=': c !== 0, '>=': c >= 0, '>': c > 0 }[op];
      l = ok ? 1n : 0n;
    }
  }

  private sum(ev: boolean): Val {
    let l = this.prod(ev);
    for (;;) {
      const op = this.next('+') ? '+' : this.next('-') ? '-' : '';
      if (!op) return l;
      const r = this.prod(ev);
      if (ev) l = arith(l, r, op);
    }
  }

  private prod(ev: boolean): Val {
    let l = this.colon(ev);
    for (;;) {
      const op = ['*', '/', '%'].find((o) => this.peek(o));
      if (!op) return l;
      this.i++;
      const r = this.colon(ev);
      if (ev) l = arith(l, r, op);
    }
  }

  private colon(ev: boolean): Val {
    let l = this.unary(ev);
    while (this.next(':')) {
      const r = this.unary(ev);
      if (ev) l = match(str(l), str(r), this.utf8);
    }
    return l;
  }

  private unary(ev: boolean): Val {
    if (this.done) return this.primary();
    if (this.next('+')) {
      if (this.done) this.missing();
      return this.args[this.i++];
    }
    if (this.next('length')) {
      const s = str(this.unary(ev));
      return BigInt(this.utf8 ? charCount(s) : s.length);
    }
    if (this.next('match')) {
      const s = this.unary(ev);
      const re = this.unary(ev);
      return ev ? match(str(s), str(re), this.utf8) : 0n;
    }
    if (this.next('index')) {
      const split = this.utf8 ? splitChars : (x: string) => x.split('');
      const s = split(str(this.unary(ev)));
      const chars = split(str(this.unary(ev)));
      return BigInt(s.findIndex((ch) => chars.includes(ch)) + 1);
    }
    if (this.next('substr')) {
      const s = str(this.unary(ev));
      const n = this.utf8 ? charCount(s) : s.length;
      const [pos, len] = [toInt(this.unary(ev)), toInt(this.unary(ev))];
      if (pos === null || len === null || pos <= 0n || len <= 0n || pos > BigInt(n)) return '';
      const count = Number(len > BigInt(n) ? BigInt(n) : len);
      if (!this.utf8) return s.substr(Number(pos) - 1, count);
      const from = charOffset(s, Number(pos) - 1);
      return s.slice(from, from + charOffset(s.slice(from), count));
    }
    return this.primary();
  }

  private missing(): never {
    throw new ExprError(`syntax error: missing argument after ${quote(decode(this.args[this.i - 1]))}`);
  }

  private primary(): Val {
    if (this.done) {
      if (this.i === 0) throw new ExprError('syntax error');
      this.missing();
    }
    if (this.next('(')) {
      const v = this.or(true);
      if (this.done) throw new ExprError(`syntax error: expecting ')' after ${quote(decode(this.args[this.i - 1]))}`);
      if (!this.next(')')) throw new ExprError(`syntax error: expecting ')' instead of ${quote(decode(this.args[this.i]))}`);
      return v;
    }
    if (this.peek(')')) throw new ExprError(`syntax error: unexpected ')'`);
    return this.args[this.i++];
  }
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function arith(l: Val, r: Val, op: string): bigint {
  const [a, b] = [toInt(l), toInt(r)];
  if (a === null || b === null) throw new ExprError('non-integer argument');
  if ((op === '/' || op === '%') && b === 0n) throw new ExprError('division by zero');
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return a % b;
  }
}

/** STRING : REGEXP — anchored BRE; the first \( \) group's text, else the match length (in characters when `utf8`). */
function match(s: string, pattern: string, utf8: boolean): Val {
  let t;
  try {
    t = translate(pattern, 'bre', 0, { utf8 });
  } catch (e) {
    if (e instanceof RegexError) throw new ExprError(e.message);
    throw e;
  }
  const m = byteRegExp(`^(?:${t.source})`, t.ascii && `^(?:${t.ascii.source})`, 's').exec(s);
  if (t.groups > 0) return m?.[1] ?? '';
  return BigInt(m ? (utf8 ? charCount(m[0]) : m[0].length) : 0);
}

export const expr = command({ name: 'expr', usage: USAGE, rawArgs: true, failStatus: 2 }, (c) => {
  let args = c.operands;
  if (args[0] === '--help') {
    c.out.write(USAGE);
    return 0;
  }
  if (args[0] === '--version') {
    c.out.write('expr (agentOS coreutils 0.1.0)\n');
    return 0;
  }
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) c.usage('missing operand');
  let v: Val;
  try {
    v = new Parser(args.map(encode), isUtf8Locale(c.os.env)).run();
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    c.warn(e.message);
    throw new Exit(2);
  }
  c.out.write(latin1Bytes(`${str(v)}\n`));
  return isNull(v) ? 1 : 0;
});
