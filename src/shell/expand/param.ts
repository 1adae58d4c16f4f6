// Parameter expansion: `$x`, `${x...}` with every operator of the AST's
// ParamOp, special and positional parameters, arrays, indirection.
// Array values (`$@`, `${a[@]}`) stay lists through the operators, which
// apply per element, and become separate fields only when emitted.
import type { ParamExp, ParamOp, Word } from '../syntax/ast.js';
import { parseSubscript } from '../syntax/index.js';
import { markTildes } from '../syntax/tilde.js';
import { isUtf8Locale } from '../../userland/lib/locale.js';
import { encodeShell } from '../bytes.js';
import { ShellError } from '../errors.js';
import type { ExpandContext } from './context.js';
import { evalArithValue } from './arith.js';
import { BREAK } from './fields.js';
import type { Piece } from './fields.js';
import { intString } from './int64.js';
import { replacePattern, trimPattern } from './pattern.js';
import type { Pattern } from './pattern.js';
import {
  assignStatement, attrFlags, caseTransform, changeCase, expandEscapes, keyValues, promptDecode, shellQuote,
} from './transform.js';

/** How literal text is quoted where a part appears: top level, inside "...", or in an unquoted `${x:-word}`. */
export type Quoting = 'none' | 'dq' | 'param';

/** What parameter expansion needs from the word expander. */
export interface WordExpander {
  readonly ctx: ExpandContext;
  /** Expands parts into pieces. `fields`: `$@` makes field breaks (else it is joined). */
  parts(parts: Word['parts'], out: Piece[], q: Quoting, fields: boolean): void;
  /** A word expanded to one string (no splitting). */
  string(word: Word, q: Quoting): string;
  /** A word as a pattern: quoted parts literal. */
  pattern(word: Word): Pattern;
  /** A `${x/p/r}` replacement: unquoted `&` stands for the match. */
  replacement(word: Word): (matched: string) => string;
  /** Records that a `"$@"`-like expansion produced n fields (zero of them removes the enclosing quotes' empty field). */
  noteAt(n: number): void;
}

interface Val {
  /** Elements of `$@`/`$*`/`${a[@]}`/`${a[*]}`; null for a scalar. */
  list: string[] | null;
  /** `*` rather than `@`: joined by IFS[0] when quoted. */
  star: boolean;
  /** The scalar value; undefined when unset. */
  str: string | undefined;
  /** How bash names the parameter in messages (`x`, `a[1]`, `1`). */
  label: string;
  /** The variable, when it is one (assignable). */
  name: string | null;
  /** Its evaluated subscript. */
  key: string | null;
  positional: boolean;
}

const scalar = (str: string | undefined, label: string, name: string | null = null, key: string | null = null): Val =>
  ({ list: null, star: false, str, label, name, key, positional: false });

/** `@`/`*` for the subscripts that mean the whole array. */
function atIndex(index: Word | string | null): '@' | '*' | null {
  if (index === null) return null;
  if (typeof index === 'string') return index === '@' || index === '*' ? index : null;
  const p = index.parts;
  if (p.length === 1 && p[0].type === 'Lit' && (p[0].value === '@' || p[0].value === '*')) return p[0].value;
  return null;
}

/** The first character of IFS, which joins `$*` ("" when IFS is null, space when unset). */
export function ifsJoiner(ctx: ExpandContext): string {
  const ifs = ctx.vars.get('IFS');
  return ifs === undefined ? ' ' : ifs.slice(0, 1);
}

const charLen = (s: string): number => (/[\ud800-\udfff]/.test(s) ? [...s].length : s.length);

/** ${#x}: characters in a UTF-8 locale, bytes in the C locale (the shell's own LC_ALL/LC_CTYPE/LANG, as bash). */
function strLen(ctx: ExpandContext, s: string): number {
  if (!/[\x80-\uffff]/.test(s)) return s.length;
  const v = (n: string) => ctx.vars.get(n);
  return isUtf8Locale({ LC_ALL: v('LC_ALL'), LC_CTYPE: v('LC_CTYPE'), LANG: v('LANG') }) ? charLen(s) : encodeShell(s).length;
}

