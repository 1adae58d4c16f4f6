// The pattern list as one matcher: all patterns are alternatives of a single
// RegExp (group numbers shifted so each pattern's back-references stay its
// own), wrapped for -x / -w.
//
// JS alternation is leftmost-first; POSIX wants leftmost-longest. Selection
// does not care, but -o and colour print the match, so at each match start
// every top-level alternative is tried on its own and the longest wins (the
// others stay in the source, disabled by `(?!)`, to keep group numbering).
// Perl patterns (-P) are leftmost-first, as PCRE is; their \K moves a match's
// start to where it was passed.

import { isAsciiStr, seqLen } from '../utf8.js';
import { translatePcre, type PcreTranslated } from './pcre.js';
import { byteRegExp, literal, needsAsciiFold, RegexError, translate, wordBounded, type Syntax } from './regex.js';
import { Utf8RegExp } from '../utf8-regexp.js';

export interface MatchOptions {
  syntax: Syntax | 'fixed' | 'perl';
  ignoreCase: boolean;
  /** -w: the match must not touch word constituents on either side. */
  word: boolean;
  /** -x: the match must be the whole line. */
  line: boolean;
  /** A UTF-8 locale: patterns and lines are matched by character. */
  utf8: boolean;
}

/** Beyond this many alternatives (big -f lists) the longest-match refinement costs too much. */
const MAX_VARIANTS = 64;

/** The top-level alternatives of all patterns: for a `v` RegExp in UTF-8 (`ascii`: for ASCII lines). */
interface Branches {
  branches: string[];
  ascii?: string[];
}

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
  private readonly utf8: boolean;
  /** -P: the groups whose start is the reported match's start (\K), the last one set winning. */
  private readonly kGroups: number[] = [];

  constructor(b: Branches, o: MatchOptions, foldAscii: boolean, perl?: PcreTranslated) {
    this.utf8 = o.utf8;
    if (perl) {
      // GNU grep -P's own wrappers for -x and -w (\w is ASCII there).
      const src = o.line ? `^(?:${perl.source})$` : o.word ? `(?<![0-9A-Za-z_])(?:${perl.source})(?![0-9A-Za-z_])` : perl.source;
      const rx = (fl: string) => (o.utf8 ? new Utf8RegExp(src, null, fl + perl.flags) : new RegExp(src, fl + perl.flags));
      this.any = rx('');
      this.all = rx('g');
      this.variants = [];
      this.kGroups = perl.kGroups;
      return;
    }
    const flags = o.ignoreCase && !foldAscii ? 'si' : 's';
    const wrap = (alt: string, utf8: boolean) => (o.line ? `^(?:${alt})$` : o.word ? wordBounded(alt, utf8) : alt);
    const whole = (branches: string[], utf8: boolean) => (branches.length ? wrap(branches.join('|'), utf8) : '(?!)');
    // Branch k alone; the others stay in the source, disabled, to keep group numbering.
    const only = (branches: string[], k: number, utf8: boolean) => wrap(branches.map((x, j) => (j === k ? x : `(?!)${x}`)).join('|'), utf8);
    const rx = (f: (branches: string[], utf8: boolean) => string, fl: string) =>
      byteRegExp(f(b.branches, o.utf8), b.ascii && f(b.ascii, false), fl);
    this.any = rx(whole, flags);
    this.all = rx(whole, `${flags}g`);
    const n = b.branches.length;
    this.variants = n > 1 && n <= MAX_VARIANTS ? b.branches.map((_, k) => rx((br, u) => only(br, k, u), `${flags}y`)) : [];
  }

  test(line: string): boolean {
    this.any.lastIndex = 0; // a sticky -P pattern (\G) keeps its place
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
      let start = m.index;
      let end = start + m[0].length;
      for (const k of this.kGroups) {
        const r = m.indices?.[k];
        if (r && r[0] > start) start = r[0];
      }
      for (const v of this.variants) {
        v.lastIndex = start;
        const mm = v.exec(line);
        if (mm && start + mm[0].length > end) end = start + mm[0].length;
      }
      if (end === start) {
        pos = Math.max(end, m.index + (this.utf8 ? seqLen(line, m.index) || 1 : 1));
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
  if (o.syntax === 'perl') {
    if (patterns.length !== 1) throw new RegexError('the -P option only supports a single pattern');
    const t = translatePcre(patterns[0], { utf8: o.utf8, caseless: o.ignoreCase });
    return { matcher: new Matcher({ branches: [] }, o, false, t), warnings: [] };
  }
  const b: Branches = { branches: [], ascii: o.utf8 ? [] : undefined };
  const warnings: string[] = [];
  const foldAscii = !o.utf8 && o.ignoreCase && patterns.some(needsAsciiFold);
  let groups = 0;
  for (const p of patterns) {
    if (o.syntax === 'fixed') {
      b.branches.push(literal(p, o.utf8, foldAscii));
      b.ascii?.push(literal(p));
      continue;
    }
    const t = translate(p, o.syntax, groups, { utf8: o.utf8, foldAscii });
    groups += t.groups;
    b.branches.push(...t.branches);
    b.ascii?.push(...t.ascii!.branches);
    for (const w of t.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  const matcher = new Matcher(b, o, foldAscii);
  // The needle scans raw bytes: a valid UTF-8 literal matches bytes exactly where it matches
  // characters, but folding case beyond ASCII needs the decoded match.
  const only = patterns.length === 1 ? patterns[0] : '';
  const bytes = b.ascii ?? b.branches;
  if (only !== '' && bytes.length === 1 && bytes[0] === literal(only) && !(o.utf8 && o.ignoreCase && !isAsciiStr(only))) {
    matcher.needle = new RegExp(bytes[0], o.ignoreCase ? 'gi' : 'g');
  }
  return { matcher, warnings };
}
