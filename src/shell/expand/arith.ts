// Arithmetic evaluation with bash semantics: 64-bit integers, C operators,
// variables whose values are themselves expressions, `base#digits` numbers.
// Like bash, `$(( ))` text is expanded first and the result parsed; parses are
// cached by text so loops do not re-parse.
import type { Arith, ArithExp, ArithVar, Word } from '../syntax/ast.js';
import { ArithSyntaxError, parseArithmetic } from '../syntax/arith.js';
import { print } from '../syntax/printer.js';
import { ShellError } from '../errors.js';

/**
 * An arithmetic evaluation error: fatal in word expansion (`$((1/0))`), a
 * plain failure with a `((: `/`[[: ` prefix where the interpreter catches it.
 */
export class ArithShellError extends ShellError {
  constructor(message: string) {
    super(message, 1, true);
  }
}
import type { ExpandContext } from './context.js';
import * as I from './int64.js';
import type { Int } from './int64.js';
import { expandArithText } from './word.js';

/** bash's MAX_EXPR_RECURSION_LEVEL. */
const MAX_DEPTH = 1024;
const CACHE_MAX = 4096;

/** An evaluation error before it is tied to the expression text. */
class ArithError extends Error {
  constructor(message: string, readonly token: string) {
    super(message);
  }
}

const cache = new Map<string, Arith>();

function parseCached(text: string): Arith {
  let e = cache.get(text);
  if (e === undefined) {
    e = parseArithmetic(text);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(text, e);
  }
  return e;
}

let depth = 0;