function lookup(ex: WordExpander, name: string, index: Word | string | null): Val {
  const { ctx } = ex;
  if (name === '@' || name === '*') {
    return { list: ctx.positional(), star: name === '*', str: undefined, label: name, name: null, key: null, positional: true };
  }
  if (name[0] >= '0' && name[0] <= '9') {
    const n = Number(name);
    return scalar(n === 0 ? ctx.special('0') : ctx.positional()[n - 1], name);
  }
  if (name.length === 1 && '#?$!-'.includes(name)) {
    return scalar(ctx.special(name) ?? (name === '#' ? String(ctx.positional().length) : ''), name);
  }
  const at = atIndex(index);
  if (at !== null) return { list: ctx.vars.values(name), star: at === '*', str: undefined, label: `${name}[${at}]`, name, key: null, positional: false };
  if (index !== null) {
    // A subscript from a string (`${!ref}`) is expanded as a written one is.
    const text = ex.string(typeof index === 'string' ? parseSubscript(index) : index, 'none');
    const key = ctx.vars.isAssoc(name) ? text : intString(evalArithValue(text, ctx));
    return scalar(ctx.vars.getIndex(name, key), `${name}[${key}]`, name, key);
  }
  return scalar(ctx.special(name) ?? ctx.vars.get(name), name, name);
}

/** `${!x}`: the parameter x's value names. */
function indirect(ex: WordExpander, p: ParamExp): Val {
  const ref = lookup(ex, p.name, p.index);
  const target = ref.list !== null ? ref.list.join(' ') : ref.str;
  if (target === undefined) {
    if (ex.ctx.opts.nounset) throw new ShellError(`${ref.label}: unbound variable`, 127, true);
    throw new ShellError(`${ref.label}: invalid indirect expansion`);
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.+)\])?$/s.exec(target);
  if (m) return lookup(ex, m[1], m[2] ?? null);
  if (/^[0-9]+$/.test(target) || (target.length === 1 && '@*#?$!-'.includes(target))) return lookup(ex, target, null);
  throw new ShellError(`${target}: invalid variable name`);
}

function emitStr(s: string, out: Piece[], q: Quoting): void {
  out.push({ text: s, kind: q === 'dq' ? 'q' : 'exp' });
}

function emitList(ex: WordExpander, items: string[], star: boolean, out: Piece[], q: Quoting, fields: boolean): void {
  if (q === 'dq' && !star) ex.noteAt(items.length);
  if ((q === 'dq' && star) || !fields) {
    emitStr(items.join(star ? ifsJoiner(ex.ctx) : ' '), out, q);
    return;
  }
  // Unquoted, bash joins the elements with IFS's first character and splits the
  // result: with IFS=x, `set -- a '' b; echo $@` gives three fields, `a`, ``, `b`.
  if (q !== 'dq' && ex.ctx.vars.get('IFS') !== '') {
    emitStr(items.join(ifsJoiner(ex.ctx)), out, q);
    return;
  }
  const kind = q === 'dq' ? 'q' : 'exp';
  items.forEach((s, k) => {
    if (k > 0) out.push(BREAK);
    out.push({ text: s, kind });
  });
}

function emit(ex: WordExpander, v: Val, out: Piece[], q: Quoting, fields: boolean): void {
  if (v.list !== null) emitList(ex, v.list, v.star, out, q, fields);
  else emitStr(v.str ?? '', out, q);
}

function checkSet(ex: WordExpander, v: Val): void {
  if (ex.ctx.opts.nounset && v.list === null && v.str === undefined) throw new ShellError(`${v.label}: unbound variable`, 127, true);
}

const mapVal = (v: Val, f: (s: string) => string): Val =>
  v.list !== null ? { ...v, list: v.list.map(f) } : { ...v, str: v.str === undefined ? undefined : f(v.str) };

