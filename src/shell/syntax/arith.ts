// Arithmetic expressions: a precedence-climbing parser over tokens taken from
// a word's parts. Used statically at parse time (`$(( ))`, `(( ))`, `for ((`)
// and, via parseArithmetic, at run time on already-expanded text, which is how
// bash itself works (it expands first, then parses).
import type { Arith, ArithAssignOp, ArithBinaryOp, ArithVar, ArithWord, Lit, Word, WordPart } from './ast.js';

/** An arithmetic syntax error, worded like bash's run-time message: `syntax error: operand expected (error token is "+ ")`. */
export class ArithSyntaxError extends Error {
  /** The unparsed rest of the expression, as bash quotes it. */
  readonly token: string;
  constructor(message: string, token: string) {
    super(`${message} (error token is "${token}")`);
    this.name = 'ArithSyntaxError';
    this.token = token;
  }
}

type ATok =
  | { k: 'num'; v: string; line: number; col: number; rest: string }
  | { k: 'name'; v: string; line: number; col: number; rest: string }
  | { k: 'op'; v: string; line: number; col: number; rest: string }
  | { k: 'word'; w: Word; line: number; col: number; rest: string }
  /** A subscript holding quotes or backslashes (`A['x']`, `A[\\]`): a key as written, a number to nothing else. */
  | { k: 'raw'; v: string; line: number; col: number; rest: string }
  | { k: 'end'; line: number; col: number; rest: string };

const OPS = [
  '<<=', '>>=', '**', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=',
  '+', '-', '*', '/', '%', '<', '>', '=', '!', '~', '&', '|', '^', '?', ':', ',', '(', ')', '[', ']',
];
const ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);

/** Binary operator levels, lowest first (after `,`, assignment and `?:`). `**` is right-associative. */
const LEVELS: string[][] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

/** Whether the tokens so far end with an operand (`1`, `x`, `)`, `x++`), so an operator comes next. */
function endsOperand(toks: ATok[]): boolean {
  let n = toks.length - 1;
  const isOp = (t: ATok | undefined, ...ops: string[]): boolean => t?.k === 'op' && ops.includes(t.v);
  while (isOp(toks[n], '++', '--')) n--;
  const t = toks[n];
  return t !== undefined && (t.k === 'op' ? isOp(t, ')', ']') : t.k !== 'end');
}