/** At the end of the text bash names the last token read (`1 +` → "+"), not an empty one. */
function syntaxMessage(e: ArithSyntaxError, text: string): string {
  if (e.token !== '') return e.message;
  const t = text.trimEnd();
  const last = /[-+*/%<>=!~&|^?:,(]+$/.exec(t)?.[0] ?? t.slice(-1);
  return e.message.replace(/\(error token is ""\)$/, `(error token is "${last}")`);
}

/** Evaluates expression text (already expanded) to an exact 64-bit value. */
export function evalArithValue(text: string, ctx: ExpandContext): Int {
  if (text.trim() === '') return 0;
  if (depth >= MAX_DEPTH) throw new ArithShellError(`${text}: expression recursion level exceeded (error token is "${text}")`);
  depth++;
  try {
    let expr: Arith;
    try {
      expr = parseCached(text);
    } catch (e) {
      // bash names the expression from its first non-blank character.
      if (e instanceof ArithSyntaxError) throw new ArithShellError(`${text.trimStart()}: ${syntaxMessage(e, text)}`);
      throw e;
    }
    return new Evaluator(ctx, text).eval(expr);
  } catch (e) {
    if (e instanceof ArithError) throw new ArithShellError(`${text.trimStart()}: ${e.message} (error token is "${e.token}")`);
    throw e;
  } finally {
    depth--;
  }
}

/** Evaluates expression text; exact up to 2^53 (use evalArithValue for the full 64-bit value). */
export function evalArithText(text: string, ctx: ExpandContext): number {
  return Number(evalArithValue(text, ctx));
}

/** Evaluates a parsed expression (e.g. the static `expr` of `(( ))`). */
export function evalArith(expr: Arith, ctx: ExpandContext): number {
  return Number(evalArithNode(expr, ctx));
}

export function evalArithNode(expr: Arith, ctx: ExpandContext): Int {
  try {
    return new Evaluator(ctx, null).eval(expr);
  } catch (e) {
    if (e instanceof ArithError) throw new ArithShellError(`${print(expr)}: ${e.message} (error token is "${e.token}")`);
    throw e;
  }
}

/**
 * `$(( ))`, `(( ))`, `for ((`: bash expands the text, then parses it. Literal
 * text needs no expansion, and its parse comes from the cache.
 */
export function evalArithExp(node: ArithExp, ctx: ExpandContext): Int {
  return evalArithValue(expandArithSource(node.word, ctx), ctx);
}

/** The expression text after parameter, command and arithmetic expansion (what bash then parses). */
export function expandArithSource(word: Word, ctx: ExpandContext): string {
  const parts = word.parts;
  if (parts.length === 1 && parts[0].type === 'Lit') return parts[0].value;
  return expandArithText(word, ctx);
}

/** A variable's value as a number: plain decimals directly, anything else as an expression. */
function valueOf(s: string, ctx: ExpandContext): Int {
  if (s === '') return 0;
  const c = s.charCodeAt(0);
  if (c >= 49 && c <= 57 && s.length < 16 && /^[1-9][0-9]*$/.test(s)) return Number(s);
  if (s === '0') return 0;
  return evalArithValue(s, ctx);
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_';

/** A number constant as written: decimal, 0x hex, 0 octal, base#digits. */
export function parseNumber(s: string): Int {
  if (/^[1-9][0-9]*$/.test(s) || s === '0') return I.fromDecimal(s);
  let base = 10;
  let digits = s;
  const hash = s.indexOf('#');
  if (hash >= 0) {
    const b = s.slice(0, hash);
    base = /^[0-9]+$/.test(b) ? Number(b) : NaN;
    if (!(base >= 2 && base <= 64)) throw new ArithError('invalid arithmetic base', s);
    digits = s.slice(hash + 1);
    if (digits === '') throw new ArithError('invalid integer constant', s);
  } else if (/^0[xX]/.test(s)) {
    base = 16;
    digits = s.slice(2);
  } else if (s[0] === '0') {
    base = 8;
    digits = s.slice(1);
  }
  let v = 0n;
  const B = BigInt(base);
  for (const ch of digits) {
    let d = DIGITS.indexOf(ch);
    if (base <= 36 && d >= 36 && d < 62) d -= 26;
    if (d < 0 || d >= base) throw new ArithError('value too great for base', s);
    v = BigInt.asIntN(64, v * B + BigInt(d));
  }
  return I.norm(v);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An assignable place: a variable or an array element (index already evaluated). */
interface Place {
  name: string;
  key: string | null;
  /** The text bash shows for the place in errors. */
  label: string;
}

class Evaluator {
  constructor(
    private readonly ctx: ExpandContext,
    /** The expression text, when known: for error tokens and associative-array keys. */
    private readonly text: string | null,
  ) {}

  /** The text from a node's start to the end, as bash shows an error token. */
  private rest(node: Arith): string {
    return this.text !== null ? this.text.slice(node.col - 1) : print(node);
  }

  eval(e: Arith): Int {
    switch (e.type) {
      case 'ArithNum':
        return parseNumber(e.value);
      case 'ArithVar':
      case 'ArithWord':
        return this.read(this.place(e));
      case 'ArithUnary':
        return this.unary(e.op, e.postfix, e.arg);
      case 'ArithBinary':
        return this.binary(e.op, e.left, e.right);
      case 'ArithCond':
        return I.isZero(this.eval(e.test)) ? this.eval(e.else) : this.eval(e.then);
      case 'ArithAssign': {
        const p = this.place(e.target);
        if (e.op === '=') return this.write(p, this.eval(e.value));
        const old = this.read(p);
        const v = this.eval(e.value);
        return this.write(p, this.apply(e.op.slice(0, -1), old, v, e.value));
      }
    }
  }

  private unary(op: string, postfix: boolean, arg: Arith): Int {
    switch (op) {
      case '!': return I.isZero(this.eval(arg)) ? 1 : 0;
      case '~': return I.bnot(this.eval(arg));
      case '-': return I.neg(this.eval(arg));
      case '+': return this.eval(arg);
    }
    const p = this.place(arg as ArithVar);
    const old = this.read(p);
    const v = op === '++' ? I.add(old, 1) : I.sub(old, 1);
    this.write(p, v);
    return postfix ? old : v;
  }

  private binary(op: string, left: Arith, right: Arith): Int {
    switch (op) {
      case ',':
        this.eval(left);
        return this.eval(right);
      case '&&':
        return !I.isZero(this.eval(left)) && !I.isZero(this.eval(right)) ? 1 : 0;
      case '||':
        return !I.isZero(this.eval(left)) || !I.isZero(this.eval(right)) ? 1 : 0;
    }
    const a = this.eval(left);
    return this.apply(op, a, this.eval(right), right);
  }

  private apply(op: string, a: Int, b: Int, right: Arith): Int {
    switch (op) {
      case '+': return I.add(a, b);
      case '-': return I.sub(a, b);
      case '*': return I.mul(a, b);
      case '/':
      case '%':
        if (I.isZero(b)) throw new ArithError('division by 0', this.rest(right));
        return op === '/' ? I.div(a, b) : I.mod(a, b);
      case '**':
        if (I.lt(b, 0)) throw new ArithError('exponent less than 0', this.rest(right).replace(/^-/, ''));
        return I.pow(a, b);
      case '<<': return I.shl(a, b);
      case '>>': return I.shr(a, b);
      case '&': return I.band(a, b);
      case '|': return I.bor(a, b);
      case '^': return I.bxor(a, b);
      case '==': return I.eq(a, b) ? 1 : 0;
      case '!=': return I.eq(a, b) ? 0 : 1;
      case '<': return I.lt(a, b) ? 1 : 0;
      case '>': return I.lt(b, a) ? 1 : 0;
      case '<=': return I.lt(b, a) ? 0 : 1;
      case '>=': return I.lt(a, b) ? 0 : 1;
    }
    throw new ArithError('syntax error in expression', op);
  }

  /** Resolves a variable reference, evaluating an indexed subscript once. */
  private place(e: ArithVar | { type: 'ArithWord'; word: Word } | Arith): Place {
    if (e.type === 'ArithWord') {
      // Only from foreign static trees: the word's text names the variable.
      const text = expandArithText(e.word, this.ctx).trim();
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/s.exec(text);
      if (!m) throw new ArithError('attempted assignment to non-variable', text);
      const key = m[2] === undefined ? null : this.ctx.vars.isAssoc(m[1]) ? m[2] : I.intString(evalArithValue(m[2], this.ctx));
      return { name: m[1], key, label: text };
    }
    if (e.type !== 'ArithVar') throw new ArithError('attempted assignment to non-variable', this.rest(e));
    if (e.index === null) return { name: e.name, key: null, label: e.name };
    const key = this.ctx.vars.isAssoc(e.name) ? this.subscriptText(e) : I.intString(this.eval(e.index));
    return { name: e.name, key, label: `${e.name}[${key}]` };
  }

  /** An associative subscript is the text between the brackets, not its value. */
  private subscriptText(e: ArithVar): string {
    const t = this.text;
    if (t === null || e.index === null) return e.index ? print(e.index) : '';
    let k = t.indexOf('[', e.col - 1 + e.name.length);
    const start = k + 1;
    let d = 0;
    for (; k < t.length; k++) {
      if (t[k] === '[') d++;
      else if (t[k] === ']' && --d === 0) break;
    }
    // Single quotes around (parts of) a key are removed, as in a written subscript.
    return t.slice(start, k).replace(/'([^']*)'/g, '$1');
  }

  private read(p: Place): Int {
    const { vars, opts } = this.ctx;
    let s: string | undefined;
    if (p.key === null) {
      s = this.ctx.special(p.name);
      if (s === undefined) s = vars.get(p.name);
    } else {
      s = vars.getIndex(p.name, p.key);
    }
    if (s === undefined) {
      if (opts.nounset) throw new ShellError(`${p.label}: unbound variable`, 127, true);
      return 0;
    }
    return valueOf(s, this.ctx);
  }

  private write(p: Place, v: Int): Int {
    if (!NAME.test(p.name)) throw new ArithError('attempted assignment to non-variable', p.label);
    const s = I.intString(v);
    if (p.key === null) this.ctx.vars.set(p.name, s);
    else this.ctx.vars.setIndex(p.name, p.key, s);
    return v;
  }
}
