// Shell patterns (`* ? [...]`, extglob groups) compiled to cached RegExps.
//
// A Pattern keeps which characters were quoted; internally it is turned into
// bash's own representation, a source string in which quoted characters are
// backslash-escaped (an unquoted backslash escapes the next character too).

import { bracketSource, type BracketOptions } from '../../common/glob.js';
import { POSIX_CLASSES_WORD } from '../../common/posix-classes.js';

export interface PatSeg {
  text: string;
  /** Quoted text matches literally; unquoted text is active pattern syntax. */
  quoted: boolean;
}

export type Pattern = PatSeg[];

export interface PatternOpts {
  extglob: boolean;
  nocase: boolean;
}

const PLAIN = /^[A-Za-z0-9_/ ]*$/;

/** Backslash-escapes every character that could be pattern syntax. */
export function quotePattern(s: string): string {
  return PLAIN.test(s) ? s : s.replace(/[^A-Za-z0-9_/ ]/g, '\\$&');
}

/** The escaped source form of a pattern. */
export function patternSource(p: Pattern): string {
  if (p.length === 1) return p[0].quoted ? quotePattern(p[0].text) : p[0].text;
  let s = '';
  for (const seg of p) s += seg.quoted ? quotePattern(seg.text) : seg.text;
  return s;
}

export const literalPattern = (s: string): Pattern => [{ text: s, quoted: true }];

/** Removes pattern escapes: the text a pattern stands for when taken literally. */
export function unescapePattern(src: string): string {
  return src.indexOf('\\') < 0 ? src : src.replace(/\\([^])/g, '$1');
}

/**
 * Whether the source has active pattern syntax (bash's glob_pattern_p): `*`, `?`,
 * a `[` with a later `]`, or an extglob group.
 */
export function hasGlob(src: string, extglob: boolean): boolean {
  let open = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?') return true;
    else if (c === '[') open = true;
    else if (c === ']' && open) return true;
    else if (extglob && (c === '+' || c === '@' || c === '!') && src[i + 1] === '(') return true;
  }
  return false;
}

// ------------------------------------------------------------------ translation

const RE_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;
const reEsc = (c: string): string => c.replace(RE_SPECIAL, '\\$&');
const BRACKETS: BracketOptions = { classes: POSIX_CLASSES_WORD, bash: true };

class Translator {
  private i = 0;
  /** Whether the result needs brute-force matching (alternation breaks longest/shortest-by-greed). */
  ext = false;

  constructor(
    private readonly src: string,
    private readonly extglob: boolean,
    /** `*` as `[^]*?` (shortest-first) instead of `[^]*`. */
    private readonly lazy: boolean,
  ) {}

  translate(): string {
    return this.seq(false).join('');
  }

  /** A sequence of pattern items, up to `|` or `)` inside a group. Negations see the items after them. */
  private seq(inGroup: boolean): string[] {
    const out: string[] = [];
    const negs: { at: number; body: string }[] = [];
    const { src } = this;
    while (this.i < src.length) {
      const c = src[this.i];
      if (inGroup && (c === '|' || c === ')')) break;
      if (c === '\\') {
        out.push(this.i + 1 < src.length ? reEsc(src[this.i + 1]) : '\\\\');
        this.i += 2;
      } else if (this.extglob && '@*+?!'.includes(c) && src[this.i + 1] === '(' && this.closes(this.i + 1)) {
        const g = this.group();
        if (c === '!') {
          negs.push({ at: out.length, body: g });
          out.push('');
        } else {
          out.push(c === '@' ? `(?:${g})` : `(?:${g})${c}`);
        }
      } else if (c === '*') {
        while (src[this.i] === '*') this.i++;
        out.push(this.lazy ? '[^]*?' : '[^]*');
      } else if (c === '?') {
        out.push('[^]');
        this.i++;
      } else if (c === '[') {
        const b = bracketSource(src, this.i, BRACKETS);
        out.push(b?.source ?? '\\[');
        this.i = b?.end ?? this.i + 1;
      } else {
        out.push(reEsc(c));
        this.i++;
      }
    }
    // `!(p)`: anything at this point, unless p followed by the rest of the pattern matches.
    for (const n of negs) {
      const rest = out.slice(n.at + 1).join('');
      out[n.at] = `(?:(?!(?:${n.body})${rest}${inGroup ? '' : '$'})[^]*?)`;
    }
    return out;
  }

  /** Whether the `(` at k has a matching `)`. */
  private closes(k: number): boolean {
    let d = 0;
    for (; k < this.src.length; k++) {
      const c = this.src[k];
      if (c === '\\') k++;
      else if (c === '(') d++;
      else if (c === ')' && --d === 0) return true;
    }
    return false;
  }

  /** An extglob group body at `op(`: the alternatives joined for a RegExp. */
  private group(): string {
    this.ext = true;
    this.i += 2;
    const alts: string[] = [];
    for (;;) {
      alts.push(this.seq(true).join(''));
      const c = this.src[this.i++];
      if (c !== '|') break;
    }
    return alts.join('|');
  }
}

