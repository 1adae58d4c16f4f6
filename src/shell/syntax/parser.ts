// Recursive-descent parser for bash's grammar. Reserved words are recognised
// only where bash recognises them (command position, `in`/`do` slots), and
// redirections may appear anywhere in a simple command.
import type {
  ArithExp, ArrayElem, Assign, Case, CaseItem, Command, CompoundCommand, DeclCommand, For, FunctionDef, If, IfClause,
  Redirect, RedirOp, Script, SimpleCommand, Stmt, Word, WordPart,
} from './ast.js';
import { parseArithWord } from './arith.js';
import { parseCond } from './cond.js';
import { Lexer, isNameChar, isNameStart, type ParseOptions, type Tok } from './lexer.js';
import { markArgTildes, markTildes } from './tilde.js';

const REDIR_OPS = new Set(['<', '>', '>|', '>>', '<>', '<&', '>&', '&>', '&>>', '<<', '<<-', '<<<']);
const LIST_END_OPS = new Set([')', ';;', ';&', ';;&']);
/** Reserved words that can never start a command. */
/** Does the command end with a compound command's closing word (`}`, `fi`, `done`, `)`...)? */
function endsInCompound(cmd: Command): boolean {
  if (cmd.type === 'AndOr') return endsInCompound(cmd.right);
  if (cmd.type === 'Pipeline') return endsInCompound(cmd.cmds[cmd.cmds.length - 1]);
  return cmd.type !== 'SimpleCommand' && cmd.type !== 'FunctionDef' && cmd.type !== 'DeclCommand';
}

const CLOSERS = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', 'esac', '}']);
const DECL = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
const ASSIGN_START = /^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)/;
const FUNC_PARENS = /[ \t]*\([ \t]*\)/y;

const NONE: ReadonlySet<string> = new Set();
const THEN = new Set(['then']);
const IF_BODY = new Set(['elif', 'else', 'fi']);
const FI = new Set(['fi']);
const DO = new Set(['do']);
const DONE = new Set(['done']);
const BRACE_END = new Set(['}']);
const ESAC = new Set(['esac']);

export class Parser extends Lexer {
  constructor(src: string, opts: ParseOptions = {}, baseLine = 1, fullSrc?: string, warnings?: Script['warnings']) {
    super(src, opts, baseLine, fullSrc, warnings);
  }

  protected sub(src: string, baseLine: number): Parser {
    return new Parser(src, this.opts, baseLine, this.fullSrc, this.warnings);
  }

  protected parseNested(): Stmt[] {
    return this.parseList(NONE);
  }

  protected parseAllStmts(): Stmt[] {
    const stmts: Stmt[] = [];
    for (let s = this.nextCommand(); s !== null; s = this.nextCommand()) stmts.push(...s);
    return stmts;
  }

  /** The whole script. */
  parseScript(): Script {
    const stmts = this.parseAllStmts();
    return { type: 'Script', stmts, warnings: this.warnings, line: this.baseLine, col: 1 };
  }

  /**
   * The next complete command (everything up to an unnested newline), or null at
   * the end. bash runs a script one complete command at a time, so a syntax error
   * further down does not stop earlier commands; the interpreter can do the same,
   * and change options such as extglob between calls.
   */
  nextCommand(): Stmt[] | null {
    this.skipNewlines();
    if (this.peek().kind === 'eof') return null;
    const stmts: Stmt[] = [];
    for (;;) {
      const stmt = this.stmt();
      stmts.push(stmt);
      const t = this.peek();
      if (t.kind === 'op' && (t.op === ';' || t.op === '&')) {
        this.next();
        stmt.background = t.op === '&';
        const u = this.peek();
        if (u.kind === 'nl') {
          this.next();
          return stmts;
        }
        if (u.kind === 'eof') return stmts;
        continue;
      }
      if (t.kind === 'nl') {
        this.next();
        return stmts;
      }
      if (t.kind === 'eof') return stmts;
      this.unexpected(t);
    }
  }

  private stmt(): Stmt {
    const { line, col } = this.locOf(this.peek());
    return { type: 'Stmt', cmd: this.andOr(), background: false, line, col };
  }

