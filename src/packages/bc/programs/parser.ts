// bc's grammar (POSIX with the GNU extensions), one input item at a time: a
// line of statements, or a function definition. Operator precedence, lowest
// first: || && ! relational assignment +- */% ^ unary- ++--; an assignment
// binds to the name just before it, so `a = 3 < 5` is `(a = 3) < 5`.

import type { Arg, Expr, Func, Item, LValue, Param, PrintItem, Special, Stmt } from './ast.js';
import { LexError, type Lexer, type Tok } from './lexer.js';

/** A syntax error at a line; the parser has skipped to the end of that line. */
export class SyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The input ended inside an item (more input may complete it). */
export class NeedMore extends Error {}

const REL = ['<', '<=', '>', '>=', '==', '!='];
const ASSIGN = ['=', '+=', '-=', '*=', '/=', '%=', '^='];

interface Ctx {
  loop: boolean;
  func: boolean;
}

export class Parser {
  /** Tokens read ahead. */
  private ahead: Tok[] = [];
  /** Errors found while parsing the item (break outside a loop, ...); the item does not run. */
  readonly problems: SyntaxError[] = [];

  /** Scanner errors met on the way (GNU prints them as it scans; the caller prints them once the item is read). */
  readonly lexErrors: LexError[] = [];

  constructor(
    private readonly lex: Lexer,
    /** Whether more input may follow the current end (then an unfinished item waits for it). */
    private readonly more: boolean,
  ) {}

  private peek(k = 0): Tok {
    while (this.ahead.length <= k) {
      let t: Tok;
      try {
        t = this.lex.next();
      } catch (e) {
        if (!(e instanceof LexError)) throw e;
        if (e.line === null && this.more) throw new NeedMore();
        this.lexErrors.push(e);
        if (e.line !== null) continue;
        t = { t: 'eof', line: this.lex.line };
      }
      if (t.t === 'eof' && this.more) throw new NeedMore();
      this.ahead.push(t);
      if (t.t === 'eof') break;
    }
    return this.ahead[Math.min(k, this.ahead.length - 1)];
  }

  private take(): Tok {
    const t = this.peek();
    if (t.t !== 'eof') this.ahead.shift();
    return t;
  }