export interface Compiled {
  /** Matches the whole string. */
  full: RegExp;
  /** Longest match at lastIndex (sticky). */
  greedy: RegExp;
  /** Shortest match at lastIndex (sticky). */
  lazy: RegExp;
  /** Leftmost-longest search for replacement (global). */
  search: RegExp;
  /** Longest match that ends the string, at lastIndex (sticky). */
  tail: RegExp;
  /** Has extglob groups: greed does not give longest/shortest, so callers try every span. */
  ext: boolean;
}

const CACHE_MAX = 2048;
const cache = new Map<string, Compiled>();

export function compile(src: string, opts: PatternOpts): Compiled {
  const key = (opts.extglob ? 'e' : '-') + (opts.nocase ? 'i' : '-') + src;
  let c = cache.get(key);
  if (c !== undefined) return c;
  const t = new Translator(src, opts.extglob, false);
  const re = t.translate();
  const lazy = new Translator(src, opts.extglob, true).translate();
  const f = opts.nocase ? 'ui' : 'u';
  c = {
    full: new RegExp(`^(?:${re})$`, f),
    greedy: new RegExp(`(?:${re})`, f + 'y'),
    lazy: new RegExp(`(?:${lazy})`, f + 'y'),
    search: new RegExp(`(?:${re})`, f + 'g'),
    tail: new RegExp(`(?:${re})$`, f + 'y'),
    ext: t.ext,
  };
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, c);
  return c;
}

// ------------------------------------------------------------------ matching

/** Whole-string match (case, [[ == ]], globbing one name). */
export function matchPattern(p: Pattern | string, s: string, opts: PatternOpts): boolean {
  const src = typeof p === 'string' ? p : patternSource(p);
  return compile(src, opts).full.test(s);
}

function sticky(re: RegExp, s: string, at: number): number {
  re.lastIndex = at;
  const m = re.exec(s);
  return m === null ? -1 : m[0].length;
}

/**
 * `${x#p}` `${x##p}` `${x%p}` `${x%%p}`: the value with the shortest/longest
 * matching prefix/suffix removed.
 */
export function trimPattern(s: string, p: Pattern, op: '#' | '##' | '%' | '%%', opts: PatternOpts): string {
  const c = compile(patternSource(p), opts);
  const n = s.length;
  if (op === '#' || op === '##') {
    if (!c.ext) {
      const len = sticky(op === '#' ? c.lazy : c.greedy, s, 0);
      return len < 0 ? s : s.slice(len);
    }
    for (let k = 0; k <= n; k++) {
      const j = op === '#' ? k : n - k;
      if (c.full.test(s.slice(0, j))) return s.slice(j);
    }
    return s;
  }
  for (let k = 0; k <= n; k++) {
    const i = op === '%' ? n - k : k;
    if (c.ext ? c.full.test(s.slice(i)) : sticky(c.tail, s, i) >= 0) return s.slice(0, i);
  }
  return s;
}

/** The longest match starting at i, as an end index, or -1. */
function longestAt(c: Compiled, s: string, i: number): number {
  if (!c.ext) {
    const len = sticky(c.greedy, s, i);
    return len < 0 ? -1 : i + len;
  }
  for (let j = s.length; j >= i; j--) if (c.full.test(s.slice(i, j))) return j;
  return -1;
}

/**
 * `${x/p/r}` and friends. `rep` builds the replacement from the matched text
 * (bash 5.2's `&`). An empty pattern changes nothing unless anchored.
 */
export function replacePattern(
  s: string, p: Pattern, op: '/' | '//' | '/#' | '/%', rep: (matched: string) => string, opts: PatternOpts,
): string {
  const src = patternSource(p);
  const c = compile(src, opts);
  if (op === '/#') {
    const e = longestAt(c, s, 0);
    return e < 0 ? s : rep(s.slice(0, e)) + s.slice(e);
  }
  if (op === '/%') {
    for (let i = 0; i <= s.length; i++) {
      if (c.ext ? c.full.test(s.slice(i)) : sticky(c.tail, s, i) >= 0) return s.slice(0, i) + rep(s.slice(i));
    }
    return s;
  }
  if (src === '') return s;
  let out = '';
  let i = 0;
  // Like bash, no match is tried at the very end, except in an empty string.
  while (i < s.length || s.length === 0) {
    let start = -1;
    let end = -1;
    if (!c.ext) {
      c.search.lastIndex = i;
      const m = c.search.exec(s);
      if (m !== null) {
        start = m.index;
        end = start + m[0].length;
      }
    } else {
      for (let k = i; k <= s.length && start < 0; k++) {
        const e = longestAt(c, s, k);
        if (e >= 0) [start, end] = [k, e];
      }
    }
    if (start < 0) break;
    out += s.slice(i, start) + rep(s.slice(start, end));
    if (end === start) {
      // An empty match: keep the next character and move past it.
      if (start < s.length) out += s[start];
      i = start + 1;
    } else {
      i = end;
    }
    if (op === '/' || s.length === 0) break;
  }
  return i <= s.length ? out + s.slice(i) : out;
}
