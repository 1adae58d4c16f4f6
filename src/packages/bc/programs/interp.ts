// Running bc: variables and arrays with dynamic scoping (a call pushes its
// parameters and autos on each name's stack), the special variables, output
// with GNU's 70-column line continuation, and runtime errors and warnings.

import type { Arg, Expr, Func, LValue, Stmt } from './ast.js';
import { atan, bessel, cos, exp, ln, sin } from './mathlib.js';
import { BcError, formatNumber, Num, parseNumber } from './number.js';

const DIM_MAX = 16777215;
const BASE_MAX = 2147483647;

type BcArray = Map<number, Num>;

/** A function built into the interpreter (the -l library). */
type Native = (args: Num[], scale: number) => Num;

/** How a statement ended. */
type Flow = null | 'break' | 'continue' | { ret: Num | null };

/** Ends the program (halt). */
export class Halt {}

const MATHLIB: Record<string, [number, Native]> = {
  s: [1, ([x], sc) => sin(x, sc)],
  c: [1, ([x], sc) => cos(x, sc)],
  a: [1, ([x], sc) => atan(x, sc)],
  l: [1, ([x], sc) => ln(x, sc)],
  e: [1, ([x], sc) => exp(x, sc)],
  j: [2, ([n, x], sc) => bessel(n, x, sc)],
};

export class Interp {
  ibase = 10;
  obase = 10;
  scale = 0;
  last = Num.ZERO;
  private readonly vars = new Map<string, Num[]>();
  private readonly arrays = new Map<string, BcArray[]>();
  private readonly funcs = new Map<string, Func>();
  private readonly natives = new Map<string, [number, Native]>();
  private col = 0;
  /** The function running (for error messages) and a count of operations done in it ("adr"). */
  private frame = { name: '(main)', adr: 0 };
  private readonly literals = new Map<string, Num>();

  constructor(
    private readonly write: (s: string) => void,
    private readonly warn: (s: string) => void,
    private readonly lineLength: number,
    /** read(): the next line of standard input, or null. */
    private readonly readLine: () => string | null,
  ) {}

  useMathLib(): void {
    for (const [name, def] of Object.entries(MATHLIB)) this.natives.set(name, def);
    this.scale = 20;
  }

  define(f: Func): void {
    this.funcs.set(f.name, f);
    this.natives.delete(f.name);
  }

  /** Output through GNU's column counter: a backslash-newline before the line gets too long. */
  out(s: string): void {
    let buf = '';
    for (const ch of s) {
      if (ch === '\n') this.col = 0;
      else {
        this.col++;
        if (this.lineLength !== 0 && this.col === this.lineLength - 1) {
          buf += '\\\n';
          this.col = 1;
        }
      }
      buf += ch;
    }
    this.write(buf);
  }

  /** Run the statements of one input item; a runtime error ends the item. */
  run(body: Stmt[]): void {
    this.frame = { name: '(main)', adr: 0 };
    try {
      this.block(body);
    } catch (e) {
      if (!(e instanceof BcError)) throw e;
      this.report('error', e.message, this.errorFrame ?? this.frame);
    }
    this.errorFrame = null;
  }

  /** Where a runtime error happened (the innermost function). */
  private errorFrame: { name: string; adr: number } | null = null;

  private report(kind: 'error' | 'warning', msg: string, at = this.frame): void {
    this.warn(`Runtime ${kind} (func=${at.name}, adr=${at.adr}): ${msg}\n`);
  }

  private block(body: Stmt[]): Flow {
    for (const s of body) {
      const f = this.stmt(s);
      if (f) return f;
    }
    return null;
  }

  private stmt(s: Stmt): Flow {
    switch (s.k) {
      case 'expr': {
        const e = s.e;
        if (e.k === 'call' && this.funcs.get(e.name)?.isVoid) {
          this.call(e.name, e.args);
          return null;
        }
        const v = this.eval(e);
        if (e.k !== 'assign') {
          this.out(`${formatNumber(v, this.obase)}\n`);
          this.last = v;
        }
        return null;
      }
      case 'str':
        this.out(s.v);
        return null;
      case 'print':
        for (const it of s.items) {
          if (it.k === 'str') this.out(escapes(it.v));
          else {
            const v = this.eval(it.e);
            this.out(formatNumber(v, this.obase));
            this.last = v;
          }
        }
        return null;
      case 'block':
        return this.block(s.body);
      case 'if':
        if (this.truth(s.cond)) return this.stmt(s.then);
        return s.else ? this.stmt(s.else) : null;
      case 'while':
        while (this.truth(s.cond)) {
          const f = this.stmt(s.body);
          if (f === 'break') break;
          if (f && f !== 'continue') return f;
        }
        return null;
      case 'for':
        if (s.init) this.eval(s.init);
        while (!s.cond || this.truth(s.cond)) {
          const f = this.stmt(s.body);
          if (f === 'break') break;
          if (f && f !== 'continue') return f;
          if (s.step) this.eval(s.step);
        }
        return null;
      case 'break':
      case 'continue':
        return s.k;
      case 'halt':
        throw new Halt();
      case 'return':
        return { ret: s.e ? this.eval(s.e) : null };
    }
  }