/** Expands a parameter into pieces. */
export function expandParam(ex: WordExpander, p: ParamExp, out: Piece[], q: Quoting, fields: boolean): void {
  const { ctx } = ex;
  if (p.names !== null) {
    const names = ctx.vars.names().filter((n) => n.startsWith(p.name) && (ctx.vars.isSet(n) || ctx.vars.isArray(n)));
    emitList(ex, names, p.names === '*', out, q, fields);
    return;
  }
  const at = atIndex(p.index);
  // `${!a[@]}` lists the keys; with an operator after it, it is an indirection through the values.
  if (p.indirect && at !== null && p.op === null) {
    emitList(ex, ctx.vars.keys(p.name), at === '*', out, q, fields);
    return;
  }
  const v = p.indirect ? indirect(ex, p) : lookup(ex, p.name, p.index);
  if (p.length) {
    checkSet(ex, v);
    // bash: under set -u, ${#name[@]} needs an array that has been assigned (a scalar does not count).
    if (ctx.opts.nounset && at !== null && !v.positional && !p.indirect) {
      const a = ctx.vars.lookup(p.name);
      if (!a || a.declaredOnly || !(a.indexed || a.assoc)) throw new ShellError(`${p.name}: unbound variable`, 1, true);
    }
    emitStr(String(v.list !== null ? v.list.length : strLen(ctx, v.str ?? '')), out, q);
    return;
  }
  if (p.op === null) {
    // `$3` is named with its dollar sign, `${3}` without (as bash does).
    checkSet(ex, p.short && v.label >= '0' && v.label <= '9' ? { ...v, label: '$' + v.label } : v);
    emit(ex, v, out, q, fields);
    return;
  }
  if (p.op.kind === 'default') {
    defaultOp(ex, v, p.op, out, q, fields);
    return;
  }
  checkSet(ex, v);
  emit(ex, applyOp(ex, v, p.op, p.name), out, q, fields);
}

/** `${x-w}` `${x=w}` `${x?w}` `${x+w}` and their `:` forms. */
function defaultOp(ex: WordExpander, v: Val, op: Extract<ParamOp, { kind: 'default' }>, out: Piece[], q: Quoting, fields: boolean): void {
  const isSet = v.list !== null ? v.list.length > 0 : v.str !== undefined;
  const isNull = v.list !== null ? v.list.join(v.star ? ifsJoiner(ex.ctx) : ' ') === '' : v.str === '';
  const missing = !isSet || (op.colon && isNull);
  const useWord = (): void => {
    let w = op.word;
    if (q !== 'dq' && w.parts[0]?.type === 'Lit' && w.parts[0].value.startsWith('~')) w = markTildes(w, false);
    ex.parts(w.parts, out, q === 'dq' ? 'dq' : 'param', fields);
  };
  switch (op.op) {
    case '-':
      if (missing) useWord();
      else emit(ex, v, out, q, fields);
      return;
    case '+':
      if (!missing) useWord();
      else if (v.list !== null) emitList(ex, [], false, out, q, fields);
      return;
    case '?': {
      if (!missing) return emit(ex, v, out, q, fields);
      const msg = op.word.parts.length > 0 ? ex.string(op.word, q === 'dq' ? 'dq' : 'param')
        : op.colon ? 'parameter null or not set' : 'parameter not set';
      throw new ShellError(`${v.label}: ${msg}`, 127, true);
    }
    case '=': {
      if (!missing) return emit(ex, v, out, q, fields);
      if (v.name === null || v.list !== null) throw new ShellError(`$${v.label}: cannot assign in this way`);
      const value = ex.string(op.word, q === 'dq' ? 'dq' : 'param');
      if (v.key !== null) ex.ctx.vars.setIndex(v.name, v.key, value);
      else ex.ctx.vars.set(v.name, value);
      // Read back: attributes (integer, case) may have changed the value.
      const now = v.key !== null ? ex.ctx.vars.getIndex(v.name, v.key) : ex.ctx.vars.get(v.name);
      emitStr(now ?? value, out, q);
      return;
    }
  }
}

function arithOf(ex: WordExpander, w: Word): number {
  return Number(evalArithValue(ex.string(w, 'none'), ex.ctx));
}

