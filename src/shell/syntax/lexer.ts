// Tokens and words. The parser drives the lexer and tells it the context
// (bash's grammar is context-sensitive), so words are read on demand.
// `$( )` bodies are parsed recursively by the parser itself, which is what
// makes `case` and unbalanced `)` inside command substitutions work.
import type {
  ArithExp, BadSubst, CmdSubst, DblQuoted, ParamExp, ParamOp, ProcSubst, Stmt, Warning, Word, WordPart,
} from './ast.js';
import { decodeAnsi } from './ansi.js';
import { parseArithWord } from './arith.js';
import { msg, ParseError } from './errors.js';
import { Scanner } from './scanner.js';

export interface ParseOptions {
  /** Recognise `@(..)` `!(..)` `*(..)` `+(..)` `?(..)` in words (bash's `shopt -s extglob`). */
  extglob?: boolean;
  /** Interactive input: an unterminated here-doc is incomplete instead of a warning. */
  interactive?: boolean;
  /** POSIX mode: no tilde expansion after `=` in command words that look like assignments. */
  posix?: boolean;
}

/**
 * How a word is read:
 * normal   command words (ends at blanks and metacharacters)
 * cond     words inside `[[ ]]` (same ends); condPat: `==` right side, extglob always on
 * regex    the `=~` right side: parentheses nest and may hold blanks, `|` is literal
 * dquote   inside "..."            heredoc  an unquoted here-doc body (ends at the end)
 * param    `${x:-word}` operand    pattern  `${x/pattern/...}` (ends at `/` too)
 * slice    `${x:off:...}` (ends at `:` too)
 * arith    `$(( ))` body (ends at the `)` that closes depth 0)
 * index    `[...]` subscripts (ends at the `]` that closes depth 0)
 */
export type Mode = 'normal' | 'cond' | 'condPat' | 'regex' | 'dquote' | 'heredoc' | 'param' | 'pattern' | 'slice' | 'arith' | 'index';

export type Tok =
  | { kind: 'word'; word: Word; raw: string; start: number; end: number }
  | { kind: 'op'; op: string; fd: number | null; fdVar: string | null; start: number; end: number }
  | { kind: 'nl'; start: number; end: number }
  | { kind: 'eof'; start: number; end: number };

interface PendingHeredoc {
  redir: { heredoc: Word | null; unparsed?: string };
  delim: string;
  strip: boolean;
  quoted: boolean;
  line: number;
}

const OPS3 = [';;&', '<<-', '<<<', '&>>'];
const OPS2 = ['&&', '||', ';;', ';&', '|&', '>|', '>>', '<>', '<&', '>&', '&>', '<<'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const SPECIAL_PARAMS = '@*#?$!-';
const FD_PREFIX = /(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})(?=[<>])/y;

