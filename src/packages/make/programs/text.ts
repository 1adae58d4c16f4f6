// Word and pattern helpers of make's text functions: whitespace-separated
// words, `%` patterns (the first unescaped `%` is the stem), and finding the
// end of a `$(...)` reference so splitters skip nested references.

/** Words of `s` (blanks: space, tab, newline). */
export function words(s: string): string[] {
  return s.split(/[ \t\n\r\f\v]+/).filter((w) => w !== '');
}

export const joinWords = (w: readonly string[]): string => w.join(' ');

/** Index of the first unescaped `%` in `pat`, or -1. */
export function percentIndex(pat: string): number {
  for (let i = 0; i < pat.length; i++) {
    if (pat[i] === '\\' && (pat[i + 1] === '%' || pat[i + 1] === '\\')) i++;
    else if (pat[i] === '%') return i;
  }
  return -1;
}

/** A pattern split at its `%` (backslash escapes before the `%` removed), or null when it has none. */
export function splitPattern(pat: string): [string, string] | null {
  const i = percentIndex(pat);
  if (i < 0) return null;
  return [pat.slice(0, i).replace(/\\([%\\])/g, '$1'), pat.slice(i + 1)];
}

/** The stem of `word` matched by `pat`, or null; a pattern without `%` matches only itself (stem ''). */
export function matchPattern(pat: string, word: string): string | null {
  const sp = splitPattern(pat);
  if (!sp) return pat.replace(/\\([%\\])/g, '$1') === word ? '' : null;
  const [pre, suf] = sp;
  if (word.length < pre.length + suf.length || !word.startsWith(pre) || !word.endsWith(suf)) return null;
  return word.slice(pre.length, word.length - suf.length);
}

/** `pat` with its `%` replaced by `stem` (no `%`: `pat` itself). */
export function fillPattern(pat: string, stem: string): string {
  const sp = splitPattern(pat);
  return sp ? sp[0] + stem + sp[1] : pat;
}

/** patsubst on one word. */
export function patsubstWord(pat: string, repl: string, word: string): string {
  const stem = matchPattern(pat, word);
  if (stem === null) return word;
  return splitPattern(pat) ? fillPattern(repl, stem) : repl;
}

/** Index just past the reference that starts at `s[i] === '$'` (`$(…)`, `${…}` or `$x`). */
export function skipRef(s: string, i: number): number {
  const open = s[i + 1];
  if (open !== '(' && open !== '{') return Math.min(i + 2, s.length);
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let k = i + 1; k < s.length; k++) {
    if (s[k] === open) depth++;
    else if (s[k] === close && --depth === 0) return k + 1;
  }
  return s.length;
}

/** Index of the first `ch` in `s` from `from` outside references, or -1. */
export function findTop(s: string, ch: string, from = 0): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '$') i = skipRef(s, i) - 1;
    else if (s[i] === ch) return i;
  }
  return -1;
}

/** Split function arguments at top-level commas (parentheses and braces nest); at most `max` pieces. */
export function splitArgs(s: string, max: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0 && out.length < max - 1) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** Directory part of a file name as make's $(dir) gives it (`./` when none). */
export function dirPart(w: string): string {
  const i = w.lastIndexOf('/');
  return i < 0 ? './' : w.slice(0, i + 1);
}

export function notdirPart(w: string): string {
  return w.slice(w.lastIndexOf('/') + 1);
}

/** Suffix (from the last `.` after the last `/`), or null. */
export function suffixOf(w: string): string | null {
  const dot = w.lastIndexOf('.');
  return dot > w.lastIndexOf('/') ? w.slice(dot) : null;
}
