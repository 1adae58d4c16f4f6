// Recursive-descent parser for the awk grammar, lowest precedence first:
// assignment, ?:, ||, &&, in, ~ !~, relational (and `cmd | getline`),
// concatenation, + -, * / %, unary ! + -, ^, ++ --, $, grouping.

import type { Case, Expr, Func, LValue, Program, Redirect, Ref, Rule, Stmt } from './ast.js';
import { AwkSyntaxError, Lexer, type Token } from './lexer.js';

/** Special variables live in the first global slots, in this order. */
export const SPECIALS = [
  'NF', 'NR', 'FNR', 'FS', 'OFS', 'ORS', 'RS', 'FILENAME', 'SUBSEP', 'RSTART', 'RLENGTH', 'CONVFMT', 'OFMT',
  'ENVIRON', 'ARGC', 'ARGV', 'RT', 'IGNORECASE', 'FPAT', 'FIELDWIDTHS', 'PROCINFO', 'ARGIND', 'ERRNO', 'BINMODE', 'LINT',
  'TEXTDOMAIN',
] as const;
export const G = Object.fromEntries(SPECIALS.map((n, i) => [n, i])) as Record<(typeof SPECIALS)[number], number>;

export class Parser {
  private lx: Lexer;
  private tok: Token;
  private globals = new Map<string, number>();
  private locals: Map<string, number> | null = null;
  private funcs = new Map<string, Func>();
  /** Depth inside print's argument list where `>` means redirection. */
  private noGt = false;
  private noIn = false;
  private loops = 0;
  /** Switches being parsed: `break` is allowed in them. */
  private switches = 0;
  private inFunc = false;

  constructor(src: string, gawk = true) {
    this.lx = new Lexer(src, gawk);
    for (const n of SPECIALS) this.global(n);
    this.tok = this.lx.next();
  }

  private global(name: string): number {
    let s = this.globals.get(name);
    if (s === undefined) {
      s = this.globals.size;
      this.globals.set(name, s);
    }
    return s;
  }

  /** Pre-declare a global (command-line assignments) so its slot exists. */
  private ref(name: string): Ref {
    const l = this.locals?.get(name);
    if (l !== undefined) return { scope: 'l', slot: l, name };
    if (this.funcs.has(name) && !this.locals?.has(name)) this.fail(`function name \`${name}' previously defined`);
    return { scope: 'g', slot: this.global(name), name };
  }

  private fail(msg = 'syntax error', tok = this.tok): never {
    throw new AwkSyntaxError(msg, tok.line, tok.pos);
  }

  /** gawk's `error:` (no caret): a statement where it cannot be. */
  private error(msg: string, tok: Token): never {
    throw new AwkSyntaxError(msg, tok.line, tok.pos, 'error');
  }

  private advance(): Token {
    const t = this.tok;
    this.tok = this.lx.next();
    return t;
  }

  private is(v: string): boolean {
    return (this.tok.t === 'op' || this.tok.t === 'kw') && this.tok.v === v;
  }

  private eat(v: string): boolean {
    if (!this.is(v)) return false;
    this.advance();
    return true;
  }

  private expect(v: string): void {
    if (!this.eat(v)) this.fail();
  }

  private nls(): void {
    while (this.tok.t === 'nl') this.advance();
  }

  /** Statement terminators: `;` and newlines. */
  private terms(): void {
    while (this.tok.t === 'nl' || this.is(';')) this.advance();
  }

  parse(): Program {
    const rules: Rule[] = [];
    this.terms();
    while (this.tok.t !== 'eof') {
      if (this.is('function')) this.func();
      else rules.push(this.rule());
      this.terms();
    }
    for (const c of this.calls) {
      if (!this.funcs.has(c.name)) throw new AwkSyntaxError(`function \`${c.name}' not defined`, c.tok.line, c.tok.pos, 'fatal');
    }
    return { rules, funcs: this.funcs, globals: [...this.globals.keys()] };
  }