export const isNameStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
export const isNameChar = (c: string): boolean => isNameStart(c) || (c >= '0' && c <= '9');
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export abstract class Lexer extends Scanner {
  readonly opts: ParseOptions;
  readonly warnings: Warning[];
  protected pending: PendingHeredoc[] = [];
  private tok: Tok | null = null;
  private tokMode: Mode = 'normal';

  constructor(src: string, opts: ParseOptions, baseLine = 1, fullSrc?: string, warnings: Warning[] = []) {
    super(src, baseLine, fullSrc);
    this.opts = opts;
    this.warnings = warnings;
  }

  /** Parses a `$(`/`<(` body up to (not including) its `)`. */
  protected abstract parseNested(): Stmt[];
  /** A parser over other text (backquote bodies, here-doc bodies) sharing options and warnings. */
  protected abstract sub(src: string, baseLine: number): Lexer;
  /** Parses a whole separate text (a backquote body). */
  protected abstract parseAllStmts(): Stmt[];

  // ---------------------------------------------------------------- tokens

  peek(mode: Mode = 'normal'): Tok {
    if (this.tok === null || this.tokMode !== mode) {
      if (this.tok !== null) this.i = this.tok.start;
      this.tok = this.readToken(mode);
      this.tokMode = mode;
      this.i = this.tok.start;
    }
    return this.tok;
  }

  next(mode: Mode = 'normal'): Tok {
    const t = this.peek(mode);
    this.tok = null;
    this.i = t.end;
    if (t.kind === 'nl' && this.pending.length > 0) this.readHeredocs();
    return t;
  }

  /** Forgets a peeked token so the cursor can be re-read differently (assignments, `((`). */
  unpeek(): number {
    if (this.tok !== null) {
      this.i = this.tok.start;
      this.tok = null;
    }
    this.skipBlanks();
    return this.i;
  }

  /** Text shown for a token in `near unexpected token`. */
  tokText(t: Tok): string {
    switch (t.kind) {
      case 'word': return t.raw;
      case 'op': return t.op;
      case 'nl': return 'newline';
      case 'eof': return 'end of file';
    }
  }

  /**
   * Where a word is required (redirection target, `for` name...): at EOF bash has
   * already seen the newline that ends `bash -c` input, and names that.
   */
  needWord(t: Tok): never {
    if (t.kind === 'eof') this.errToken('newline', t.start);
    return this.unexpected(t);
  }

  /** The standard syntax error for an unexpected token; at EOF, the incomplete-input error. */
  unexpected(t: Tok): never {
    if (t.kind === 'eof') this.errEOF();
    return this.errToken(this.tokText(t), t.start);
  }

  skipBlanks(): void {
    for (;;) {
      const c = this.ch();
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '#') {
        const e = this.src.indexOf('\n', this.i);
        this.i = e < 0 ? this.src.length : e;
      } else return;
    }
  }

  private readToken(mode: Mode): Tok {
    this.skipBlanks();
    const start = this.i;
    const c = this.ch();
    if (c === '') {
      if (this.pending.length > 0) this.readHeredocs();
      return { kind: 'eof', start: this.i, end: this.i };
    }
    if (c === '\n') return { kind: 'nl', start, end: start + 1 };
    let fd: number | null = null;
    let fdVar: string | null = null;
    if (mode === 'normal' && (isDigit(c) || c === '{')) {
      FD_PREFIX.lastIndex = start;
      const m = FD_PREFIX.exec(this.src);
      if (m) {
        if (m[1][0] === '{') fdVar = m[1].slice(1, -1);
        else fd = Number(m[1]);
        this.i += m[1].length;
      }
    }
    const d = this.ch();
    if ((d === '<' || d === '>') && this.at(1) === '(' && fd === null && fdVar === null) {
      return this.finishWord(start, mode);
    }
    // A regex may start with a group: `[[ $x =~ (a|b) ]]`.
    if (mode === 'regex' && d === '(') return this.finishWord(start, mode);
    if (META.has(d) && d !== ' ' && d !== '\t' && d !== '\n') {
      // Longest operator, reading through line continuations (`&\<newline>&` is `&&`).
      let s = '';
      const ends: number[] = [];
      while (s.length < 3) {
        const c = this.ch();
        if (c === '') break;
        s += c;
        ends.push(++this.i);
      }
      const op = OPS3.includes(s) ? s : OPS2.includes(s.slice(0, 2)) ? s.slice(0, 2) : d;
      this.i = ends[op.length - 1];
      return { kind: 'op', op, fd, fdVar, start, end: this.i };
    }
    return this.finishWord(start, mode);
  }

  private finishWord(start: number, mode: Mode): Tok {
    this.i = start;
    const word = this.readWord(mode);
    return { kind: 'word', word, raw: this.src.slice(start, this.i), start, end: this.i };
  }

  readWord(mode: Mode): Word {
    const { line, col } = this.loc();
    const parts = this.readParts(mode, false, false);
    return { type: 'Word', parts, line, col };
  }

  // ---------------------------------------------------------------- words

  /**
   * Reads word parts until the mode's terminator (not consumed).
   * `dq`: inside double quotes (or a here-doc body), so only `$`, backquotes and some backslashes are special.
   * `sqLit`: single quotes are literal (double-quoted `${x:-'a'}`).
   */
  readParts(mode: Mode, dq: boolean, sqLit: boolean): WordPart[] {
    const parts: WordPart[] = [];
    let lit = '';
    let litAt = this.i;
    const flush = (): void => {
      if (lit !== '') {
        parts.push({ type: 'Lit', value: lit, ...this.loc(litAt) });
        lit = '';
      }
    };
    const push = (p: WordPart): void => {
      flush();
      parts.push(p);
    };
    const addLit = (s: string, n: number): void => {
      if (lit === '') litAt = this.i;
      lit += s;
      this.i += n;
    };
    let depth = 0;
    let parenAt = 0; // the outermost open `(` of a regex
    const extglob = mode === 'condPat' || (mode === 'normal' && this.opts.extglob === true);
    for (;;) {
      const c = this.ch();
      if (c === '') {
        if (mode === 'regex' && depth > 0) this.errRegexEOF(parenAt);
        break;
      }
      // Terminators, checked on unquoted characters only.
      switch (mode) {
        case 'normal': case 'cond': case 'condPat':
          if (META.has(c)) {
            if (c === '<' || c === '>') {
              if (this.at(1) === '(' && parts.length === 0 && lit === '') {
                push(this.readProcSubst());
                continue;
              }
            }
            flush();
            return parts;
          }
          break;
        case 'regex':
          if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === ';' || c === '&' || c === '<' || c === '>' || c === ')' ||
            (c === '|' && this.at(1) === '|'))) {
            flush();
            return parts;
          }
          if (c === '(' && depth++ === 0) parenAt = this.i;
          else if (c === ')') depth--;
          break;
        case 'dquote':
          if (c === '"') {
            flush();
            return parts;
          }
          break;
        case 'param':
          if (c === '}') {
            flush();
            return parts;
          }
          break;
        case 'pattern':
          if (c === '}' || c === '/') {
            flush();
            return parts;
          }
          break;
        case 'slice':
          if (c === '}' || (c === ':' && depth === 0)) {
            flush();
            return parts;
          }
          if (c === '(' && depth++ === 0) parenAt = this.i;
          else if (c === ')') depth--;
          break;
        case 'arith':
          if (c === ')') {
            if (depth === 0) {
              flush();
              return parts;
            }
            depth--;
          } else if (c === '(') depth++;
          break;
        case 'index':
          if (c === ']') {
            if (depth === 0) {
              flush();
              return parts;
            }
            depth--;
          } else if (c === '[') depth++;
          break;
        case 'heredoc':
          break;
      }
      switch (c) {
        case '\\': {
          const n = this.at(1);
          if (n === '') {
            addLit('\\', 1);
          } else if (dq) {
            const esc = n === '$' || n === '`' || n === '\\' || (n === '"' && mode !== 'heredoc') || (n === '}' && mode !== 'dquote' && mode !== 'heredoc');
            if (esc) addLit(n, 2);
            // `\/` keeps both characters (an escaped slash for the pattern matcher) without ending the pattern.
            else if (n === '/' && mode === 'pattern') addLit('\\/', 2);
            else addLit('\\', 1);
          } else {
            const at = this.i;
            this.i += 2;
            push({ type: 'Escaped', value: n, ...this.loc(at) });
          }
          continue;
        }
        case "'":
          if (dq && (sqLit || mode === 'dquote' || mode === 'heredoc')) break;
          push(this.readSingle());
          continue;
        case '"':
          if (mode === 'heredoc') break;
          push(this.readDouble(false));
          continue;
        case '`':
          push(this.readBackquote(dq));
          continue;
        case '$': {
          const p = this.readDollar(dq || mode === 'heredoc');
          if (p !== null) {
            push(p);
            continue;
          }
          break;
        }
        default:
          if (extglob && this.at(1) === '(' && '@!*+?'.includes(c)) {
            push(this.readExtGlob());
            continue;
          }
      }
      addLit(c, 1);
    }
    flush();
    return parts;
  }

  private readSingle(): WordPart {
    const start = this.i;
    const e = this.src.indexOf("'", start + 1);
    if (e < 0) this.errMatching("'", start);
    this.i = e + 1;
    return { type: 'SglQuoted', value: this.src.slice(start + 1, e), ...this.loc(start) };
  }

  private readDouble(locale: boolean): DblQuoted {
    const start = locale ? this.i - 1 : this.i;
    this.i++;
    const parts = this.readParts('dquote', true, true);
    if (this.ch() !== '"') this.errMatching('"', start);
    this.i++;
    return { type: 'DblQuoted', parts, locale, ...this.loc(start) };
  }

  private readExtGlob(): WordPart {
    const start = this.i;
    const op = this.src[start] as '@' | '!' | '*' | '+' | '?';
    let depth = 0;
    let k = start + 1;
    for (; k < this.src.length; k++) {
      const c = this.src[k];
      if (c === '\\') k++;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    if (k >= this.src.length) this.errMatching(')', start);
    this.i = k + 1;
    return { type: 'ExtGlob', op, pattern: this.src.slice(start + 2, k), ...this.loc(start) };
  }

  /** `` `...` ``: undo the backquote escaping, then parse the body as a script. */
  private readBackquote(dq: boolean): CmdSubst {
    const start = this.i;
    let text = '';
    let k = start + 1;
    for (;; k++) {
      if (k >= this.src.length) this.errMatching('`', start);
      const c = this.src[k];
      if (c === '`') break;
      if (c === '\\') {
        const n = this.src[k + 1] ?? '';
        if (n === '$' || n === '`' || n === '\\' || (dq && n === '"')) {
          text += n;
          k++;
          continue;
        }
      }
      text += c;
    }
    this.i = k + 1;
    const { line, col } = this.loc(start);
    const sub = this.sub(text, line);
    try {
      return { type: 'CmdSubst', stmts: (sub as Lexer).parseAllStmts(), backquote: true, line, col };
    } catch (e) {
      // bash parses backquote bodies only when it runs them; keep the text for then.
      if (!(e instanceof ParseError)) throw e;
      return { type: 'CmdSubst', stmts: [], backquote: true, unparsed: text, line, col };
    }
  }

  private readProcSubst(): ProcSubst {
    const start = this.i;
    const op = this.src[start] as '<' | '>';
    this.i += 2;
    const stmts = this.closeParen(start, this.parseNested());
    return { type: 'ProcSubst', op, stmts, ...this.loc(start) };
  }

  /** Consumes the `)` ending a nested list; at EOF, bash's "looking for matching `)'". */
  private closeParen(start: number, stmts: Stmt[]): Stmt[] {
    const t = this.peek();
    if (t.kind === 'eof') this.errMatching(')', start, true);
    if (t.kind !== 'op' || t.op !== ')') this.unexpected(t);
    this.next();
    return stmts;
  }

  /** After `$`: an expansion, or null when the `$` is literal. */
  private readDollar(dq: boolean): WordPart | null {
    const start = this.i;
    const n = this.at(1);
    const here = this.loc(start);
    if (n === '(') {
      if (this.at(2) === '(') {
        const a = this.tryArith(start, 3, '))');
        if (a !== null) return a;
      }
      this.i = start + 2;
      const stmts = this.closeParen(start, this.parseNested());
      return { type: 'CmdSubst', stmts, backquote: false, ...here };
    }
    if (n === '{') return this.readBrace(dq);
    if (n === '[') return this.tryArith(start, 2, ']');
    if (n === "'" && !dq) {
      const e = this.findAnsiEnd(start + 2);
      if (e < 0) this.errMatching("'", start);
      const raw = this.src.slice(start + 2, e);
      this.i = e + 1;
      return { type: 'AnsiQuoted', value: decodeAnsi(raw), raw, ...here };
    }
    if (n === '"' && !dq) {
      this.i++;
      return this.readDouble(true);
    }
    if (isNameStart(n)) {
      let k = start + 2;
      while (k < this.src.length && isNameChar(this.src[k])) k++;
      this.i = k;
      return this.param(this.src.slice(start + 1, k), true, here);
    }
    if (isDigit(n) || (n !== '' && SPECIAL_PARAMS.includes(n))) {
      this.i = start + 2;
      return this.param(n, true, here);
    }
    return null;
  }

  private param(name: string, short: boolean, here: { line: number; col: number }): ParamExp {
    return { type: 'ParamExp', short, name, index: null, length: false, indirect: false, names: null, op: null, ...here };
  }

  private findAnsiEnd(k: number): number {
    for (; k < this.src.length; k++) {
      if (this.src[k] === '\\') k++;
      else if (this.src[k] === "'") return k;
    }
    return -1;
  }

  /**
   * `$((...))` (close `))`) or `$[...]` (close `]`). Returns null when a `$((`
   * turns out to be `$(` followed by a subshell, as bash decides.
   */
  private tryArith(start: number, open: number, close: '))' | ']'): ArithExp | null {
    this.i = start + open;
    const here = this.loc(start);
    const wl = this.loc();
    const parts = close === ']' ? this.readParts('index', false, false) : this.readParts('arith', false, false);
    // EOF right after the first `)` is an error at the `$((` line, as in bash.
    if (this.ch() === '' || (close === '))' && this.at(1) === '')) this.errMatching(close === ']' ? ']' : ')', start);
    if (!this.src.startsWith(close, this.i)) return null;
    this.i += close.length;
    const word: Word = { type: 'Word', parts, ...wl };
    return { type: 'ArithExp', word, expr: parseArithWord(word), bracket: close === ']', ...here };
  }

  /**
   * The body of a `((` command or `for ((` starting at the cursor: the parts up to
   * the closing `))`, or null when there is no `))` there (then `((` is two subshells).
   */
  readArithParts(start: number): WordPart[] | null {
    const parts = this.readParts('arith', false, false);
    if (this.ch() === '' || this.at(1) === '') this.errMatching(')', start);
    if (!this.src.startsWith('))', this.i)) return null;
    this.i += 2;
    return parts;
  }

  private readBrace(dq: boolean): WordPart {
    const start = this.i;
    const here = this.loc(start);
    this.i += 2;
    const p = this.param('', false, here);
    const bad = (): BadSubst => this.badSubst(start);
    let c = this.ch();
    const n = this.at(1);
    const nameAhead = isNameChar(n) || (n !== '' && SPECIAL_PARAMS.includes(n));
    // ${##} is the length of $#, but ${##pat} and ${###} trim $# (a # operator follows the name #).
    const trimsCount = n === '#' && this.at(2) !== '}';
    // ${#-} and ${#?} are lengths too; ${#-word} is $# with a default.
    const opAfterCount = (n === '-' || n === '?' || n === '=' || n === '+') && this.at(2) !== '}';
    if (c === '#' && n !== '}' && nameAhead && !opAfterCount && !trimsCount) {
      p.length = true;
      this.i++;
    } else if (c === '!' && n !== '}' && (nameAhead)) {
      p.indirect = true;
      this.i++;
    }
    c = this.ch();
    if (isNameStart(c)) {
      let k = this.i + 1;
      while (k < this.src.length && isNameChar(this.src[k])) k++;
      p.name = this.src.slice(this.i, k);
      this.i = k;
    } else if (isDigit(c)) {
      let k = this.i + 1;
      while (k < this.src.length && isDigit(this.src[k])) k++;
      p.name = this.src.slice(this.i, k);
      this.i = k;
    } else if (c !== '' && SPECIAL_PARAMS.includes(c)) {
      p.name = c;
      this.i++;
    } else {
      return bad();
    }
    c = this.ch();
    if (c === '[' && isNameStart(p.name[0])) {
      this.i++;
      const wl = this.loc();
      const parts = this.readParts('index', false, false);
      if (this.ch() !== ']') this.errMatching('}', start);
      this.i++;
      p.index = { type: 'Word', parts, ...wl };
      c = this.ch();
    }
    if (p.indirect && (c === '*' || c === '@') && this.at(1) === '}' && p.index === null) {
      p.names = c;
      this.i++;
      c = this.ch();
    }
    if (c === '}') {
      this.i++;
      return p;
    }
    if (c === '') this.errMatching('}', start);
    if (p.length || p.names !== null) return bad();
    const word = (mode: Mode, sqLit: boolean): Word => {
      const wl = this.loc();
      const parts = this.readParts(mode, dq, dq && sqLit);
      if (this.ch() === '') this.errMatching('}', start);
      return { type: 'Word', parts, ...wl };
    };
    let op: ParamOp;
    const two = this.src.slice(this.i, this.i + 2);
    if (c === ':' && '-=?+'.includes(this.at(1)) && this.at(1) !== '') {
      this.i += 2;
      op = { kind: 'default', op: two[1] as '-', colon: true, word: word('param', true) };
    } else if (c === ':') {
      this.i++;
      const offset = word('slice', true);
      let length: Word | null = null;
      if (this.ch() === ':') {
        this.i++;
        length = word('param', true);
      }
      op = { kind: 'slice', offset, length };
    } else if ('-=?+'.includes(c)) {
      this.i++;
      op = { kind: 'default', op: c as '-', colon: false, word: word('param', true) };
    } else if (c === '#' || c === '%') {
      const o = two === '##' || two === '%%' ? two : c;
      this.i += o.length;
      op = { kind: 'trim', op: o as '#', pattern: word('param', false) };
    } else if (c === '/') {
      const o = two === '//' || two === '/#' || two === '/%' ? two : '/';
      this.i += o.length;
      // After //, the pattern's first character is part of it even when it is a / (${x////c} replaces
      // slashes); after /# and /% a / ends an empty pattern (${a/#/prefix}).
      const slash = o === '//' && this.ch() === '/' ? (this.i++, this.loc(this.i - 1)) : null;
      const pattern = word('pattern', false);
      if (slash) pattern.parts.unshift({ type: 'Lit', value: '/', ...slash });
      let w: Word | null = null;
      if (this.ch() === '/') {
        this.i++;
        w = word('param', true);
      }
      op = { kind: 'replace', op: o as '/', pattern, with: w };
    } else if (c === '^' || c === ',' || c === '~') {
      const o = two === '^^' || two === ',,' || two === '~~' ? two : c;
      this.i += o.length;
      const pat = word('param', false);
      op = { kind: 'case', op: o as '^', pattern: pat.parts.length > 0 ? pat : null };
    } else if (c === '@' && /^[QEPAKaUuLk]$/.test(this.at(1)) && this.at(2) === '}') {
      this.i += 2;
      op = { kind: 'transform', op: this.src[this.i - 1] };
    } else {
      return bad();
    }
    if (this.ch() !== '}') return bad();
    this.i++;
    p.op = op;
    return p;
  }

  /** `${...}` bash accepts while parsing but rejects when expanding: skip to the closing brace. */
  private badSubst(start: number): BadSubst {
    let depth = 0;
    let k = start + 2;
    for (; ; k++) {
      if (k >= this.src.length) this.errMatching('}', start);
      const c = this.src[k];
      if (c === '\\') k++;
      else if (c === "'") {
        const e = this.src.indexOf("'", k + 1);
        if (e < 0) this.errMatching("'", k);
        k = e;
      } else if (c === '$' && this.src[k + 1] === '{') {
        depth++;
        k++;
      } else if (c === '}') {
        if (depth === 0) break;
        depth--;
      }
    }
    this.i = k + 1;
    return { type: 'BadSubst', text: this.src.slice(start, k + 1), ...this.loc(start) };
  }

  // ---------------------------------------------------------------- here-documents

  protected addHeredoc(redir: { heredoc: Word | null; unparsed?: string }, delimRaw: string, strip: boolean, line: number): boolean {
    let delim = '';
    let quoted = false;
    for (let k = 0; k < delimRaw.length; k++) {
      const c = delimRaw[k];
      if (c === '\\') {
        quoted = true;
        if (k + 1 < delimRaw.length) delim += delimRaw[++k];
      } else if (c === "'" || c === '"') {
        quoted = true;
        const e = delimRaw.indexOf(c, k + 1);
        delim += delimRaw.slice(k + 1, e < 0 ? undefined : e);
        k = e < 0 ? delimRaw.length : e;
      } else if (c === '$' && (delimRaw[k + 1] === "'" || delimRaw[k + 1] === '"')) {
        continue;
      } else {
        delim += c;
      }
    }
    this.pending.push({ redir, delim, strip, quoted, line });
    return quoted;
  }

  /** Reads the bodies of the here-docs started on the line just ended. */
  protected readHeredocs(): void {
    const list = this.pending;
    this.pending = [];
    for (const h of list) {
      const bodyLine = this.loc().line;
      let body = '';
      let found = false;
      let lines = 0;
      while (this.i < this.src.length) {
        let e = this.src.indexOf('\n', this.i);
        const last = e < 0;
        if (last) e = this.src.length;
        const raw = this.src.slice(this.i, e);
        this.i = last ? e : e + 1;
        lines++;
        const text = h.strip ? raw.replace(/^\t+/, '') : raw;
        if (text === h.delim) {
          found = true;
          break;
        }
        // bash ends the last line of a body cut short by end of input with a newline too.
        body += text + '\n';
      }
      if (!found) {
        const m = msg.heredocEOF(h.line, h.delim);
        if (this.opts.interactive) throw new ParseError(m, h.line, 0, true);
        this.warnings.push({ line: h.line + lines, message: 'warning: ' + m });
      }
      const here = { line: bodyLine, col: 1 };
      if (h.quoted) {
        h.redir.heredoc = { type: 'Word', parts: body === '' ? [] : [{ type: 'Lit', value: body, ...here }], ...here };
      } else {
        try {
          h.redir.heredoc = { type: 'Word', parts: this.sub(body, bodyLine).readParts('heredoc', true, true), ...here };
        } catch (e) {
          // bash expands (and so parses) here-doc bodies only when it runs them.
          if (!(e instanceof ParseError)) throw e;
          h.redir.heredoc = { type: 'Word', parts: [], ...here };
          h.redir.unparsed = body;
        }
      }
    }
  }
}
