// test EXPR / [ EXPR ] — POSIX's rules by argument count, then bash's precedence parser.

import { binaryTest, BINARY, unaryTest, UNARY } from '../test-ops.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../../errors.js';
import type { Builtin } from './types.js';

export const test: Builtin = (sh, argv) => {
  let args = argv.slice(1);
  const name = argv[0];
  if (name === '[') {
    if (args[args.length - 1] !== ']') {
      sh.error('[: missing `]\'');
      return 2;
    }
    args = args.slice(0, -1);
  }
  try {
    return evaluate(sh, args) ? 0 : 1;
  } catch (e) {
    if (!(e instanceof ShellError)) throw e;
    sh.error(`${name}: ${e.message}`);
    return 2;
  }
};

function evaluate(sh: Shell, a: string[]): boolean {
  switch (a.length) {
    case 0:
      return false;
    case 1:
      return a[0] !== '';
    case 2:
      if (a[0] === '!') return a[1] === '';
      if (UNARY.has(a[0])) return unaryTest(sh, a[0], a[1]);
      throw new ShellError(`${a[0]}: unary operator expected`, 2);
    case 3:
      if (BINARY.has(a[1])) return binaryTest(sh, a[1], a[0], a[2]);
      if (a[1] === '-a') return a[0] !== '' && a[2] !== '';
      if (a[1] === '-o') return a[0] !== '' || a[2] !== '';
      if (a[0] === '!') return !evaluate(sh, a.slice(1));
      if (a[0] === '(' && a[2] === ')') return a[1] !== '';
      throw new ShellError(`${a[1]}: binary operator expected`, 2);
    case 4:
      if (a[0] === '!') return !evaluate(sh, a.slice(1));
      if (a[0] === '(' && a[3] === ')') return evaluate(sh, a.slice(1, 3));
      break;
  }
  const p = new Parser(sh, a);
  const v = p.or();
  if (p.pos < a.length) throw new ShellError(`${a[p.pos]}: unexpected argument`, 2);
  return v;
}

class Parser {
  pos = 0;
  constructor(private sh: Shell, private a: string[]) {}

  or(): boolean {
    let v = this.and();
    while (this.a[this.pos] === '-o') {
      this.pos++;
      const r = this.and();
      v = v || r;
    }
    return v;
  }

  and(): boolean {
    let v = this.not();
    while (this.a[this.pos] === '-a') {
      this.pos++;
      const r = this.not();
      v = v && r;
    }
    return v;
  }

  not(): boolean {
    if (this.a[this.pos] === '!') {
      this.pos++;
      return !this.not();
    }
    return this.primary();
  }

  primary(): boolean {
    const a = this.a;
    const t = a[this.pos];
    if (t === undefined) throw new ShellError('argument expected', 2);
    if (t === '(') {
      this.pos++;
      const v = this.or();
      if (a[this.pos] !== ')') throw new ShellError("`)' expected", 2);
      this.pos++;
      return v;
    }
    if (BINARY.has(a[this.pos + 1] ?? '') && a[this.pos + 2] !== undefined) {
      this.pos += 3;
      return binaryTest(this.sh, a[this.pos - 2], t, a[this.pos - 1]);
    }
    if (UNARY.has(t) && a[this.pos + 1] !== undefined) {
      this.pos += 2;
      return unaryTest(this.sh, t, a[this.pos - 1]);
    }
    this.pos++;
    return t !== '';
  }
}