function applyOp(ex: WordExpander, v: Val, op: ParamOp, pname: string): Val {
  const { ctx } = ex;
  switch (op.kind) {
    case 'default':
      return v;
    case 'trim': {
      const pat = ex.pattern(op.pattern);
      const opts = { extglob: ctx.opts.extglob, nocase: false };
      return mapVal(v, (s) => trimPattern(s, pat, op.op, opts));
    }
    case 'replace': {
      const pat = ex.pattern(op.pattern);
      const rep = op.with === null ? (): string => '' : ex.replacement(op.with);
      const opts = { extglob: ctx.opts.extglob, nocase: ctx.opts.nocasematch };
      return mapVal(v, (s) => replacePattern(s, pat, op.op, rep, opts));
    }
    case 'case': {
      const pat = op.pattern === null ? null : ex.pattern(op.pattern);
      return mapVal(v, (s) => changeCase(s, op.op, pat, ctx.opts.extglob));
    }
    case 'slice':
      return slice(ex, v, arithOf(ex, op.offset), op.length === null ? null : arithOf(ex, op.length), pname);
    case 'transform':
      return transform(ex, v, op.op);
  }
}

function slice(ex: WordExpander, v: Val, off: number, len: number | null, pname: string): Val {
  const bad = (): never => {
    throw new ShellError(`${len}: substring expression < 0`);
  };
  if (v.list !== null) {
    let items: string[];
    if (v.positional) {
      const pos = ex.ctx.positional();
      const start = off < 0 ? pos.length + 1 + off : off;
      items = start < 0 ? [] : [ex.ctx.special('0') ?? '', ...pos].slice(start);
    } else if (ex.ctx.vars.isAssoc(v.name ?? pname)) {
      // bash counts an associative array's elements from 1 here (offsets 0 and 1 both start at the first).
      items = off < 0 ? v.list.slice(Math.max(0, v.list.length + off)) : v.list.slice(Math.max(0, off - 1));
      if (off < 0 && v.list.length + off < 0) items = [];
    } else {
      // The array the elements came from (through `${!ref[@]}` too).
      const keys = ex.ctx.vars.keys(v.name ?? pname).map(Number);
      const top = keys.length ? keys[keys.length - 1] + 1 : 0;
      const start = off < 0 ? top + off : off;
      items = start < 0 ? [] : v.list.filter((_, k) => keys[k] >= start);
    }
    if (len !== null) {
      if (len < 0) bad();
      items = items.slice(0, len);
    }
    return { ...v, list: items };
  }
  return mapVal(v, (s) => {
    const chars = /[\ud800-\udfff]/.test(s) ? [...s] : null;
    const n = chars ? chars.length : s.length;
    const start = off < 0 ? n + off : off;
    if (start < 0 || start > n) return '';
    let end = len === null ? n : len < 0 ? n + len : start + len;
    if (end < start) {
      if (len !== null && len < 0) bad();
      end = start;
    }
    end = Math.min(end, n);
    return chars ? chars.slice(start, end).join('') : s.slice(start, end);
  });
}

function transform(ex: WordExpander, v: Val, op: string): Val {
  const { ctx } = ex;
  const rec = v.name !== null ? ctx.vars.lookup(v.name) : undefined;
  switch (op) {
    case 'Q': return mapVal(v, shellQuote);
    case 'E': return mapVal(v, expandEscapes);
    case 'P': return mapVal(v, (s) => promptDecode(s, ctx));
    case 'U': case 'u': case 'L': return mapVal(v, (s) => caseTransform(s, op));
    case 'a': {
      const f = attrFlags(rec);
      return v.list !== null ? { ...v, list: v.list.map(() => f) } : scalar(v.str === undefined && !rec ? undefined : f, v.label);
    }
    case 'A':
      if (v.name === null || (v.str === undefined && v.list === null)) return scalar('', v.label);
      return scalar(assignStatement(v.name, rec, v.str, v.list !== null), v.label);
    case 'K':
      if (v.list === null) return mapVal(v, shellQuote);
      return scalar(keyValues(rec, v.list), v.label);
    case 'k': {
      if (v.list === null) return mapVal(v, shellQuote);
      const keys = v.name !== null ? ctx.vars.keys(v.name) : v.list.map((_, k) => String(k + 1));
      return { ...v, star: false, list: v.list.flatMap((x, k) => [keys[k], x]) };
    }
  }
  return v;
}