/** Splits the parts into tokens; null when expansions are glued to other operand text (`1$x`). */
function tokenize(parts: WordPart[], strict: boolean): ATok[] | null {
  const toks: ATok[] = [];
  // Text form of everything from each token on, for bash-style error tokens.
  const texts: string[] = [];
  let glued = false; // the previous token was an operand with nothing after it yet
  const pushTok = (t: ATok, operand: boolean): void => {
    toks.push(t);
    glued = operand;
  };
  for (const p of parts) {
    if (p.type !== 'Lit') {
      if (p.type === 'SglQuoted' || p.type === 'AnsiQuoted' || p.type === 'Escaped' || p.type === 'Tilde') return null;
      if (glued) return null;
      const w: Word = { type: 'Word', parts: [p], line: p.line, col: p.col };
      pushTok({ k: 'word', w, line: p.line, col: p.col, rest: '' }, true);
      texts.push('');
      continue;
    }
    const s = p.value;
    let k = 0;
    while (k < s.length) {
      const c = s[k];
      const col = p.col + k;
      if (c === ' ' || c === '\t' || c === '\n') {
        k++;
        glued = false;
        continue;
      }
      const m = /^[0-9][0-9A-Za-z_@#]*/.exec(s.slice(k)) ?? /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(k));
      if (m) {
        if (glued) return null;
        const isNum = c >= '0' && c <= '9';
        pushTok({ k: isNum ? 'num' : 'name', v: m[0], line: p.line, col, rest: s.slice(k) }, true);
        k += m[0].length;
        continue;
      }
      if (c === '[' && toks.at(-1)?.k === 'name' && glued) {
        const close = matchingBracket(s, k);
        const inner = s.slice(k + 1, close);
        if (close > 0 && /['"\\]/.test(inner)) {
          pushTok({ k: 'op', v: '[', line: p.line, col, rest: s.slice(k) }, false);
          pushTok({ k: 'raw', v: inner, line: p.line, col: col + 1, rest: s.slice(k + 1) }, true);
          pushTok({ k: 'op', v: ']', line: p.line, col: p.col + close, rest: s.slice(close) }, true);
          k = close + 1;
          continue;
        }
      }
      const op = OPS.find((o) => s.startsWith(o, k));
      if (op === undefined) {
        // bash words it by what it was looking for: an operator after an operand, else an operand.
        if (strict) throw new ArithSyntaxError(`syntax error: ${endsOperand(toks) ? 'invalid arithmetic operator' : 'operand expected'}`, s.slice(k));
        return null;
      }
      pushTok({ k: 'op', v: op, line: p.line, col, rest: s.slice(k) }, op === ')' || op === ']');
      k += op.length;
    }
  }
  const last = parts[parts.length - 1];
  toks.push({ k: 'end', line: last?.line ?? 0, col: last?.col ?? 0, rest: '' });
  return toks;
}

/** The index of the `]` closing the `[` at `open`, or -1. */
function matchingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '[') depth++;
    else if (s[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

class ArithParser {
  private k = 0;
  constructor(private readonly toks: ATok[]) {}

  private get t(): ATok {
    return this.toks[this.k];
  }

  private isOp(v: string): boolean {
    const t = this.t;
    return t.k === 'op' && t.v === v;
  }

  private fail(what: string): never {
    const t = this.t;
    throw new ArithSyntaxError(what, t.rest);
  }

  parseAll(): Arith {
    const e = this.comma();
    if (this.t.k !== 'end') this.fail('syntax error in expression');
    return e;
  }

  private comma(): Arith {
    let left = this.assign();
    while (this.isOp(',')) {
      const { line, col } = this.t;
      this.k++;
      left = { type: 'ArithBinary', op: ',', left, right: this.assign(), line, col };
    }
    return left;
  }

  private assign(): Arith {
    const left = this.cond();
    const t = this.t;
    if (t.k === 'op' && ASSIGN.has(t.v)) {
      if (left.type !== 'ArithVar' && left.type !== 'ArithWord') this.fail('attempted assignment to non-variable');
      this.k++;
      const value = this.assign();
      return { type: 'ArithAssign', op: t.v as ArithAssignOp, target: left, value, line: left.line, col: left.col };
    }
    return left;
  }

  private cond(): Arith {
    const test = this.binary(0);
    if (!this.isOp('?')) return test;
    this.k++;
    const then = this.comma();
    if (!this.isOp(':')) this.fail("`:' expected for conditional expression");
    this.k++;
    const otherwise = this.cond();
    return { type: 'ArithCond', test, then, else: otherwise, line: test.line, col: test.col };
  }

  private binary(level: number): Arith {
    if (level === LEVELS.length) return this.power();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.t;
      if (t.k !== 'op' || !LEVELS[level].includes(t.v)) return left;
      this.k++;
      const right = this.binary(level + 1);
      left = { type: 'ArithBinary', op: t.v as ArithBinaryOp, left, right, line: left.line, col: left.col };
    }
  }

  private power(): Arith {
    const left = this.unary();
    if (!this.isOp('**')) return left;
    this.k++;
    return { type: 'ArithBinary', op: '**', left, right: this.power(), line: left.line, col: left.col };
  }

  private unary(): Arith {
    const t = this.t;
    if (t.k === 'op' && (t.v === '!' || t.v === '~' || t.v === '-' || t.v === '+')) {
      this.k++;
      return { type: 'ArithUnary', op: t.v, postfix: false, arg: this.unary(), line: t.line, col: t.col };
    }
    if (t.k === 'op' && (t.v === '++' || t.v === '--')) {
      this.k++;
      const arg = this.unary();
      if (arg.type !== 'ArithVar' && arg.type !== 'ArithWord') this.fail('syntax error: operand expected');
      return { type: 'ArithUnary', op: t.v, postfix: false, arg, line: t.line, col: t.col };
    }
    return this.postfix();
  }

  private postfix(): Arith {
    const e = this.primary();
    const t = this.t;
    if ((e.type === 'ArithVar' || e.type === 'ArithWord') && t.k === 'op' && (t.v === '++' || t.v === '--')) {
      this.k++;
      return { type: 'ArithUnary', op: t.v, postfix: true, arg: e, line: e.line, col: e.col };
    }
    return e;
  }

  private primary(): Arith {
    const t = this.t;
    switch (t.k) {
      case 'num':
        this.k++;
        return { type: 'ArithNum', value: t.v, line: t.line, col: t.col };
      case 'raw':
        return this.fail('syntax error: operand expected');
      case 'word':
        this.k++;
        return { type: 'ArithWord', word: t.w, line: t.line, col: t.col } satisfies ArithWord;
      case 'name': {
        this.k++;
        const v: ArithVar = { type: 'ArithVar', name: t.v, index: null, line: t.line, col: t.col };
        if (this.isOp('[')) {
          this.k++;
          const raw = this.t;
          if (raw.k === 'raw') {
            // Evaluated as a number it is an error; an associative array takes the text as its key.
            v.index = { type: 'ArithNum', value: raw.v, line: raw.line, col: raw.col };
            this.k++;
          } else v.index = this.comma();
          if (!this.isOp(']')) this.fail("missing `]'");
          this.k++;
        }
        return v;
      }
      case 'op':
        if (t.v === '(') {
          this.k++;
          const e = this.comma();
          if (!this.isOp(')')) this.fail("missing `)'");
          this.k++;
          return e;
        }
        return this.fail('syntax error: operand expected');
      case 'end':
        return this.fail('syntax error: operand expected');
    }
  }
}

/**
 * The static parse of an arithmetic word, or null when bash would only know
 * its shape after expansion (`$((1$x))`, `$(($a $op $b))`) or it is malformed
 * (bash reports those when it evaluates them, not while parsing).
 */
export function parseArithWord(word: Word): Arith | null {
  try {
    const toks = tokenize(word.parts, false);
    if (toks === null || toks.length === 1) return null;
    return new ArithParser(toks).parseAll();
  } catch (e) {
    if (e instanceof ArithSyntaxError) return null;
    throw e;
  }
}

/** Parses expanded arithmetic text at run time; throws ArithSyntaxError with bash's wording. */
export function parseArithmetic(text: string, line = 1): Arith {
  const lit: Lit = { type: 'Lit', value: text, line, col: 1 };
  const toks = tokenize([lit], true) as ATok[];
  return new ArithParser(toks).parseAll();
}
