// Brace expansion, the first expansion: `{a,b}`, nested, and sequences
// `{1..10}` `{01..10}` `{a..e}` `{10..1..3}`. Only unquoted literal braces and
// commas count; expansions and quoted parts are opaque items.
import type { Lit, Word, WordPart } from '../syntax/ast.js';
import { markTildes } from '../syntax/tilde.js';

/** A character of unquoted literal text, or any other part whole. */
type Tok = string | WordPart;

const isCh = (t: Tok, c: string): boolean => t === c;

/** Whether a word has an unquoted `{` at all (the common case is no). */
export function hasBrace(word: Word): boolean {
  for (const p of word.parts) if (p.type === 'Lit' && p.value.includes('{')) return true;
  return false;
}

/** The words a word brace-expands to (the word itself when there is nothing to expand). */
export function expandBraces(word: Word): Word[] {
  if (!hasBrace(word)) return [word];
  const toks: Tok[] = [];
  for (const p of word.parts) {
    if (p.type === 'Lit') for (const c of p.value) toks.push(c);
    else toks.push(p);
  }
  const lists = expand(toks);
  // Nothing expanded (a one-word sequence like {1..1} did expand: its braces go).
  if (lists.length === 1 && lists[0] === toks) return [word];
  // A result may now start with `~`, as bash does brace expansion before tilde expansion.
  return lists.map((l) => markTildes(toWord(l, word), false));
}

function toWord(toks: Tok[], like: Word): Word {
  const parts: WordPart[] = [];
  let lit = '';
  const flush = (): void => {
    if (lit !== '') parts.push({ type: 'Lit', value: lit, line: like.line, col: like.col } satisfies Lit);
    lit = '';
  };
  for (const t of toks) {
    if (typeof t === 'string') lit += t;
    else {
      flush();
      parts.push(t);
    }
  }
  flush();
  return { type: 'Word', parts, line: like.line, col: like.col };
}

function expand(toks: Tok[]): Tok[][] {
  for (let i = 0; i < toks.length; i++) {
    if (!isCh(toks[i], '{')) continue;
    // `${` in literal text is not a brace expression.
    if (i > 0 && isCh(toks[i - 1], '$')) continue;
    const m = matchBrace(toks, i);
    if (m === null) continue;
    let alts: Tok[][];
    if (m.commas.length === 0) {
      const seq = sequence(toks.slice(i + 1, m.end));
      if (seq === null) continue;
      alts = seq;
    } else {
      alts = [];
      let from = i + 1;
      for (const c of [...m.commas, m.end]) {
        alts.push(...expand(toks.slice(from, c)));
        from = c + 1;
      }
    }
    const pre = toks.slice(0, i);
    const post = expand(toks.slice(m.end + 1));
    const out: Tok[][] = [];
    for (const a of alts) for (const p of post) out.push([...pre, ...a, ...p]);
    return out;
  }
  return [toks];
}

/** The `}` matching the `{` at i and the top-level commas, or null. */
function matchBrace(toks: Tok[], i: number): { end: number; commas: number[] } | null {
  let depth = 0;
  const commas: number[] = [];
  for (let k = i; k < toks.length; k++) {
    const t = toks[k];
    if (t === '{') depth++;
    else if (t === '}') {
      if (--depth === 0) return { end: k, commas };
    } else if (t === ',' && depth === 1) commas.push(k);
  }
  return null;
}

const INT = /^[-+]?[0-9]+$/;

/** `x..y[..step]` as its list of words, or null when it is not a valid sequence. */
function sequence(toks: Tok[]): Tok[][] | null {
  if (!toks.every((t) => typeof t === 'string')) return null;
  const text = toks.join('');
  const m = /^([^.]+|-?[0-9]+)\.\.([^.]+|-?[0-9]+)(?:\.\.([-+]?[0-9]+))?$/.exec(text);
  if (m === null) return null;
  const [, a, b, stepText] = m;
  let step = stepText === undefined ? 1 : Math.abs(parseInt(stepText, 10)) || 1;
  if (INT.test(a) && INT.test(b)) {
    const x = parseInt(a, 10);
    const y = parseInt(b, 10);
    // A leading zero on either end pads every number to the wider end.
    const pad = /^[-+]?0[0-9]/.test(a) || /^[-+]?0[0-9]/.test(b) ? Math.max(a.length, b.length) : 0;
    const out: Tok[][] = [];
    if (x > y) step = -step;
    for (let v = x; x <= y ? v <= y : v >= y; v += step) out.push([...padNum(v, pad)]);
    return out;
  }
  if (a.length === 1 && b.length === 1 && /[A-Za-z]/.test(a) && /[A-Za-z]/.test(b)) {
    const x = a.charCodeAt(0);
    const y = b.charCodeAt(0);
    if (x > y) step = -step;
    const out: Tok[][] = [];
    // bash yields a backslash as a quoting character: quote removal leaves an empty (quoted) word.
    const quotedEmpty: WordPart = { type: 'SglQuoted', value: '', line: 0, col: 0 };
    for (let v = x; x <= y ? v <= y : v >= y; v += step) out.push(v === 92 ? [quotedEmpty] : [String.fromCharCode(v)]);
    return out;
  }
  return null;
}

function padNum(v: number, width: number): string {
  const s = String(Math.abs(v));
  const w = v < 0 ? width - 1 : width;
  return (v < 0 ? '-' : '') + s.padStart(w, '0');
}