  private truth(e: Expr): boolean {
    return !this.eval(e).isZero();
  }

  eval(e: Expr): Num {
    this.frame.adr++;
    switch (e.k) {
      case 'num': {
        const key = `${this.ibase}:${e.text}`;
        let v = this.literals.get(key);
        if (!v) this.literals.set(key, (v = parseNumber(e.text, this.ibase)));
        return v;
      }
      case 'var':
      case 'elem':
      case 'special':
        return this.get(e);
      case 'assign': {
        let v = this.eval(e.value);
        if (e.op !== '=') v = this.arith(e.op.slice(0, -1), this.get(e.target), v);
        return this.set(e.target, v);
      }
      case 'incdec': {
        const old = this.get(e.target);
        const now = this.set(e.target, e.op === '++' ? old.add(Num.ONE) : old.sub(Num.ONE));
        return e.prefix ? now : old;
      }
      case 'neg': {
        const v = this.eval(e.e);
        return new Num(-v.n, v.scale);
      }
      case 'not':
        return this.eval(e.e).isZero() ? Num.ONE : Num.ZERO;
      case 'bin':
        if (e.op === '&&') return !this.eval(e.l).isZero() && !this.eval(e.r).isZero() ? Num.ONE : Num.ZERO;
        if (e.op === '||') return !this.eval(e.l).isZero() || !this.eval(e.r).isZero() ? Num.ONE : Num.ZERO;
        return this.arith(e.op, this.eval(e.l), this.eval(e.r));
      case 'call':
        return this.call(e.name, e.args) ?? Num.ZERO;
      case 'builtin': {
        const v = this.eval(e.e);
        if (e.name === 'length') return Num.int(v.length());
        if (e.name === 'scale') return Num.int(v.scale);
        return v.sqrt(this.scale);
      }
      case 'read': {
        const m = /^\s*(-?)([0-9A-Z]+\.?[0-9A-Z]*|\.[0-9A-Z]+)/.exec(this.readLine() ?? '');
        if (!m) return Num.ZERO;
        const v = parseNumber(m[2], this.ibase);
        return m[1] ? new Num(-v.n, v.scale) : v;
      }
    }
  }

  private arith(op: string, a: Num, b: Num): Num {
    const bool = (x: boolean) => (x ? Num.ONE : Num.ZERO);
    switch (op) {
      case '+': return a.add(b);
      case '-': return a.sub(b);
      case '*': return a.mul(b, this.scale);
      case '/': return a.div(b, this.scale);
      case '%': return a.mod(b, this.scale);
      case '^':
        if (b.scale > 0 && b.n % 10n ** BigInt(b.scale) !== 0n) this.report('warning', 'non-zero scale in exponent');
        return a.pow(b.trunc(), this.scale);
      case '<': return bool(a.cmp(b) < 0);
      case '<=': return bool(a.cmp(b) <= 0);
      case '>': return bool(a.cmp(b) > 0);
      case '>=': return bool(a.cmp(b) >= 0);
      case '==': return bool(a.cmp(b) === 0);
      default: return bool(a.cmp(b) !== 0);
    }
  }

  private stack<T>(map: Map<string, T[]>, name: string, make: () => T): T[] {
    let s = map.get(name);
    if (!s) map.set(name, (s = [make()]));
    return s;
  }

  private array(name: string): BcArray {
    const s = this.stack(this.arrays, name, () => new Map());
    return s[s.length - 1];
  }

  private index(name: string, e: Expr): number {
    const i = this.eval(e);
    const n = i.trunc();
    if (n < 0n || n > BigInt(DIM_MAX)) throw new BcError(`Array ${name} subscript out of bounds.`);
    return Number(n);
  }

