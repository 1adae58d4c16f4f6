// The pattern list as one matcher: all patterns are alternatives of a single
// RegExp (group numbers shifted so each pattern's back-references stay its
// own), wrapped for -x / -w.
//
// JS alternation is leftmost-first; POSIX wants leftmost-longest. Selection
// does not care, but -o and colour print the match, so at each match start
// every top-level alternative is tried on its own and the longest wins (the
// others stay in the source, disabled by `(?!)`, to keep group numbering).

import { literal, translate, type Syntax } from './regex.js';

export interface MatchOptions {
  syntax: Syntax | 'fixed';
  ignoreCase: boolean;
  /** -w: the match must not touch word constituents on either side. */
  word: boolean;
  /** -x: the match must be the whole line. */
  line: boolean;
}

/** Beyond this many alternatives (big -f lists) the longest-match refinement costs too much. */
const MAX_VARIANTS = 64;

export class Matcher {
  /**
   * Set when every match contains this one literal (a single pattern with no
   * regex syntax): lines without it cannot select, so a reader may skip them
   * unseen. A RegExp with the matcher's case flag, global for scanning.
   */
  needle: RegExp | null = null;
  private readonly any: RegExp;
  private readonly all: RegExp;
  private readonly variants: RegExp[];

  constructor(branches: string[], o: MatchOptions) {
    const wrap = (alt: string) => (o.line ? `^(?:${alt})$` : o.word ? `(?<!\\w)(?:${alt})(?!\\w)` : alt);
    const flags = o.ignoreCase ? 'si' : 's';
    const source = branches.length ? wrap(branches.join('|')) : '(?!)';
    this.any = new RegExp(source, flags);
    this.all = new RegExp(source, `${flags}g`);
    this.variants =
      branches.length > 1 && branches.length <= MAX_VARIANTS
        ? branches.map((_, k) => new RegExp(wrap(branches.map((b, j) => (j === k ? b : `(?!)${b}`)).join('|')), `${flags}y`))
        : [];
  }

  test(line: string): boolean {
    return this.any.test(line);
  }

  /** The non-empty matches of a line as [start, end) pairs, left to right (empty matches are skipped, as GNU does). */
  matches(line: string): [number, number][] {
    const out: [number, number][] = [];
    const re = this.all;
    for (let pos = 0; pos <= line.length; ) {
      re.lastIndex = pos;
      const m = re.exec(line);
      if (!m) break;
      const start = m.index;
      let end = start + m[0].length;
      for (const v of this.variants) {
        v.lastIndex = start;
        const mm = v.exec(line);
        if (mm && start + mm[0].length > end) end = start + mm[0].length;
      }
      if (end === start) {
        pos = start + 1;
        continue;
      }
      out.push([start, end]);
      pos = end;
    }
    return out;
  }
}

/** Compile the pattern list; throws RegexError with GNU's message for a bad pattern. */
export function compile(patterns: string[], o: MatchOptions): { matcher: Matcher; warnings: string[] } {
  const branches: string[] = [];
  const warnings: string[] = [];
  let groups = 0;
  for (const p of patterns) {
    if (o.syntax === 'fixed') {
      branches.push(literal(p));
      continue;
    }
    const t = translate(p, o.syntax, groups);
    groups += t.groups;
    branches.push(...t.branches);
    for (const w of t.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  const matcher = new Matcher(branches, o);
  const only = patterns.length === 1 ? patterns[0] : '';
  if (only !== '' && branches.length === 1 && branches[0] === literal(only)) {
    matcher.needle = new RegExp(branches[0], o.ignoreCase ? 'gi' : 'g');
  }
  return { matcher, warnings };
}