  private is(v: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.t === 'op' || t.t === 'kw') && t.v === v;
  }

  private accept(v: string): boolean {
    if (!this.is(v)) return false;
    this.take();
    return true;
  }

  private expect(v: string): void {
    if (!this.accept(v)) this.fail();
  }

  private name(): string {
    const t = this.peek();
    if (t.t !== 'name') this.fail();
    this.take();
    return t.v;
  }

  /** A syntax error at the current token: skip to the end of its line. */
  private fail(): never {
    const line = this.peek().line;
    for (let t = this.peek(); t.t !== 'nl' && t.t !== 'eof'; t = this.peek()) this.take();
    if (this.peek().t === 'nl') this.take();
    throw new SyntaxError('syntax error', line);
  }

  private skipNewlines(): void {
    while (this.peek().t === 'nl') this.take();
  }

  /** The next item, or null at the end of input. Throws SyntaxError (after recovery) or NeedMore. */
  item(): Item | null {
    for (;;) {
      const t = this.peek();
      if (t.t === 'eof') return null;
      if (t.t !== 'nl') break;
      this.take();
    }
    if (this.is('define')) return { k: 'define', f: this.define() };
    const body: Stmt[] = [];
    for (;;) {
      const n = this.peek();
      if (n.t === 'nl') {
        this.take();
        return { k: 'run', body };
      }
      if (n.t === 'eof') this.fail();
      if (this.accept(';')) continue;
      body.push(this.statement({ loop: false, func: false }));
      if (this.peek().t !== 'nl' && !this.is(';')) this.fail();
    }
  }

  private define(): Func {
    this.take();
    // `define void f()` (GNU); a function may itself be called void.
    const isVoid = this.is('void') && this.peek(1).t === 'name';
    if (isVoid) this.take();
    const name = this.name();
    this.expect('(');
    const params: Param[] = [];
    if (!this.is(')')) {
      do {
        const ref = this.accept('*');
        const p = this.name();
        const array = this.accept('[');
        if (array) this.expect(']');
        if (ref && !array) this.fail();
        params.push({ name: p, array, ref });
      } while (this.accept(','));
    }
    this.expect(')');
    this.skipNewlines();
    this.expect('{');
    this.skipNewlines();
    const autos: { name: string; array: boolean }[] = [];
    if (this.accept('auto')) {
      do {
        const a = this.name();
        const array = this.accept('[');
        if (array) this.expect(']');
        autos.push({ name: a, array });
      } while (this.accept(','));
      if (this.peek().t === 'nl') this.take();
      else this.expect(';');
    }
    const body = this.statementList({ loop: false, func: true });
    this.expect('}');
    return { name, isVoid, params, autos, body };
  }

  /** Statements up to a closing brace, separated by newlines or semicolons. */
  private statementList(ctx: Ctx): Stmt[] {
    const body: Stmt[] = [];
    for (;;) {
      if (this.peek().t === 'nl') {
        this.take();
        continue;
      }
      if (this.accept(';')) continue;
      if (this.is('}')) return body;
      body.push(this.statement(ctx));
      if (!this.is('}') && !this.is(';') && this.peek().t !== 'nl') this.fail();
    }
  }

  /** A compile-time error at `line` (default: the next token's, where yacc would notice it). */
  private problem(message: string, line = this.peek().line): void {
    this.problems.push(new SyntaxError(message, line));
  }

  private statement(ctx: Ctx): Stmt {
    const t = this.peek();
    if (t.t === 'str') {
      this.take();
      return { k: 'str', v: t.v };
    }
    if (this.accept('{')) {
      const body = this.statementList(ctx);
      this.expect('}');
      return { k: 'block', body };
    }
    if (t.t === 'kw') {
      switch (t.v) {
        case 'break':
        case 'continue':
          this.take();
          if (!ctx.loop) this.problem(t.v === 'break' ? 'Break outside a for/while' : 'Continue outside a for', t.line);
          return { k: t.v };
        case 'halt':
          this.take();
          return { k: 'halt' };
        case 'return': {
          this.take();
          const n = this.peek();
          const e = n.t === 'nl' || n.t === 'eof' || this.is(';') || this.is('}') ? null : this.expr();
          if (!ctx.func) this.problem('Return outside of a function.');
          return { k: 'return', e };
        }
        case 'if': {
          this.take();
          this.expect('(');
          const cond = this.expr();
          this.expect(')');
          this.skipNewlines();
          const then = this.statement(ctx);
          let other: Stmt | null = null;
          if (this.accept('else')) {
            this.skipNewlines();
            other = this.statement(ctx);
          }
          return { k: 'if', cond, then, else: other };
        }
        case 'while': {
          this.take();
          this.expect('(');
          const cond = this.expr();
          this.expect(')');
          this.skipNewlines();
          return { k: 'while', cond, body: this.statement({ ...ctx, loop: true }) };
        }
        case 'for': {
          this.take();
          this.expect('(');
          const init = this.is(';') ? null : this.expr();
          this.expect(';');
          const cond = this.is(';') ? null : this.expr();
          this.expect(';');
          const step = this.is(')') ? null : this.expr();
          this.expect(')');
          this.skipNewlines();
          return { k: 'for', init, cond, step, body: this.statement({ ...ctx, loop: true }) };
        }
        case 'print': {
          this.take();
          const items: PrintItem[] = [];
          do {
            const p = this.peek();
            if (p.t === 'str') {
              this.take();
              items.push({ k: 'str', v: p.v });
            } else items.push({ k: 'expr', e: this.expr() });
          } while (this.accept(','));
          return { k: 'print', items };
        }
        case 'quit':
          throw new QuitNow();
        case 'limits':
          this.take();
          return { k: 'str', v: LIMITS };
        case 'warranty':
          this.take();
          return { k: 'str', v: WARRANTY };
      }
    }
    return { k: 'expr', e: this.expr() };
  }

  expr(): Expr {
    return this.or();
  }

  private or(): Expr {
    let l = this.and();
    while (this.accept('||')) l = { k: 'bin', op: '||', l, r: this.and() };
    return l;
  }

  private and(): Expr {
    let l = this.not();
    while (this.accept('&&')) l = { k: 'bin', op: '&&', l, r: this.not() };
    return l;
  }

  private not(): Expr {
    if (this.accept('!')) return { k: 'not', e: this.not() };
    return this.binary(0);
  }

  /** Left-associative levels: relational, additive, multiplicative. */
  private binary(level: number): Expr {
    const ops = [REL, ['+', '-'], ['*', '/', '%']][level];
    const next = () => (level < 2 ? this.binary(level + 1) : this.power());
    let l = next();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !ops.includes(t.v)) return l;
      this.take();
      l = { k: 'bin', op: t.v, l, r: next() };
    }
  }

  private power(): Expr {
    const l = this.unary();
    if (this.accept('^')) return { k: 'bin', op: '^', l, r: this.power() };
    return l;
  }

  private unary(): Expr {
    if (this.accept('-')) return { k: 'neg', e: this.unary() };
    if (this.is('++') || this.is('--')) {
      const op = this.take() as { v: '++' | '--' };
      return { k: 'incdec', op: op.v, prefix: true, target: this.lvalue() };
    }
    return this.primary();
  }

  private isNamed(): boolean {
    const t = this.peek();
    if (t.t === 'name') return !this.is('(', 1);
    return t.t === 'kw' && ['ibase', 'obase', 'last'].includes(t.v) || (this.is('scale') && !this.is('(', 1));
  }

  private lvalue(): LValue {
    const t = this.peek();
    if (t.t === 'kw' && ['ibase', 'obase', 'scale', 'last'].includes(t.v)) {
      this.take();
      return { k: 'special', name: t.v as Special };
    }
    const name = this.name();
    if (this.accept('[')) {
      const index = this.expr();
      this.expect(']');
      return { k: 'elem', name, index };
    }
    return { k: 'var', name };
  }

  private primary(): Expr {
    if (this.isNamed()) {
      const target = this.lvalue();
      const n = this.peek();
      if (n.t === 'op' && ASSIGN.includes(n.v)) {
        this.take();
        // The value runs up to the next relational or logical operator.
        return { k: 'assign', op: n.v, target, value: this.binary(1) };
      }
      if (this.is('++') || this.is('--')) {
        const op = this.take() as { v: '++' | '--' };
        return { k: 'incdec', op: op.v, prefix: false, target };
      }
      return target;
    }
    const t = this.take();
    if (t.t === 'num') return { k: 'num', text: t.v };
    if (t.t === 'name') return { k: 'call', name: t.v, args: this.args() };
    if (t.t === 'op' && t.v === '(') {
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (t.t === 'kw' && (t.v === 'length' || t.v === 'sqrt' || t.v === 'scale')) {
      this.expect('(');
      const e = this.expr();
      this.expect(')');
      return { k: 'builtin', name: t.v, e };
    }
    if (t.t === 'kw' && t.v === 'read') {
      this.expect('(');
      this.expect(')');
      return { k: 'read' };
    }
    this.ahead.unshift(t);
    return this.fail();
  }

  private args(): Arg[] {
    this.expect('(');
    const args: Arg[] = [];
    if (!this.is(')')) {
      do {
        if (this.peek().t === 'name' && this.is('[', 1) && this.is(']', 2)) {
          args.push({ k: 'array', name: this.name() });
          this.take();
          this.take();
        } else args.push({ k: 'value', e: this.expr() });
      } while (this.accept(','));
    }
    this.expect(')');
    return args;
  }
}

/** `quit` ends bc as soon as it is read, before the line it is on runs. */
export class QuitNow extends Error {}

const LIMITS = `BC_BASE_MAX     = 2147483647
BC_DIM_MAX      = 16777215
BC_SCALE_MAX    = 2147483647
BC_STRING_MAX   = 2147483647
MAX Exponent    = 9223372036854775807
Number of vars  = 32767
`;

const WARRANTY = `
agentOS bc 0.1.0
This is free software: you may use, share and change it.
There is NO WARRANTY, to the extent permitted by law.
`;