  private rule(): Rule {
    if (this.is('BEGIN') || this.is('END') || this.is('BEGINFILE') || this.is('ENDFILE')) {
      const word = this.advance().v;
      const kind = word.toLowerCase() as Rule['kind'];
      this.beginEnd = word;
      this.nls();
      const body = this.blockBody();
      this.beginEnd = null;
      return { kind, pattern: null, pattern2: null, body };
    }
    let pattern: Expr | null = null;
    let pattern2: Expr | null = null;
    if (!this.is('{')) {
      pattern = this.expr();
      if (this.eat(',')) {
        this.nls();
        pattern2 = this.expr();
      }
    }
    const body = this.is('{') ? this.blockBody() : null;
    return { kind: 'main', pattern, pattern2, body };
  }

  private func(): void {
    this.advance();
    const nameTok = this.tok;
    if (nameTok.t !== 'name' && nameTok.t !== 'funcname') this.fail();
    const name = nameTok.v;
    if (this.funcs.has(name)) this.fail(`function \`${name}' previously defined`, nameTok);
    if (this.globals.has(name) && !(SPECIALS as readonly string[]).includes(name)) this.fail(`function name \`${name}' previously defined`, nameTok);
    if ((SPECIALS as readonly string[]).includes(name)) this.fail(`\`${name}' is a built-in variable, cannot be redefined`, nameTok);
    this.advance();
    this.expect('(');
    const params: string[] = [];
    while (!this.is(')')) {
      if (this.tok.t !== 'name') this.fail();
      if (params.includes(this.tok.v)) this.fail(`function \`${name}': parameter #${params.length + 1}, \`${this.tok.v}', duplicates parameter #${params.indexOf(this.tok.v) + 1}`);
      params.push(this.advance().v);
      if (!this.eat(',')) break;
      this.nls();
    }
    this.expect(')');
    this.nls();
    const f: Func = { name, params, body: [], nlocals: params.length, defined: true };
    this.funcs.set(name, f);
    this.locals = new Map(params.map((p, i) => [p, i]));
    this.inFunc = true;
    f.body = this.blockBody();
    this.inFunc = false;
    this.locals = null;
  }

  private blockBody(): Stmt[] {
    this.expect('{');
    const body: Stmt[] = [];
    this.terms();
    while (!this.is('}')) {
      if (this.tok.t === 'eof') this.fail();
      body.push(this.stmt());
      this.terms();
    }
    this.advance();
    return body;
  }

  /** End of a simple statement: `;`, newline, or a `}` that closes the block. */
  private endSimple(): void {
    if (this.is(';') || this.tok.t === 'nl') {
      this.advance();
      return;
    }
    if (this.is('}') || this.tok.t === 'eof') return;
    this.fail();
  }

  private stmt(): Stmt {
    const line = this.tok.line;
    if (this.is('{')) return { k: 'block', body: this.blockBody(), line };
    if (this.eat('if')) {
      this.expect('(');
      const c = this.expr();
      this.expect(')');
      this.nls();
      const a = this.bodyStmt();
      // Look past terminators for `else`; they end the statement anyway.
      const save = { tok: this.tok, pos: this.lx.pos, line: this.lx.line };
      this.terms();
      if (this.eat('else')) {
        this.nls();
        return { k: 'if', c, a, b: this.bodyStmt(), line };
      }
      this.tok = save.tok;
      this.lx.pos = save.pos;
      this.lx.line = save.line;
      return { k: 'if', c, a, b: null, line };
    }
    if (this.eat('while')) {
      this.expect('(');
      const c = this.expr();
      this.expect(')');
      if (this.is(';')) {
        this.advance();
        return { k: 'while', c, body: { k: 'block', body: [], line }, line };
      }
      this.nls();
      return { k: 'while', c, body: this.loopBody(), line };
    }
    if (this.eat('do')) {
      this.nls();
      const body = this.loopBody();
      this.terms();
      this.expect('while');
      this.expect('(');
      const c = this.expr();
      this.expect(')');
      this.endSimple();
      return { k: 'do', c, body, line };
    }
    if (this.eat('for')) return this.forStmt(line);
    if (this.eat('switch')) return this.switchStmt(line);
    if (this.is(';')) {
      this.advance();
      return { k: 'block', body: [], line };
    }
    const s = this.simpleStmt(line);
    this.endSimple();
    return s;
  }

  private bodyStmt(): Stmt {
    if (this.is(';')) {
      this.advance();
      return { k: 'block', body: [], line: this.tok.line };
    }
    return this.stmt();
  }

