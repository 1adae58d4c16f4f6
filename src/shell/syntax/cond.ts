// `[[ ... ]]` conditional expressions. Inside `[[`, `<` `>` are comparison
// operators, words are not split, `==` right sides are patterns (extglob on)
// and the `=~` right side is a regex read with its own word rules.
import type { Cond, Word } from './ast.js';
import { msg } from './errors.js';
import type { Lexer, Mode, Tok } from './lexer.js';
import { markTildes } from './tilde.js';

const UNARY = new Set([
  '-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x',
  '-G', '-L', '-N', '-O', '-S', '-z', '-n', '-o', '-v', '-R',
]);
const BINARY = new Set(['==', '=', '!=', '=~', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

class CondParser {
  constructor(private readonly p: Lexer) {}

  private peek(mode: Mode = 'cond'): Tok {
    return this.p.peek(mode);
  }

  private text(t: Tok): string {
    return this.p.tokText(t);
  }

  private fail(message: string, t: Tok): never {
    if (t.kind === 'eof') this.p.errEOF();
    return this.p.errAt(message, t.start);
  }

  private isEnd(t: Tok): boolean {
    return t.kind === 'word' && t.raw === ']]';
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'nl') this.p.next('cond');
  }

  private peekPastNewlines(): Tok {
    this.skipNewlines();
    return this.peek();
  }

  or(): Cond {
    let left = this.and();
    // Newlines may stand between the terms and operators of [[ ]] (bash).
    for (let t = this.peekPastNewlines(); t.kind === 'op' && t.op === '||'; t = this.peekPastNewlines()) {
      this.p.next('cond');
      this.skipNewlines();
      left = { type: 'CondAndOr', op: '||', left, right: this.and(), line: left.line, col: left.col };
    }
    return left;
  }

  private and(): Cond {
    let left = this.term();
    for (let t = this.peekPastNewlines(); t.kind === 'op' && t.op === '&&'; t = this.peekPastNewlines()) {
      this.p.next('cond');
      this.skipNewlines();
      left = { type: 'CondAndOr', op: '&&', left, right: this.term(), line: left.line, col: left.col };
    }
    return left;
  }

  private word(t: Tok): Word {
    if (t.kind !== 'word') throw new Error('not a word');
    return markTildes(t.word, false);
  }

  private term(): Cond {
    const t = this.peek();
    const here = this.p.loc(t.start);
    if (t.kind === 'eof') this.p.errEOF();
    // bash gives up silently on these; our message names the problem.
    if (this.isEnd(t)) this.fail(msg.condSyntax(), t);
    if (t.kind === 'word' && t.raw === '!') {
      this.p.next('cond');
      return { type: 'CondNot', arg: this.term(), ...here };
    }
    if (t.kind === 'op' && t.op === '(') {
      this.p.next('cond');
      this.skipNewlines();
      const arg = this.or();
      const c = this.peek();
      if (!(c.kind === 'op' && c.op === ')')) this.fail(msg.condExpectedParen(this.text(c)), c);
      this.p.next('cond');
      return { type: 'CondParen', arg, ...here };
    }
    if (t.kind !== 'word') this.fail(msg.condUnexpected(this.text(t)), t);
    this.p.next('cond');
    if (UNARY.has(t.raw)) {
      const a = this.peek();
      if (a.kind !== 'word' || this.isEnd(a)) this.fail(msg.condArgUnary(this.text(a)), a);
      this.p.next('cond');
      return { type: 'CondUnary', op: t.raw, arg: this.word(a), ...here };
    }
    const left = this.word(t);
    const o = this.peek();
    if (this.isEnd(o) || (o.kind === 'op' && (o.op === '&&' || o.op === '||' || o.op === ')'))) {
      return { type: 'CondWord', word: left, ...here };
    }
    // `bash -c` input ends with a newline, and that is what bash names.
    if (o.kind === 'eof') this.p.errAt(msg.condUnexpectedTokenBinary('newline'), o.start);
    const op = o.kind === 'word' ? o.raw : o.kind === 'op' ? o.op : '';
    if (!BINARY.has(op)) {
      if (o.kind === 'word') this.fail(msg.condBinaryExpected(), o);
      this.fail(msg.condUnexpectedTokenBinary(this.text(o)), o);
    }
    this.p.next('cond');
    const mode: Mode = op === '=~' ? 'regex' : op === '==' || op === '=' || op === '!=' ? 'condPat' : 'cond';
    const r = this.peek(mode);
    if (r.kind !== 'word' || this.isEnd(r)) this.fail(msg.condArgBinary(this.text(r)), r);
    this.p.next(mode);
    return { type: 'CondBinary', op, left, right: this.word(r), ...here };
  }
}

/** Parses after `[[` (already consumed) through the closing `]]`. */
export function parseCond(p: Lexer, _start: number): Cond {
  const c = new CondParser(p);
  const e = c.or();
  const t = p.peek('cond');
  if (!(t.kind === 'word' && t.raw === ']]')) {
    if (t.kind === 'eof') p.errEOF();
    p.errAt(msg.condSyntax(), t.start);
  }
  p.next('cond');
  return e;
}
