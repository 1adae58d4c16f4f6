// The jq parser: precedence climbing over jq's grammar (parser.y). From
// loosest to tightest: `def`, `|` (right), `,`, `//` (right), assignments
// (non-associative), `or`, `and`, comparisons (non-associative), `+ -`,
// `* / %`, unary minus, postfix `?` and the Term forms (paths, literals,
// calls, constructors). `as` bindings, `label` and `def` take the rest of the
// pipeline as their body. Also accepts jq 1.7 additions: `if` without
// `else`, `$x: v` keys, `.a.[0]`, keywords as object keys.

import type { AssignOp, Ast, BinOp, FuncDef, ObjPatEntry, Pattern, Program } from './ast.js';
import { CompileError, tokenize, tokenName, type Token } from './lexer.js';
import { numberLiteral } from './number.js';
import type { Json } from './value.js';

const ASSIGN = new Set(['=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);
const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=']);

export function parseProgram(src: string): Program {
  return new Parser(src).program();
}

class Parser {
  private readonly toks: Token[];
  private i = 0;

  constructor(private readonly src: string) {
    this.toks = tokenize(src);
  }

  private get t(): Token {
    return this.toks[this.i];
  }

  private is(kind: Token['kind'], text?: string): boolean {
    const t = this.toks[this.i];
    return t.kind === kind && (text === undefined || t.text === text);
  }

  private op(text: string): boolean {
    return this.is('OP', text);
  }

  private kw(text: string): boolean {
    return this.is('KEYWORD', text);
  }

  private take(): Token {
    return this.toks[this.i++];
  }

  private fail(t: Token = this.t): never {
    let pos = t.pos;
    if (t.kind === 'EOF') {
      const last = this.toks[Math.max(0, this.toks.length - 2)];
      pos = last.tail ?? last.pos;
    }
    throw new CompileError(`syntax error, unexpected ${tokenName(t)}`, pos);
  }

  private expectOp(text: string): Token {
    if (!this.op(text)) this.fail();
    return this.take();
  }

  private expectKw(text: string): void {
    if (!this.kw(text)) this.fail();
    this.take();
  }

  private line(pos: number): number {
    let n = 1;
    for (let k = this.src.indexOf('\n'); k >= 0 && k < pos; k = this.src.indexOf('\n', k + 1)) n++;
    return n;
  }

  program(): Program {
    const prog: Program = { imports: [], meta: null, defs: [], body: null };
    if (this.kw('module')) {
      const pos = this.take().pos;
      prog.meta = this.constObject(this.pipe(), pos);
      this.expectOp(';');
    }
    while (this.kw('import') || this.kw('include')) {
      const pos = this.t.pos;
      const isImport = this.take().text === 'import';
      const path = this.constPath();
      let as: string | null = null;
      let data = false;
      if (isImport) {
        this.expectKw('as');
        if (this.is('VAR')) data = true;
        else if (!this.is('IDENT')) this.fail();
        as = this.take().text;
      }
      let meta: Json = null;
      if (!this.op(';')) meta = this.constObject(this.pipe(), pos);
      this.expectOp(';');
      prog.imports.push({ path, as, data, meta, pos });
    }
    // A program of only definitions is a library-style main: identity.
    const start = this.i;
    while (this.kw('def')) prog.defs.push(this.funcDef());
    if (this.is('EOF')) return prog;
    this.i = start;
    prog.defs = [];
    prog.body = this.pipe();
    if (!this.is('EOF')) this.fail();
    return prog;
  }

  private constPath(): string {
    if (!this.is('QQSTRING_START')) this.fail();
    const s = this.stringLit(null);
    if (s.k !== 'literal' || typeof s.value !== 'string') throw new CompileError('Import path must be constant', this.t.pos);
    return s.value;
  }

  private constObject(a: Ast, pos: number): Json {
    const v = constValue(a);
    if (v === undefined) throw new CompileError('Module metadata must be constant', pos);
    if (!(v instanceof Map)) throw new CompileError('Module metadata must be an object', pos);
    return v;
  }

  private funcDef(): FuncDef {
    const pos = this.take().pos;
    if (!this.is('IDENT')) this.fail();
    const name = this.take().text;
    const params: string[] = [];
    if (this.op('(')) {
      this.take();
      for (;;) {
        if (this.is('VAR')) params.push('$' + this.take().text);
        else if (this.is('IDENT')) params.push(this.take().text);
        else this.fail();
        if (this.op(';')) {
          this.take();
          continue;
        }
        this.expectOp(')');
        break;
      }
    }
    this.expectOp(':');
    const body = this.pipe();
    this.expectOp(';');
    return { name, params, body, pos };
  }

  /** Exp: the whole pipeline. */
  pipe(): Ast {
    if (this.kw('def')) {
      const def = this.funcDef();
      return { k: 'def', def, rest: this.pipe() };
    }
    const left = this.comma();
    if (this.op('|')) {
      this.take();
      return { k: 'pipe', left, right: this.pipe() };
    }
    return left;
  }

  private comma(): Ast {
    let left = this.alt();
    while (this.op(',')) {
      this.take();
      left = { k: 'comma', left, right: this.alt() };
    }
    return left;
  }

  private alt(): Ast {
    const left = this.assign();
    if (this.op('//')) {
      this.take();
      return { k: 'alt', left, right: this.alt() };
    }
    return left;
  }

  private assign(): Ast {
    const left = this.or();
    if (this.is('OP') && ASSIGN.has(this.t.text)) {
      const op = this.take().text as AssignOp;
      const right = this.or();
      if (this.is('OP') && ASSIGN.has(this.t.text)) this.fail();
      return { k: 'assign', op, left, right };
    }
    return left;
  }

  private or(): Ast {
    let left = this.and();
    while (this.kw('or')) {
      this.take();
      left = { k: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Ast {
    let left = this.compare();
    while (this.kw('and')) {
      this.take();
      left = { k: 'and', left, right: this.compare() };
    }
    return left;
  }

  private compare(): Ast {
    const left = this.additive();
    if (this.is('OP') && COMPARE.has(this.t.text)) {
      const op = this.take().text as BinOp;
      const right = this.additive();
      if (this.is('OP') && COMPARE.has(this.t.text)) this.fail();
      return { k: 'binop', op, left, right };
    }
    return left;
  }

  private additive(): Ast {
    let left = this.multiplicative();
    while (this.op('+') || this.op('-')) {
      const op = this.take().text as BinOp;
      left = { k: 'binop', op, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Ast {
    let left = this.unary();
    while (this.op('*') || this.op('/') || this.op('%')) {
      const op = this.take().text as BinOp;
      left = { k: 'binop', op, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Ast {
    if (this.op('-')) {
      this.take();
      return { k: 'neg', body: this.multiplicative() };
    }
    return this.postfix(true);
  }

  /** A Term with its suffixes; with `allowAs`, `Term as $x | body` too. */
  private postfix(allowAs: boolean): Ast {
    let t = this.primary();
    for (;;) {
      if (this.is('FIELD')) {
        t = this.optional({ k: 'index', target: t, key: lit(this.take().text), opt: false });
      } else if (this.op('.') && (this.toks[this.i + 1].kind === 'QQSTRING_START' || this.toks[this.i + 1].kind === 'FORMAT')) {
        this.take();
        t = this.optional({ k: 'index', target: t, key: this.string(), opt: false });
      } else if (this.op('[') || (this.op('.') && this.toks[this.i + 1].kind === 'OP' && this.toks[this.i + 1].text === '[')) {
        if (this.op('.')) this.take();
        t = this.optional(this.bracket(t));
      } else if (this.op('?')) {
        this.take();
        t = { k: 'try', body: t, catch: null };
      } else break;
    }
    if (allowAs && this.kw('as')) {
      this.take();
      const patterns = this.patterns();
      this.expectOp('|');
      return { k: 'as', source: t, patterns, body: this.pipe() };
    }
    return t;
  }

  /** A trailing `?` makes the index/slice/iteration suppress its own error. */
  private optional(a: Ast): Ast {
    if (!this.op('?')) return a;
    this.take();
    if (a.k === 'index' || a.k === 'slice' || a.k === 'iterate') return { ...a, opt: true };
    return { k: 'try', body: a, catch: null };
  }

  /** `[]`, `[e]`, `[e:]`, `[:e]`, `[e:e]` after a term. */
  private bracket(target: Ast): Ast {
    this.expectOp('[');
    if (this.op(']')) {
      this.take();
      return { k: 'iterate', target, opt: false };
    }
    if (this.op(':')) {
      this.take();
      const to = this.pipe();
      this.expectOp(']');
      return { k: 'slice', target, from: null, to, opt: false };
    }
    const key = this.pipe();
    if (this.op(':')) {
      this.take();
      if (this.op(']')) {
        this.take();
        return { k: 'slice', target, from: key, to: null, opt: false };
      }
      const to = this.pipe();
      this.expectOp(']');
      return { k: 'slice', target, from: key, to, opt: false };
    }
    this.expectOp(']');
    return { k: 'index', target, key, opt: false };
  }

  private primary(): Ast {
    const t = this.t;
    switch (t.kind) {
      case 'LITERAL':
        this.take();
        return { k: 'literal', value: numberLiteral(t.text) ?? Number(t.text) };
      case 'FIELD':
        this.take();
        return this.optional({ k: 'index', target: { k: 'identity' }, key: lit(t.text), opt: false });
      case 'QQSTRING_START':
        return this.string();
      case 'FORMAT':
        if (this.toks[this.i + 1].kind === 'QQSTRING_START') return this.string();
        this.take();
        return { k: 'format', name: t.text, pos: t.pos };
      case 'VAR':
        this.take();
        if (t.text === '__loc__') return { k: 'loc', line: this.line(t.pos) };
        return { k: 'var', name: t.text, pos: t.pos };
      case 'IDENT': {
        this.take();
        if (t.text === 'true' || t.text === 'false' || t.text === 'null') {
          if (!this.op('(')) return lit(t.text === 'null' ? null : t.text === 'true');
        }
        const args: Ast[] = [];
        if (this.op('(')) {
          this.take();
          for (;;) {
            args.push(this.pipe());
            if (this.op(';')) {
              this.take();
              continue;
            }
            this.expectOp(')');
            break;
          }
        }
        return { k: 'call', name: t.text, args, pos: t.pos };
      }
      case 'KEYWORD':
        return this.keywordForm(t);
      case 'OP':
        return this.opForm(t);
      default:
        return this.fail();
    }
  }

  private opForm(t: Token): Ast {
    switch (t.text) {
      case '.':
        this.take();
        if (this.is('QQSTRING_START') || this.is('FORMAT')) {
          return this.optional({ k: 'index', target: { k: 'identity' }, key: this.string(), opt: false });
        }
        if (this.op('[')) return this.optional(this.bracket({ k: 'identity' }));
        return { k: 'identity' };
      case '..':
        this.take();
        return { k: 'recurse_default' };
      case '(': {
        this.take();
        const e = this.pipe();
        this.expectOp(')');
        return e;
      }
      case '[': {
        this.take();
        if (this.op(']')) {
          this.take();
          return { k: 'array', body: null };
        }
        const body = this.pipe();
        this.expectOp(']');
        return { k: 'array', body };
      }
      case '{':
        return this.object();
      case '-':
        this.take();
        return { k: 'neg', body: this.postfix(false) };
      default:
        return this.fail();
    }
  }

  private keywordForm(t: Token): Ast {
    switch (t.text) {
      case 'if':
        return this.ifForm();
      case 'try': {
        this.take();
        const body = this.postfixNoAs();
        let handler: Ast | null = null;
        if (this.kw('catch')) {
          this.take();
          handler = this.postfixNoAs();
        }
        return { k: 'try', body, catch: handler };
      }
      case 'reduce': {
        this.take();
        const source = this.postfixNoAs();
        this.expectKw('as');
        const patterns = this.patterns();
        this.expectOp('(');
        const init = this.pipe();
        this.expectOp(';');
        const update = this.pipe();
        this.expectOp(')');
        return { k: 'reduce', source, patterns, init, update };
      }
      case 'foreach': {
        this.take();
        const source = this.postfixNoAs();
        this.expectKw('as');
        const patterns = this.patterns();
        this.expectOp('(');
        const init = this.pipe();
        this.expectOp(';');
        const update = this.pipe();
        let extract: Ast | null = null;
        if (this.op(';')) {
          this.take();
          extract = this.pipe();
        }
        this.expectOp(')');
        return { k: 'foreach', source, patterns, init, update, extract };
      }
      case 'label': {
        this.take();
        if (!this.is('VAR')) this.fail();
        const name = this.take().text;
        this.expectOp('|');
        return { k: 'label', name, body: this.pipe() };
      }
      case 'def': {
        const def = this.funcDef();
        return { k: 'def', def, rest: this.pipe() };
      }
      case 'break': {
        this.take();
        if (!this.is('VAR')) this.fail();
        const v = this.take();
        return { k: 'break', name: v.text, pos: t.pos };
      }
      default:
        return this.fail();
    }
  }

  private postfixNoAs(): Ast {
    if (this.op('-')) {
      this.take();
      return { k: 'neg', body: this.postfixNoAs() };
    }
    return this.postfix(false);
  }

  private ifForm(): Ast {
    const pos = this.take().pos;
    const cond = this.pipe();
    this.expectKw('then');
    try {
      return this.ifRest(cond);
    } catch (e) {
      // jq's grammar recovers from an error after `then` and says why.
      if (e instanceof CompileError && e.more.length === 0 && e.msg.startsWith('syntax error')) {
        e.more.push(new CompileError("Possibly unterminated 'if' statement", pos));
      }
      throw e;
    }
  }

  private ifRest(cond: Ast): Ast {
    const then = this.pipe();
    if (this.kw('elif')) return { k: 'if', cond, then, else: this.ifForm() };
    if (this.kw('else')) {
      this.take();
      const e = this.pipe();
      this.expectKw('end');
      return { k: 'if', cond, then, else: e };
    }
    this.expectKw('end');
    return { k: 'if', cond, then, else: null };
  }

  /** A string literal, possibly with interpolations and a format (`@base64 "..."`). */
  private string(): Ast {
    let format: string | null = null;
    if (this.is('FORMAT')) format = this.take().text;
    return this.stringLit(format);
  }

  private stringLit(format: string | null): Ast {
    if (!this.is('QQSTRING_START')) this.fail();
    this.take();
    const parts: (string | Ast)[] = [];
    for (;;) {
      const t = this.t;
      if (t.kind === 'QQSTRING_TEXT') {
        parts.push(this.take().text);
      } else if (t.kind === 'QQSTRING_INTERP_START') {
        this.take();
        parts.push(this.pipe());
        if (!this.is('QQSTRING_INTERP_END')) this.fail();
        this.take();
      } else if (t.kind === 'QQSTRING_END') {
        this.take();
        break;
      } else this.fail();
    }
    if (parts.every((p) => typeof p === 'string')) return lit(parts.join(''));
    return { k: 'string', parts, format };
  }

  private object(): Ast {
    this.take();
    const entries: { key: Ast; value: Ast }[] = [];
    while (!this.op('}')) {
      const t = this.t;
      let key: Ast;
      let value: Ast | null = null;
      if (t.kind === 'IDENT' || t.kind === 'KEYWORD') {
        if (t.kind === 'KEYWORD' && t.text === '__loc__') this.fail();
        this.take();
        key = lit(t.text);
        if (!this.op(':')) value = { k: 'index', target: { k: 'identity' }, key, opt: false };
      } else if (t.kind === 'VAR') {
        this.take();
        if (t.text === '__loc__') {
          key = lit('__loc__');
          value = { k: 'loc', line: this.line(t.pos) };
        } else if (this.op(':')) {
          key = { k: 'var', name: t.text, pos: t.pos };
        } else {
          key = lit(t.text);
          value = { k: 'var', name: t.text, pos: t.pos };
        }
      } else if (t.kind === 'QQSTRING_START' || t.kind === 'FORMAT') {
        key = this.string();
        if (!this.op(':')) value = { k: 'index', target: { k: 'identity' }, key, opt: false };
      } else if (t.kind === 'OP' && t.text === '(') {
        this.take();
        key = this.pipe();
        this.expectOp(')');
        const c = constValue(key);
        if (c !== undefined && typeof c !== 'string') {
          throw new CompileError(`Cannot use ${describeConst(c)} as object key`, t.pos);
        }
        if (!this.op(':')) this.fail();
      } else return this.fail();
      if (value === null) {
        this.expectOp(':');
        value = this.objectValue();
      }
      entries.push({ key, value });
      if (this.op(',')) {
        this.take();
        continue;
      }
      if (!this.op('}')) this.fail();
    }
    this.take();
    return { k: 'object', entries };
  }

  /** ExpD: terms joined by `|`, with optional unary minus. */
  private objectValue(): Ast {
    let left: Ast;
    if (this.op('-')) {
      this.take();
      left = { k: 'neg', body: this.objectValue() };
      return left;
    }
    left = this.postfix(false);
    if (this.op('|')) {
      this.take();
      return { k: 'pipe', left, right: this.objectValue() };
    }
    return left;
  }

  private patterns(): Pattern[] {
    const out = [this.pattern()];
    while (this.op('?//')) {
      this.take();
      out.push(this.pattern());
    }
    return out;
  }

  private pattern(): Pattern {
    const t = this.t;
    if (t.kind === 'VAR') {
      this.take();
      return { k: 'pvar', name: t.text, pos: t.pos };
    }
    if (this.op('[')) {
      this.take();
      const elems: Pattern[] = [];
      for (;;) {
        elems.push(this.pattern());
        if (this.op(',')) {
          this.take();
          continue;
        }
        this.expectOp(']');
        break;
      }
      return { k: 'parray', elems };
    }
    if (this.op('{')) {
      this.take();
      const entries: ObjPatEntry[] = [];
      for (;;) {
        entries.push(this.objPatEntry());
        if (this.op(',')) {
          this.take();
          continue;
        }
        this.expectOp('}');
        break;
      }
      return { k: 'pobject', entries };
    }
    return this.fail();
  }

  private objPatEntry(): ObjPatEntry {
    const t = this.t;
    if (t.kind === 'VAR') {
      this.take();
      if (this.op(':')) {
        this.take();
        return { key: null, bind: t.text, pat: this.pattern(), pos: t.pos };
      }
      return { key: null, bind: t.text, pat: null, pos: t.pos };
    }
    let key: Ast;
    if (t.kind === 'IDENT' || t.kind === 'KEYWORD') {
      this.take();
      key = lit(t.text);
    } else if (t.kind === 'QQSTRING_START' || t.kind === 'FORMAT') key = this.string();
    else if (this.op('(')) {
      this.take();
      key = this.pipe();
      this.expectOp(')');
      const c = constValue(key);
      if (c !== undefined && typeof c !== 'string') throw new CompileError(`Cannot use ${describeConst(c)} as object key`, t.pos);
    } else return this.fail();
    this.expectOp(':');
    return { key, bind: null, pat: this.pattern(), pos: t.pos };
  }
}

const lit = (value: Json): Ast => ({ k: 'literal', value });

/** The value of a constant expression (literals, arrays and objects of constants), else undefined. */
export function constValue(a: Ast): Json | undefined {
  switch (a.k) {
    case 'literal':
      return a.value;
    case 'neg': {
      const v = constValue(a.body);
      return typeof v === 'number' ? -v : undefined;
    }
    case 'array': {
      if (a.body === null) return [];
      const items: Json[] = [];
      const walk = (x: Ast): boolean => {
        if (x.k === 'comma') return walk(x.left) && walk(x.right);
        const v = constValue(x);
        if (v === undefined) return false;
        items.push(v);
        return true;
      };
      return walk(a.body) ? items : undefined;
    }
    case 'object': {
      const m = new Map<string, Json>();
      for (const e of a.entries) {
        const k = constValue(e.key);
        const v = constValue(e.value);
        if (typeof k !== 'string' || v === undefined) return undefined;
        m.set(k, v);
      }
      return m;
    }
    default:
      return undefined;
  }
}

function describeConst(v: Json): string {
  const type = v === null ? 'null' : typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? 'number' : Array.isArray(v) ? 'array' : 'object';
  const text = JSON.stringify(v instanceof Map ? Object.fromEntries(v) : v);
  return `${type} (${text.length > 11 ? text.slice(0, 11) + '...' : text})`;
}