  private loopBody(): Stmt {
    this.loops++;
    try {
      return this.bodyStmt();
    } finally {
      this.loops--;
    }
  }

  /** gawk's `switch (e) { case v: ... default: ... }`: labels are constants or regexes; cases fall through. */
  private switchStmt(line: number): Stmt {
    this.expect('(');
    const e = this.expr();
    this.expect(')');
    this.nls();
    this.expect('{');
    this.terms();
    const cases: Case[] = [];
    const seen = new Set<string>();
    let hasDefault = false;
    this.switches++;
    while (!this.is('}')) {
      const label = this.tok;
      let v: Expr | null = null;
      if (this.eat('default')) {
        if (hasDefault) this.error("duplicate `default' detected in switch body", label);
        hasDefault = true;
      } else if (this.eat('case')) {
        v = this.caseValue();
        // gawk compares the labels' texts, and not regexes.
        if (v.k !== 're') {
          const text = v.k === 'num' ? String(v.v) : (v as { v: string }).v;
          if (seen.has(text)) this.error(`duplicate case values in switch body: ${text}`, label);
          seen.add(text);
        }
      } else this.fail();
      this.expect(':');
      this.terms();
      const body: Stmt[] = [];
      while (!this.is('case') && !this.is('default') && !this.is('}')) {
        if (this.tok.t === 'eof') this.fail();
        body.push(this.stmt());
        this.terms();
      }
      cases.push({ v, body });
    }
    this.switches--;
    this.advance();
    return { k: 'switch', e, cases, line };
  }

  /** A case label: a number (maybe signed), a string or a regex constant. */
  private caseValue(): Expr {
    const t = this.tok;
    if (t.t === 'op' && (t.v === '-' || t.v === '+')) {
      this.advance();
      const n = this.tok;
      if (n.t !== 'num') this.fail();
      this.advance();
      return { k: 'num', v: t.v === '-' ? -n.n : n.n };
    }
    if (t.t === 'num' || t.t === 'str' || (t.t === 'op' && (t.v === '/' || t.v === '/='))) return this.primary();
    return this.fail();
  }

  private forStmt(line: number): Stmt {
    this.expect('(');
    // for (k in a)
    if (this.tok.t === 'name') {
      const save = { tok: this.tok, pos: this.lx.pos, line: this.lx.line };
      const name = this.advance().v;
      if (this.eat('in') && this.tok.t === 'name') {
        const arr = this.advance().v;
        if (this.eat(')')) {
          this.nls();
          const v: LValue = { k: 'var', ref: this.ref(name) };
          return { k: 'forin', v, ref: this.ref(arr), body: this.loopBody(), line };
        }
      }
      this.tok = save.tok;
      this.lx.pos = save.pos;
      this.lx.line = save.line;
    }
    const init = this.is(';') ? null : this.simpleStmt(line);
    this.expect(';');
    this.nls();
    const c = this.is(';') ? null : this.expr();
    this.expect(';');
    this.nls();
    const step = this.is(')') ? null : this.simpleStmt(line);
    this.expect(')');
    if (this.is(';')) {
      this.advance();
      return { k: 'for', init, c, step, body: { k: 'block', body: [], line }, line };
    }
    this.nls();
    return { k: 'for', init, c, step, body: this.loopBody(), line };
  }

  private simpleStmt(line: number): Stmt {
    const t = this.tok;
    if (t.t === 'kw') {
      switch (t.v) {
        case 'print':
        case 'printf':
          return this.printStmt(line);
        case 'next':
        case 'nextfile':
          this.advance();
          // BEGINFILE may skip its file; no other special rule has a record to leave.
          if (this.beginEnd && !(t.v === 'nextfile' && this.beginEnd === 'BEGINFILE')) this.error(`\`${t.v}' used in ${this.beginEnd} action`, t);
          return { k: t.v, line };
        case 'break':
        case 'continue':
          this.advance();
          if (this.loops === 0 && (t.v === 'continue' || this.switches === 0)) this.error(`\`${t.v}' is not allowed outside a loop${t.v === 'break' ? ' or switch' : ''}`, t);
          return { k: t.v, line };
        case 'exit':
        case 'return': {
          this.advance();
          if (t.v === 'return' && !this.inFunc) this.fail('`return\' used outside function context', t);
          const e = this.is(';') || this.is('}') || this.tok.t === 'nl' || this.tok.t === 'eof' ? null : this.expr();
          return { k: t.v, e, line };
        }
        case 'delete': {
          this.advance();
          if (this.tok.t !== 'name') this.fail();
          const ref = this.ref(this.advance().v);
          if (this.eat('[')) {
            const subs = this.exprList(']');
            return { k: 'delete', ref, subs, line };
          }
          return { k: 'delete', ref, subs: null, line };
        }
      }
    }
    return { k: 'expr', e: this.expr(), line };
  }