  private locOf(t: Tok): { line: number; col: number } {
    return this.loc(t.start);
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'nl') this.next();
  }

  private isWord(t: Tok, w: string): boolean {
    return t.kind === 'word' && t.raw === w;
  }

  private isOp(t: Tok, op: string): boolean {
    return t.kind === 'op' && t.op === op;
  }

  private expectWord(w: string): void {
    const t = this.next();
    if (!this.isWord(t, w)) this.unexpected(t);
  }

  /** A list of statements ending before a word in `ends`, a `)`/`;;`-like operator, or EOF. */
  private parseList(ends: ReadonlySet<string>): Stmt[] {
    const stmts: Stmt[] = [];
    for (;;) {
      this.skipNewlines();
      let t = this.peek();
      if (t.kind === 'eof' || (t.kind === 'op' && LIST_END_OPS.has(t.op)) || (t.kind === 'word' && ends.has(t.raw))) break;
      const stmt = this.stmt();
      stmts.push(stmt);
      t = this.peek();
      if (t.kind === 'op' && (t.op === ';' || t.op === '&')) {
        this.next();
        stmt.background = t.op === '&';
      } else if (t.kind === 'nl') {
        this.next();
      } else if (t.kind === 'word' && ends.has(t.raw) && endsInCompound(stmt.cmd)) {
        // A reserved word right after a compound command ends the list: `if { true; } then`.
      } else if (!(t.kind === 'eof' || (t.kind === 'op' && LIST_END_OPS.has(t.op)))) {
        this.unexpected(t);
      }
    }
    return stmts;
  }

  /** A compound body must hold at least one command: bash blames the token that ended it. */
  private body(ends: ReadonlySet<string>): Stmt[] {
    const stmts = this.parseList(ends);
    if (stmts.length === 0) this.unexpected(this.peek());
    return stmts;
  }

  private andOr(): Command {
    let left = this.pipeline();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.op !== '&&' && t.op !== '||')) return left;
      this.next();
      this.skipNewlines();
      const right = this.pipeline();
      left = { type: 'AndOr', op: t.op, left, right, line: left.line, col: left.col };
    }
  }

  private pipeline(): Command {
    const first = this.peek();
    const { line, col } = this.locOf(first);
    let time: null | 'time' | 'time -p' = null;
    let negated = false;
    if (this.isWord(first, 'time')) {
      this.next();
      time = 'time';
      if (this.isWord(this.peek(), '-p')) {
        this.next();
        time = 'time -p';
      }
    }
    let bang = false;
    while (this.isWord(this.peek(), '!')) {
      this.next();
      negated = !negated;
      bang = true;
    }
    const cmds: Command[] = [];
    const pipeAll: boolean[] = [];
    const t = this.peek();
    const bare = t.kind === 'eof' || t.kind === 'nl' || (t.kind === 'op' && (t.op === ';' || t.op === '&' || LIST_END_OPS.has(t.op)));
    if (!(bare && (time !== null || bang))) {
      cmds.push(this.command());
      for (;;) {
        const p = this.peek();
        if (p.kind !== 'op' || (p.op !== '|' && p.op !== '|&')) break;
        this.next();
        pipeAll.push(p.op === '|&');
        this.skipNewlines();
        cmds.push(this.command());
      }
    }
    if (cmds.length === 1 && !negated && time === null) return cmds[0];
    return { type: 'Pipeline', cmds, pipeAll, negated, time, line, col };
  }

  private command(): Command {
    const t = this.peek();
    if (t.kind === 'word') {
      switch (t.raw) {
        case 'if': case 'while': case 'until': case 'for': case 'select': case 'case': case '{': case '[[':
          return this.compound();
        case 'function':
          return this.functionKeyword();
        default:
          if (CLOSERS.has(t.raw)) this.unexpected(t);
          return this.simple();
      }
    }
    if (t.kind === 'op') {
      if (t.op === '(') return this.compound();
      if (REDIR_OPS.has(t.op)) return this.simple();
    }
    return this.unexpected(t);
  }

  private isCompoundStart(t: Tok): boolean {
    if (t.kind === 'op') return t.op === '(';
    return t.kind === 'word' && ['if', 'while', 'until', 'for', 'select', 'case', '{', '[['].includes(t.raw);
  }

  private compound(): CompoundCommand {
    const t = this.peek();
    const here = this.locOf(t);
    let cmd: CompoundCommand;
    if (t.kind === 'op') {
      cmd = this.parenCommand(t);
    } else {
      const raw = t.kind === 'word' ? t.raw : '';
      switch (raw) {
        case 'if': cmd = this.ifCommand(); break;
        case 'while': case 'until': {
          this.next();
          const cond = this.body(DO);
          this.expectWord('do');
          const body = this.body(DONE);
          this.expectWord('done');
          cmd = { type: 'While', until: raw === 'until', cond, body, redirs: [], ...here };
          break;
        }
        case 'for': case 'select': cmd = this.forCommand(raw === 'select'); break;
        case 'case': cmd = this.caseCommand(); break;
        case '{': {
          this.next();
          const stmts = this.body(BRACE_END);
          this.expectWord('}');
          cmd = { type: 'Group', stmts, redirs: [], ...here };
          break;
        }
        default: {
          this.next();
          const expr = parseCond(this, t.start);
          cmd = { type: 'TestCmd', expr, redirs: [], ...here };
        }
      }
    }
    for (let r = this.peek(); r.kind === 'op' && REDIR_OPS.has(r.op); r = this.peek()) cmd.redirs.push(this.redirect());
    return cmd;
  }

  /** `( list )`, or `(( expr ))` when the text up to a matching `))` allows it. */
  private parenCommand(t: Tok): CompoundCommand {
    const here = this.locOf(t);
    if (this.src[t.start + 1] === '(') {
      this.unpeek();
      this.i = t.start + 2;
      const wl = this.loc();
      const parts = this.readArithParts(t.start);
      if (parts !== null) {
        const word: Word = { type: 'Word', parts, ...wl };
        const expr: ArithExp = { type: 'ArithExp', word, expr: parseArithWord(word), bracket: false, ...here };
        return { type: 'ArithCmd', expr, redirs: [], ...here };
      }
      this.i = t.start;
    }
    this.next();
    const stmts = this.body(NONE);
    const c = this.next();
    if (!this.isOp(c, ')')) this.unexpected(c);
    return { type: 'Subshell', stmts, redirs: [], ...here };
  }

  private ifCommand(): If {
    const here = this.locOf(this.next());
    const clauses: IfClause[] = [];
    let at = here;
    for (;;) {
      const cond = this.body(THEN);
      this.expectWord('then');
      const body = this.body(IF_BODY);
      clauses.push({ type: 'IfClause', cond, body, ...at });
      const t = this.next();
      if (this.isWord(t, 'elif')) {
        at = this.locOf(t);
        continue;
      }
      let elseBody: Stmt[] | null = null;
      if (this.isWord(t, 'else')) {
        elseBody = this.body(FI);
        this.expectWord('fi');
      } else if (!this.isWord(t, 'fi')) {
        this.unexpected(t);
      }
      return { type: 'If', clauses, elseBody, redirs: [], ...here };
    }
  }

  /** `do list done`, or bash's `{ list }` form. */
  private loopBody(): Stmt[] {
    const t = this.peek();
    if (this.isWord(t, '{')) {
      this.next();
      const b = this.body(BRACE_END);
      this.expectWord('}');
      return b;
    }
    this.expectWord('do');
    const b = this.body(DONE);
    this.expectWord('done');
    return b;
  }

  private forCommand(select: boolean): CompoundCommand {
    const here = this.locOf(this.next());
    const t = this.peek();
    if (!select && this.isOp(t, '(') && this.src[t.start + 1] === '(') return this.arithFor(t, here);
    const nameTok = this.next();
    if (nameTok.kind !== 'word') this.needWord(nameTok);
    let words: Word[] | null = null;
    this.skipNewlines();
    let u = this.peek();
    if (this.isWord(u, 'in')) {
      this.next();
      words = [];
      for (u = this.peek(); u.kind === 'word'; u = this.peek()) words.push(this.takeWord());
      if (this.isOp(u, ';') || u.kind === 'nl') {
        this.next();
        this.skipNewlines();
      } else {
        this.unexpected(u);
      }
    } else if (this.isOp(u, ';')) {
      this.next();
      this.skipNewlines();
    }
    const body = this.loopBody();
    const f: For = { type: 'For', select, name: nameTok.raw, words, body, redirs: [], ...here };
    return f;
  }

  private arithFor(t: Tok, here: { line: number; col: number }): CompoundCommand {
    this.unpeek();
    this.i = t.start + 2;
    const parts = this.readArithParts(t.start);
    if (parts === null) this.errToken('(', t.start);
    const exprs = splitArith(parts, this.loc(t.start + 2));
    if (exprs.length !== 3) this.errToken('(', t.start);
    const [init, cond, step] = exprs;
    const u = this.peek();
    if (this.isOp(u, ';') || u.kind === 'nl') {
      this.next();
      this.skipNewlines();
    }
    const body = this.loopBody();
    return { type: 'ArithFor', init, cond, step, body, redirs: [], ...here };
  }

  private caseCommand(): Case {
    const here = this.locOf(this.next());
    const wt = this.next();
    if (wt.kind !== 'word') this.needWord(wt);
    const word = markTildes(wt.word, false);
    this.skipNewlines();
    this.expectWord('in');
    const items: CaseItem[] = [];
    for (;;) {
      this.skipNewlines();
      let t = this.peek();
      if (this.isWord(t, 'esac')) {
        this.next();
        break;
      }
      if (t.kind === 'eof') this.errEOF();
      const at = this.locOf(t);
      if (this.isOp(t, '(')) this.next();
      const patterns: Word[] = [];
      for (;;) {
        t = this.next();
        if (t.kind !== 'word') this.needWord(t);
        patterns.push(markTildes(t.word, false));
        t = this.next();
        if (this.isOp(t, '|')) continue;
        if (this.isOp(t, ')')) break;
        this.unexpected(t);
      }
      const body = this.parseList(ESAC);
      t = this.peek();
      let term: CaseItem['term'] = ';;';
      if (t.kind === 'op' && (t.op === ';;' || t.op === ';&' || t.op === ';;&')) {
        this.next();
        term = t.op;
      } else if (!this.isWord(t, 'esac')) {
        this.unexpected(t);
      }
      items.push({ type: 'CaseItem', patterns, body, term, ...at });
    }
    return { type: 'Case', word, items, redirs: [], ...here };
  }

  private functionKeyword(): FunctionDef {
    const here = this.locOf(this.next());
    const n = this.next();
    if (n.kind !== 'word') this.needWord(n);
    FUNC_PARENS.lastIndex = this.i;
    if (FUNC_PARENS.exec(this.src)) this.i = FUNC_PARENS.lastIndex;
    return this.functionBody(n.raw, true, here);
  }

  private functionBody(name: string, keyword: boolean, here: { line: number; col: number }): FunctionDef {
    this.skipNewlines();
    const t = this.peek();
    if (!this.isCompoundStart(t)) this.unexpected(t);
    return { type: 'FunctionDef', name, keyword, body: this.compound(), ...here };
  }

  // ---------------------------------------------------------------- simple commands

  private takeWord(): Word {
    const t = this.next();
    if (t.kind !== 'word') return this.unexpected(t);
    return markArgTildes(t.word, this.opts.posix === true);
  }

  private redirect(): Redirect {
    const t = this.next();
    if (t.kind !== 'op') return this.unexpected(t);
    const w = this.peek();
    if (w.kind !== 'word') this.needWord(w);
    this.next();
    const op = t.op as RedirOp;
    const r: Redirect = {
      type: 'Redirect', op, fd: t.fd, fdVar: t.fdVar, target: w.word, heredoc: null, quoted: false, ...this.locOf(t),
    };
    if (op === '<<' || op === '<<-') r.quoted = this.addHeredoc(r, w.raw, op === '<<-', this.locOf(t).line);
    else r.target = markTildes(w.word, false);
    return r;
  }

  private simple(): Command {
    const first = this.peek();
    const here = this.locOf(first);
    const assigns: Assign[] = [];
    const words: Word[] = [];
    const redirs: Redirect[] = [];
    let decl: DeclCommand | null = null;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'op' && REDIR_OPS.has(t.op)) {
        redirs.push(this.redirect());
        continue;
      }
      if (t.kind !== 'word') break;
      if ((words.length === 0 || decl !== null) && ASSIGN_START.test(t.raw)) {
        const a = this.assignment(decl === null, t.end);
        if (a !== null) {
          if (decl !== null) decl.args.push(a);
          else assigns.push(a);
          continue;
        }
      }
      if (words.length === 0) {
        FUNC_PARENS.lastIndex = t.end;
        if (assigns.length === 0 && redirs.length === 0 && FUNC_PARENS.exec(this.src)) {
          this.next();
          this.i = FUNC_PARENS.lastIndex;
          return this.functionBody(t.raw, false, here);
        }
        if (DECL.has(t.raw)) {
          decl = { type: 'DeclCommand', variant: t.raw as DeclCommand['variant'], assigns, args: [], redirs, ...here };
        }
      }
      const w = this.takeWord();
      if (decl !== null && words.length > 0) decl.args.push(w);
      words.push(w);
    }
    if (decl !== null) return decl;
    if (assigns.length === 0 && words.length === 0 && redirs.length === 0) this.unexpected(this.peek());
    const cmd: SimpleCommand = { type: 'SimpleCommand', assigns, words, redirs, ...here };
    return cmd;
  }

  /**
   * `name[index]+=value` / `name=(...)` at the cursor, or null (cursor restored).
   * In a command prefix, a subscript may contain blanks (`a[i + 1]=x`), as in bash.
   */
  private assignment(prefix: boolean, tokEnd: number): Assign | null {
    const start = this.unpeek();
    const here = this.loc(start);
    let k = start;
    while (isNameChar(this.src[k] ?? '')) k++;
    const name = this.src.slice(start, k);
    this.i = k;
    let index: Word | null = null;
    if (this.src[k] === '[') {
      this.i = k + 1;
      const wl = this.loc();
      const parts = this.readParts('index', false, false);
      if (this.ch() !== ']' || (!prefix && this.i > tokEnd)) {
        this.i = start;
        return null;
      }
      this.i++;
      index = { type: 'Word', parts, ...wl };
    }
    let append = false;
    if (this.startsWith('+=')) {
      append = true;
      this.i += 2;
    } else if (this.startsWith('=')) {
      this.i++;
    } else {
      this.i = start;
      return null;
    }
    if (this.src[this.i] === '(') {
      const array = this.arrayElems(this.i);
      return { type: 'Assign', name, index, append, value: null, array, ...here };
    }
    const value = markTildes(this.readWord('normal'), true);
    return { type: 'Assign', name, index, append, value, array: null, ...here };
  }

  /** `( elem... )` of an array assignment, with `[k]=v` elements. */
  private arrayElems(open: number): ArrayElem[] {
    this.i = open + 1;
    const elems: ArrayElem[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'nl') {
        this.next();
        continue;
      }
      if (t.kind === 'eof') this.errMatching(')', open);
      if (this.isOp(t, ')')) {
        this.next();
        return elems;
      }
      if (t.kind !== 'word') this.unexpected(t);
      const here = this.locOf(t);
      if (t.raw.startsWith('[')) {
        const start = this.unpeek();
        this.i = start + 1;
        const wl = this.loc();
        const parts = this.readParts('index', false, false);
        if (this.ch() === ']' && (this.at(1) === '=' || (this.at(1) === '+' && this.at(2) === '='))) {
          const append = this.at(1) === '+';
          this.i += append ? 3 : 2;
          const value = markTildes(this.readWord('normal'), true);
          elems.push({ type: 'ArrayElem', index: { type: 'Word', parts, ...wl }, append, value, ...here });
          continue;
        }
        this.i = start;
      }
      elems.push({ type: 'ArrayElem', index: null, append: false, value: this.takeWord(), ...here });
    }
  }
}

/** Splits a `for ((` body at its top-level `;` into three optional expressions. */
function splitArith(parts: WordPart[], at: { line: number; col: number }): (ArithExp | null)[] {
  const groups: WordPart[][] = [[]];
  for (const p of parts) {
    if (p.type !== 'Lit' || !p.value.includes(';')) {
      groups[groups.length - 1].push(p);
      continue;
    }
    const pieces = p.value.split(';');
    pieces.forEach((s, n) => {
      if (n > 0) groups.push([]);
      if (s !== '') groups[groups.length - 1].push({ ...p, value: s });
    });
  }
  return groups.map((g) => {
    if (g.every((p) => p.type === 'Lit' && p.value.trim() === '')) return null;
    const first = g[0];
    const word: Word = { type: 'Word', parts: g, line: first?.line ?? at.line, col: first?.col ?? at.col };
    return { type: 'ArithExp', word, expr: parseArithWord(word), bracket: false, line: word.line, col: word.col };
  });
}

export { isNameStart };
