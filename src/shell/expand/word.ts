// The expansion pipeline, in bash's order: brace → tilde → parameter,
// arithmetic and command substitution (left to right) → field splitting →
// pathname expansion → quote removal. Parts become quoting-aware pieces
// (fields.ts); quote removal is implicit, since pieces hold unquoted text.
import type { ExtGlob, Word, WordPart } from '../syntax/ast.js';
import { decodeAnsi } from '../syntax/ansi.js';
import { print } from '../syntax/printer.js';
import { ShellError } from '../errors.js';
import type { ExpandContext } from './context.js';
import { evalArithExp } from './arith.js';
import { expandBraces } from './brace.js';
import { joinPieces, piecesToPattern, splitFields } from './fields.js';
import type { Piece } from './fields.js';
import { glob } from './glob.js';
import { intString } from './int64.js';
import { expandParam } from './param.js';
import type { Quoting, WordExpander } from './param.js';
import { hasGlob, patternSource } from './pattern.js';
import type { Pattern } from './pattern.js';

const DEFAULT_IFS = ' \t\n';
/** Literal text that no expansion step can change. */
const PLAIN = /^[^*?[{]*$/;

class Expander implements WordExpander {
  /** Inside "...": whether a `"$@"`-like expansion produced no fields. */
  private dq: { emptyAt: boolean } | null = null;

  constructor(readonly ctx: ExpandContext) {}

  noteAt(n: number): void {
    if (this.dq !== null && n === 0) this.dq.emptyAt = true;
  }

  parts(parts: WordPart[], out: Piece[], q: Quoting, fields: boolean): void {
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k];
      const n = parts[k + 1];
      // In `"${x#$'\n'}"` the lexer leaves `$` + '...': bash still decodes it (shopt extquote).
      if (q !== 'dq' && p.type === 'Lit' && p.value.endsWith('$') && n?.type === 'SglQuoted') {
        if (p.value.length > 1) this.part({ ...p, value: p.value.slice(0, -1) }, out, q, fields);
        out.push({ text: decodeAnsi(n.value), kind: 'q' });
        k++;
        continue;
      }
      this.part(p, out, q, fields);
    }
  }

  private part(p: WordPart, out: Piece[], q: Quoting, fields: boolean): void {
    switch (p.type) {
      case 'Lit':
        out.push({ text: p.value, kind: q === 'dq' ? 'q' : q === 'param' ? 'exp' : 'lit' });
        return;
      case 'Escaped':
      case 'SglQuoted':
      case 'AnsiQuoted':
        out.push({ text: p.value, kind: 'q' });
        return;
      case 'DblQuoted':
        this.dquote(p.parts, out, fields);
        return;
      case 'Tilde':
        out.push({ text: q === 'dq' ? '~' + p.user : this.tilde(p.user), kind: 'q' });
        return;
      case 'ParamExp':
        expandParam(this, p, out, q, fields);
        return;
      case 'BadSubst':
        throw new ShellError(`${p.text}: bad substitution`, 1, true);
      case 'CmdSubst': {
        const text = this.ctx.commandSubst(p.stmts, p.unparsed).replace(/\n+$/, '');
        out.push({ text, kind: q === 'dq' ? 'q' : 'exp' });
        return;
      }
      case 'ArithExp':
        out.push({ text: intString(evalArithExp(p, this.ctx)), kind: q === 'dq' ? 'q' : 'exp' });
        return;
      case 'ProcSubst':
        out.push({ text: this.ctx.procSubst(p.op, p.stmts), kind: 'lit' });
        return;
      case 'ExtGlob':
        this.extglob(p, out);
        return;
    }
  }

  /** "...": an empty quoted piece keeps an empty field, unless only an empty "$@" was inside. */
  private dquote(parts: WordPart[], out: Piece[], fields: boolean): void {
    const saved = this.dq;
    const state = { emptyAt: false };
    this.dq = state;
    const start = out.length;
    out.push({ text: '', kind: 'q' });
    try {
      this.parts(parts, out, 'dq', fields);
    } finally {
      this.dq = saved;
    }
    if (state.emptyAt && out.slice(start).every((x) => x.text === '' && x.kind !== 'break')) out.length = start;
  }

  private tilde(user: string): string {
    const { vars } = this.ctx;
    if (user === '') return vars.get('HOME') ?? this.ctx.home('') ?? '~';
    if (user === '+') return vars.get('PWD') ?? this.ctx.cwd();
    if (user === '-') return vars.get('OLDPWD') ?? '~-';
    return this.ctx.home(user) ?? '~' + user;
  }

  /** `@(...)` and friends: the raw text, with its own quotes, escapes and simple `$name`s. */
  private extglob(p: ExtGlob, out: Piece[]): void {
    out.push({ text: p.op + '(', kind: 'lit' });
    const s = p.pattern;
    let lit = '';
    const flush = (): void => {
      if (lit !== '') out.push({ text: lit, kind: 'lit' });
      lit = '';
    };
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === '\\' && i + 1 < s.length) {
        flush();
        out.push({ text: s[++i], kind: 'q' });
      } else if (c === "'" || c === '"') {
        const e = s.indexOf(c, i + 1);
        flush();
        out.push({ text: s.slice(i + 1, e < 0 ? s.length : e), kind: 'q' });
        i = e < 0 ? s.length : e;
      } else if (c === '$' && /[A-Za-z_{]/.test(s[i + 1] ?? '')) {
        const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(s.slice(i))!;
        if (m === null) {
          lit += c;
          continue;
        }
        flush();
        const name = m[1] ?? m[2];
        out.push({ text: this.ctx.special(name) ?? this.ctx.vars.get(name) ?? '', kind: 'exp' });
        i += m[0].length - 1;
      } else {
        lit += c;
      }
    }
    flush();
    out.push({ text: ')', kind: 'lit' });
  }

  string(word: Word, q: Quoting): string {
    const out: Piece[] = [];
    this.parts(word.parts, out, q, false);
    return joinPieces(out);
  }

  pattern(word: Word): Pattern {
    const out: Piece[] = [];
    this.parts(word.parts, out, 'none', false);
    return piecesToPattern(out);
  }

  replacement(word: Word): (matched: string) => string {
    const out: Piece[] = [];
    this.parts(word.parts, out, 'param', false);
    // Literal strings, with null where the match goes (bash 5.2's patsub_replacement).
    const items: (string | null)[] = [];
    for (const p of out) {
      if (p.kind === 'q' || !/[&\\]/.test(p.text)) {
        items.push(p.text);
        continue;
      }
      let lit = '';
      for (let i = 0; i < p.text.length; i++) {
        const c = p.text[i];
        const n = p.text[i + 1];
        if (c === '\\' && (n === '&' || n === '\\')) {
          lit += n;
          i++;
        } else if (c === '&') {
          items.push(lit, null);
          lit = '';
        } else {
          lit += c;
        }
      }
      items.push(lit);
    }
    if (!items.includes(null)) {
      const s = items.join('');
      return () => s;
    }
    return (m) => items.map((x) => x ?? m).join('');
  }

  /** One word (already brace-expanded) to fields: split, then globbed. */
  fields(word: Word, out: string[]): void {
    const pieces: Piece[] = [];
    this.parts(word.parts, pieces, 'none', true);
    const ifs = this.ctx.vars.get('IFS') ?? DEFAULT_IFS;
    for (const f of splitFields(pieces, ifs)) this.globField(f, out);
  }

  private globField(f: Piece[], out: string[]): void {
    const text = joinPieces(f);
    const { opts } = this.ctx;
    if (opts.noglob || !f.some((p) => p.kind !== 'q' && /[*?[]|[@+!]\(/.test(p.text))) {
      out.push(text);
      return;
    }
    const src = patternSource(piecesToPattern(f));
    if (!hasGlob(src, opts.extglob)) {
      out.push(text);
      return;
    }
    const m = glob(src, this.ctx);
    if (m.length > 0) out.push(...m);
    else if (opts.failglob) throw new ShellError(`no match: ${text}`, 1, true);
    else if (!opts.nullglob) out.push(text);
  }
}

/** Full expansion of command words into fields. */
export function expandWords(words: Word[], ctx: ExpandContext): string[] {
  const out: string[] = [];
  let ex: Expander | null = null;
  for (const w of words) {
    const ps = w.parts;
    if (ps.length === 1 && ps[0].type === 'Lit' && PLAIN.test(ps[0].value)) {
      out.push(ps[0].value);
      continue;
    }
    ex ??= new Expander(ctx);
    for (const bw of expandBraces(w)) ex.fields(bw, out);
  }
  return out;
}

/** One word to one string: no brace expansion, splitting or globbing (`$@` joins with spaces). */
export function expandWord(word: Word, ctx: ExpandContext): string {
  const ps = word.parts;
  if (ps.length === 1 && ps[0].type === 'Lit') return ps[0].value;
  return new Expander(ctx).string(word, 'none');
}

/** Assignment values: like expandWord; the parser has marked the tildes after `=` and `:`. */
export function expandAssignValue(word: Word, ctx: ExpandContext): string {
  return expandWord(word, ctx);
}

/**
 * The text of `$(( ))` (or an indexed subscript) before it is parsed. bash
 * expands it as if double-quoted, so single quotes stay in the text, where the
 * arithmetic parser rejects them (`$(( '1' + 2 ))` is an error).
 */
export function expandArithText(word: Word, ctx: ExpandContext): string {
  if (!word.parts.some((p) => p.type === 'SglQuoted' || p.type === 'AnsiQuoted')) return expandWord(word, ctx);
  const parts = word.parts.map((p): WordPart => {
    if (p.type === 'SglQuoted') return { type: 'Lit', value: `'${p.value}'`, line: p.line, col: p.col };
    if (p.type === 'AnsiQuoted') return { type: 'Lit', value: `$'${p.raw}'`, line: p.line, col: p.col };
    return p;
  });
  return expandWord({ ...word, parts }, ctx);
}

/** Case patterns, `[[ == ]]` right sides, `${x#pat}` operands: quoted parts match literally. */
export function expandPattern(word: Word, ctx: ExpandContext): Pattern {
  return new Expander(ctx).pattern(word);
}

const ERE_SPECIAL = /[\\.[\]()*+?{}|^$]/g;

/** `[[ =~ ]]` right side: an ERE in which quoted parts are escaped to match literally. */
export function expandRegex(word: Word, ctx: ExpandContext): string {
  const out: Piece[] = [];
  new Expander(ctx).parts(word.parts, out, 'none', false);
  return out.map((p) => (p.kind === 'q' ? p.text.replace(ERE_SPECIAL, '\\$&') : p.text)).join('');
}

/** A here-document body: only `$`, backquotes and backslashes were special, and the lexer has handled backslashes. */
export function expandHeredoc(body: Word, ctx: ExpandContext): string {
  return new Expander(ctx).string(body, 'dq');
}

/** A redirection's file name: full expansion that must give exactly one field. */
export function expandRedirectTarget(word: Word, ctx: ExpandContext): string {
  const fields = expandWords([word], ctx);
  if (fields.length !== 1) throw new ShellError(`${print(word)}: ambiguous redirect`);
  return fields[0];
}