  private beginEnd: string | null = null;
  private calls: { name: string; tok: Token }[] = [];

  private printStmt(line: number): Stmt {
    const kind = this.advance().v as 'print' | 'printf';
    let args: Expr[] = [];
    const saveGt = this.noGt;
    this.noGt = true;
    if (!this.is(';') && !this.is('}') && !this.is('>') && !this.is('>>') && !this.is('|') && this.tok.t !== 'nl' && this.tok.t !== 'eof') {
      args = [this.expr()];
      while (this.eat(',')) {
        this.nls();
        args.push(this.expr());
      }
      if (args.length === 1 && args[0].k === 'group') args = args[0].items;
    }
    this.noGt = saveGt;
    let out: Redirect | null = null;
    if (this.is('>') || this.is('>>') || this.is('|')) {
      const op = this.advance().v as Redirect['op'];
      // The target is a concatenation-level expression (no comparisons).
      out = { op, e: this.concat(true) };
    }
    if (kind === 'printf' && args.length === 0) this.fail();
    return { k: kind, args, out, line };
  }

  private exprList(close: string): Expr[] {
    const list = [this.expr()];
    while (this.eat(',')) {
      this.nls();
      list.push(this.expr());
    }
    this.expect(close);
    return list;
  }

  expr(): Expr {
    return this.ternary();
  }

  private isLValue(e: Expr): e is LValue {
    return e.k === 'var' || e.k === 'idx' || e.k === 'field';
  }

  private ternary(): Expr {
    const c = this.or();
    if (this.is('?')) {
      this.advance();
      this.nls();
      const a = this.ternary();
      this.nls();
      this.expect(':');
      this.nls();
      return { k: 'cond', c, a, b: this.ternary() };
    }
    if (this.tok.t === 'op' && /^(?:=|\+=|-=|\*=|\/=|%=|\^=)$/.test(this.tok.v) && this.isLValue(c)) {
      const op = this.advance().v;
      this.nls();
      return { k: 'assign', op, lv: c, e: this.ternary() };
    }
    return c;
  }

  private or(): Expr {
    let a = this.and();
    while (this.is('||')) {
      this.advance();
      this.nls();
      a = { k: 'or', a, b: this.and() };
    }
    return a;
  }

  private and(): Expr {
    let a = this.inExpr();
    while (this.is('&&')) {
      this.advance();
      this.nls();
      a = { k: 'and', a, b: this.inExpr() };
    }
    return a;
  }

  private inExpr(): Expr {
    let a = this.matchExpr();
    while (!this.noIn && this.is('in')) {
      this.advance();
      if (this.tok.t !== 'name') this.fail();
      a = { k: 'in', subs: a.k === 'group' ? a.items : [a], ref: this.ref(this.advance().v) };
    }
    return a;
  }

  private matchExpr(): Expr {
    let a = this.relational();
    while (this.is('~') || this.is('!~')) {
      const neg = this.advance().v === '!~';
      a = { k: 'match', neg, a, re: this.relational() };
    }
    return a;
  }

  private relational(): Expr {
    let a = this.concat(false);
    for (;;) {
      if (this.is('|') && this.peekGetline()) {
        this.advance();
        this.advance();
        a = { k: 'getline', src: 'cmd', e: a, lv: this.optLValue() };
        continue;
      }
      const t = this.tok;
      if (t.t === 'op' && /^(?:<|<=|==|!=|>=|>)$/.test(t.v) && !(this.noGt && t.v === '>')) {
        this.advance();
        a = { k: 'cmp', op: t.v, a, b: this.concat(false) };
        continue;
      }
      return a;
    }
  }