  private get(t: LValue): Num {
    switch (t.k) {
      case 'var': {
        const s = this.vars.get(t.name);
        return s ? s[s.length - 1] : Num.ZERO;
      }
      case 'elem':
        return this.array(t.name).get(this.index(t.name, t.index)) ?? Num.ZERO;
      case 'special':
        return t.name === 'last' ? this.last : Num.int(this[t.name]);
    }
  }

  private set(t: LValue, v: Num): Num {
    switch (t.k) {
      case 'var': {
        const s = this.stack(this.vars, t.name, () => Num.ZERO);
        s[s.length - 1] = v;
        return v;
      }
      case 'elem':
        this.array(t.name).set(this.index(t.name, t.index), v);
        return v;
      case 'special':
        if (t.name === 'last') this.last = v;
        else this.setSpecial(t.name, v);
        return v;
    }
  }

  private setSpecial(name: 'ibase' | 'obase' | 'scale', v: Num): void {
    const n = v.trunc();
    if (name === 'scale') {
      if (n < 0n) this.report('warning', 'negative scale, set to 0');
      if (n > BigInt(BASE_MAX)) this.report('warning', `scale too large, set to ${BASE_MAX}`);
      this.scale = n < 0n ? 0 : n > BigInt(BASE_MAX) ? BASE_MAX : Number(n);
    } else if (name === 'ibase') {
      if (n < 2n) this.report('warning', 'ibase too small, set to 2');
      if (n > 36n) this.report('warning', 'ibase too large, set to 36');
      this.ibase = n < 2n ? 2 : n > 36n ? 36 : Number(n);
    } else {
      if (n < 2n) this.report('warning', 'obase too small, set to 2');
      if (n > BigInt(BASE_MAX)) this.report('warning', `obase too large, set to ${BASE_MAX}`);
      this.obase = n < 2n ? 2 : n > BigInt(BASE_MAX) ? BASE_MAX : Number(n);
    }
  }

  /** Call a function; null for a void one (or one ending without a value... which is 0). */
  private call(name: string, args: Arg[]): Num | null {
    const native = this.natives.get(name);
    const f = this.funcs.get(name);
    if (!f && native) {
      if (args.length !== native[0] || args.some((a) => a.k !== 'value')) throw new BcError('Parameter number mismatch');
      return native[1](args.map((a) => this.eval((a as { e: Expr }).e)), this.scale);
    }
    if (!f) throw new BcError(`Function ${name} not defined.`);
    if (args.length !== f.params.length) throw new BcError('Parameter number mismatch');
    // Arguments are evaluated in the caller's scope before any name is pushed.
    const values: (Num | BcArray)[] = f.params.map((p, i) => {
      const a = args[i];
      if (p.array !== (a.k === 'array')) {
        // GNU bc reports both.
        this.report('error', `Parameter type mismatch parameter ${p.name}.`);
        throw new BcError('Parameter number mismatch');
      }
      if (a.k === 'value') return this.eval(a.e);
      const arr = this.array(a.name);
      return p.ref ? arr : new Map(arr);
    });
    const pushed: [Map<string, unknown[]>, string][] = [];
    const pushVar = (key: string, v: Num) => {
      this.stack(this.vars, key, () => Num.ZERO).push(v);
      pushed.push([this.vars, key]);
    };
    const pushArray = (key: string, v: BcArray) => {
      this.stack(this.arrays, key, () => new Map()).push(v);
      pushed.push([this.arrays, key]);
    };
    const caller = this.frame;
    try {
      f.params.forEach((p, i) => (p.array ? pushArray(p.name, values[i] as BcArray) : pushVar(p.name, values[i] as Num)));
      for (const a of f.autos) {
        if (a.array) pushArray(a.name, new Map());
        else pushVar(a.name, Num.ZERO);
      }
      this.frame = { name, adr: 0 };
      const flow = this.block(f.body);
      if (f.isVoid) return null;
      return flow && typeof flow === 'object' && flow.ret ? flow.ret : Num.ZERO;
    } catch (e) {
      if (e instanceof BcError) this.errorFrame ??= { ...this.frame };
      throw e;
    } finally {
      for (const [map, key] of pushed.reverse()) map.get(key)!.pop();
      this.frame = caller;
    }
  }
}

/** print's string escapes: \a \b \f \n \q \r \t \\; any other escaped character is dropped. */
export function escapes(s: string): string {
  const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', q: '"', r: '\r', t: '\t', '\\': '\\' };
  return s.replace(/\\(.?)/gs, (_, c: string) => map[c] ?? '');
}