  private peekGetline(): boolean {
    const save = { pos: this.lx.pos, line: this.lx.line };
    const t = this.lx.next();
    this.lx.pos = save.pos;
    this.lx.line = save.line;
    return t.t === 'kw' && t.v === 'getline';
  }

  /** Tokens that can start an operand of concatenation (not + or -, which are binary there). */
  private startsOperand(): boolean {
    const t = this.tok;
    switch (t.t) {
      case 'num':
      case 'str':
      case 'ere':
      case 'name':
      case 'funcname':
      case 'builtin':
        return true;
      case 'op':
        return t.v === '$' || t.v === '(' || t.v === '++' || t.v === '--' || (t.v === '@' && this.lx.gawk);
      default:
        return false;
    }
  }

  private concat(redirTarget: boolean): Expr {
    let a = this.additive();
    // A redirection target stops before `(`-less operators only; it is a plain concatenation.
    void redirTarget;
    while (this.startsOperand()) {
      a = { k: 'cat', a, b: this.additive() };
    }
    return a;
  }

  private additive(): Expr {
    let a = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.advance().v;
      a = { k: 'bin', op, a, b: this.multiplicative() };
    }
    return a;
  }

  private multiplicative(): Expr {
    let a = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const t = this.advance();
      const b = this.unary();
      // gawk folds constants while parsing, so this one is a parse error.
      if (t.v !== '*' && a.k === 'num' && b.k === 'num' && b.v === 0) this.fail(t.v === '/' ? 'division by zero attempted' : "division by zero attempted in `%'", t);
      a = { k: 'bin', op: t.v, a, b };
    }
    return a;
  }

  private unary(): Expr {
    if (this.is('!')) {
      this.advance();
      return { k: 'not', e: this.unary() };
    }
    if (this.is('-')) {
      this.advance();
      return { k: 'neg', e: this.unary() };
    }
    if (this.is('+')) {
      this.advance();
      return { k: 'plus', e: this.unary() };
    }
    return this.power();
  }

  private power(): Expr {
    const a = this.postfix();
    if (this.is('^')) {
      this.advance();
      // Right associative, and the exponent may carry a sign: 2^-1.
      const b = this.is('-') || this.is('+') || this.is('!') ? this.unaryPow() : this.power();
      return { k: 'bin', op: '^', a, b };
    }
    return a;
  }

  private unaryPow(): Expr {
    const op = this.advance().v;
    const e = this.is('-') || this.is('+') || this.is('!') ? this.unaryPow() : this.power();
    return op === '-' ? { k: 'neg', e } : op === '+' ? { k: 'plus', e } : { k: 'not', e };
  }

  private postfix(): Expr {
    if (this.is('++') || this.is('--')) {
      const d = this.advance().v === '++' ? 1 : -1;
      const lv = this.postfix();
      if (!this.isLValue(lv)) this.fail();
      return { k: 'incr', pre: true, d, lv };
    }
    const e = this.primary();
    if (this.isLValue(e) && (this.is('++') || this.is('--'))) {
      const d = this.advance().v === '++' ? 1 : -1;
      return { k: 'incr', pre: false, d, lv: e };
    }
    return e;
  }

  private optLValue(): LValue | null {
    if (this.is('$')) {
      this.advance();
      return { k: 'field', e: this.fieldOperand() };
    }
    if (this.tok.t === 'name') return this.nameRef(this.advance().v);
    return null;
  }

  private nameRef(name: string): LValue {
    const ref = this.ref(name);
    if (this.eat('[')) return { k: 'idx', ref, subs: this.exprList(']') };
    return { k: 'var', ref };
  }

  /** `$` binds tighter than everything but grouping: `$i++` is `($i)++`, `$NF-1` is `($NF)-1`. */
  private fieldOperand(): Expr {
    if (this.is('++') || this.is('--')) {
      const d = this.advance().v === '++' ? 1 : -1;
      const lv = this.primary();
      if (!this.isLValue(lv)) this.fail();
      return { k: 'incr', pre: true, d, lv };
    }
    if (this.is('-')) {
      this.advance();
      return { k: 'neg', e: this.fieldOperand() };
    }
    if (this.is('+')) {
      this.advance();
      return { k: 'plus', e: this.fieldOperand() };
    }
    if (this.is('!')) {
      this.advance();
      return { k: 'not', e: this.fieldOperand() };
    }
    return this.primary();
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.t) {
      case 'num':
        this.advance();
        return { k: 'num', v: t.n };
      case 'str':
        this.advance();
        return { k: 'str', v: t.v };
      case 'name':
        this.advance();
        return this.nameRef(t.v);
      case 'funcname': {
        this.advance();
        this.advance(); // (
        const args = this.is(')') ? (this.advance(), []) : this.exprListNl(')');
        this.calls.push({ name: t.v, tok: t });
        return { k: 'call', name: t.v, args, line: t.line };
      }
      case 'builtin':
        return this.builtin();
      case 'kw':
        if (t.v === 'getline') {
          this.advance();
          const lv = this.optLValue();
          if (this.is('<')) {
            this.advance();
            // The file is a primary: `getline < "a" "b"` reads "a".
            return { k: 'getline', src: 'file', lv, e: this.fieldOrPrimary() };
          }
          if (this.beginEnd === 'BEGINFILE' || this.beginEnd === 'ENDFILE') this.error(`non-redirected \`getline' invalid inside \`${this.beginEnd}' rule`, t);
          return { k: 'getline', src: 'main', lv, e: null };
        }
        break;
      case 'op':
        if (t.v === '$') {
          this.advance();
          return { k: 'field', e: this.fieldOperand() };
        }
        if (t.v === '/' || t.v === '/=') {
          const re = this.lx.readRegex(t.pos);
          this.tok = this.lx.next();
          return { k: 're', src: re.v };
        }
        if (t.v === '(') {
          this.advance();
          const saveGt = this.noGt;
          const saveIn = this.noIn;
          this.noGt = false;
          this.noIn = false;
          const items = this.exprListNl(')');
          this.noGt = saveGt;
          this.noIn = saveIn;
          if (items.length > 1) {
            if (!this.is('in') && !this.noGt) this.fail();
            return { k: 'group', items };
          }
          return { k: 'group', items };
        }
        if (t.v === '-' || t.v === '+' || t.v === '!') return this.unary();
        if (t.v === '@' && this.lx.gawk) {
          this.advance();
          const f = this.tok;
          if (f.t !== 'funcname') this.fail();
          this.advance();
          this.advance(); // (
          const args = this.is(')') ? (this.advance(), []) : this.exprListNl(')');
          return { k: 'icall', ref: this.ref(f.v), args };
        }
        break;
    }
    if (t.t === 'eof' || t.t === 'nl') this.fail(t.t === 'eof' ? 'unexpected newline or end of string' : 'unexpected newline or end of string');
    return this.fail();
  }

  private fieldOrPrimary(): Expr {
    if (this.is('$')) {
      this.advance();
      return { k: 'field', e: this.fieldOperand() };
    }
    return this.primary();
  }

  private exprListNl(close: string): Expr[] {
    this.nls();
    const list = [this.expr()];
    this.nls();
    while (this.eat(',')) {
      this.nls();
      list.push(this.expr());
      this.nls();
    }
    this.expect(close);
    return list;
  }

  private builtin(): Expr {
    const name = this.advance().v;
    if (this.is('(')) {
      this.advance();
      const args = this.is(')') ? (this.advance(), []) : this.exprListNl(')');
      if (name === 'split' || name === 'sub' || name === 'gsub') {
        const lvArg = name === 'split' ? args[1] : args[2];
        if (lvArg && name !== 'split' && !this.isLValue(lvArg)) this.fail(`${name} third parameter is not a changeable object`);
      }
      return { k: 'builtin', name, args };
    }
    // `length` without parentheses is length($0).
    if (name === 'length') return { k: 'builtin', name, args: [] };
    return this.fail();
  }

  /** Parse a whole program; rules know whether they are BEGIN/END for `next` checks. */
  static program(src: string, gawk = true): Program {
    const p = new Parser(src, gawk);
    return p.parse();
  }
}

/** Unwrap a parenthesised single expression. */
export function ungroup(e: Expr): Expr {
  while (e.k === 'group' && e.items.length === 1) e = e.items[0];
  return e;
}
