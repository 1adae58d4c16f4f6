// Perl-compatible patterns (PCRE2, as GNU grep -P compiles them) → JavaScript
// RegExp source: a parser builds a tree, an emitter writes JS.
//
// GNU grep -P without PCRE2_UCP (grep 3.8) is the specification: `\d \w \s \b`
// and the POSIX classes are ASCII; in a UTF-8 locale `.`, classes and `\p{..}`
// match characters and caseless matching folds Unicode, in the C locale they
// match bytes and fold only ASCII.
//
// C locale: the source is for a RegExp without flags over byte strings; every
// class is computed as a set of bytes and case is folded by hand (JS's `i`
// would fold latin1 bytes). UTF-8: the source is for a `v` RegExp over decoded
// text (Utf8RegExp runs it on byte strings); an invalid byte matches nothing
// but itself written out. JS lacks what PCRE spells differently, so:
// named groups become numbered ones (names are resolved here), atomic groups
// and possessive quantifiers become `(?=(X))\N`, `\K` becomes an empty group
// whose index (the `d` flag) is where the reported match starts, and inline
// flags are applied while emitting (`(?i)` by folding case by hand unless the
// whole pattern is caseless, when the `i` flag does it). What JS cannot do
// (recursion, conditionals, verbs, `\G`, ...) is a RegexError saying so.

import { decode } from '../utf8.js';
import { RegexError } from './regex.js';

export interface PcreOptions {
  /** A UTF-8 locale: characters, not bytes. */
  utf8: boolean;
  /** -i: the pattern starts caseless. */
  caseless: boolean;
}

export interface PcreTranslated {
  source: string;
  /** Flags the source needs besides the caller's (`i` when the whole pattern is caseless, `d` for \K). */
  flags: string;
  /** The JS group numbers of the \K markers: a match reports from the last one set. */
  kGroups: number[];
}

interface Flags {
  i: boolean;
  s: boolean;
  m: boolean;
  x: boolean;
  xx: boolean;
  n: boolean;
  U: boolean;
}

/** One member of a class: a range of code points (bytes), a type such as \d (`neg` for \D), or a property. */
type Item = { lo: number; hi: number } | { type: string; neg: boolean } | { prop: string; neg: boolean };

type Node =
  | { t: 'lit'; cp: number; i: boolean }
  | { t: 'set'; items: Item[]; neg: boolean; i: boolean }
  | { t: 'dot'; s: boolean }
  | { t: 'assert'; k: string; m: boolean }
  | { t: 'group'; k: GroupKind; n: number; alts: Node[][]; js?: number }
  | { t: 'rep'; node: Node; min: number; max: number; lazy: boolean; poss: boolean; js?: number }
  | { t: 'ref'; ref: number | string; rel: boolean; i: boolean; n?: number }
  | { t: 'K'; js?: number }
  | { t: 'call'; ref: number | string; n?: number };

type GroupKind = 'cap' | 'non' | 'la' | 'nla' | 'lb' | 'nlb' | 'atomic';

const MAX_QUANT = 65535;
const ESCAPES = '\\u{dc80}-\\u{dcff}';
const ASCII_WORD = '0-9A-Za-z_';

/** The ASCII POSIX classes (PCRE2 without UCP), as byte ranges. */
const POSIX: Record<string, [number, number][]> = {
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  digit: [[0x30, 0x39]],
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  upper: [[0x41, 0x5a]],
  lower: [[0x61, 0x7a]],
  space: [[9, 13], [32, 32]],
  blank: [[9, 9], [32, 32]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  print: [[0x20, 0x7e]],
  graph: [[0x21, 0x7e]],
  cntrl: [[0, 0x1f], [0x7f, 0x7f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  ascii: [[0, 0x7f]],
};

/** The escape types as code point ranges; \h and \v reach beyond bytes in UTF-8. */
const TYPES: Record<string, [number, number][]> = {
  d: POSIX.digit,
  w: POSIX.word,
  s: POSIX.space,
  h: [[9, 9], [32, 32], [0xa0, 0xa0], [0x1680, 0x1680], [0x180e, 0x180e], [0x2000, 0x200a], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000]],
  v: [[10, 13], [0x85, 0x85], [0x2028, 0x2029]],
};

const GENERAL = new Set(
  'C Cc Cf Cn Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);

/** A PCRE property name as a `v`-flag class, or null if unknown. */
function propertyClass(name: string): string | null {
  if (GENERAL.has(name)) return `\\p{${name}}`;
  switch (name) {
    case 'Any':
      return '[^]';
    case 'L&':
    case 'LC':
      return '\\p{LC}';
    case 'Xan':
      return '[\\p{L}\\p{N}]';
    case 'Xwd':
      return '[\\p{L}\\p{N}_]';
    case 'Xsp':
    case 'Xps':
      return '[\\p{Z}\\t\\n\\v\\f\\r]';
  }
  // Scripts: PCRE takes `Greek`, JS spells `Script=Greek`.
  const src = `\\p{Script=${name}}`;
  try {
    new RegExp(src, 'v');
    return src;
  } catch {
    return null;
  }
}

/** The case variants of a code point (itself included) under Unicode simple folding. */
function caseVariants(cp: number, utf8: boolean): number[] {
  if (!utf8 || cp < 0x80) {
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) {
      const out = [cp, cp ^ 0x20];
      if (utf8 && (cp | 0x20) === 0x6b) out.push(0x212a); // KELVIN SIGN
      if (utf8 && (cp | 0x20) === 0x73) out.push(0x17f); // LATIN SMALL LETTER LONG S
      return out;
    }
    return [cp];
  }
  const c = String.fromCodePoint(cp);
  const re = new RegExp(`^\\u{${cp.toString(16)}}$`, 'iv');
  const out = new Set<number>([cp]);
  for (const v of [c.toLowerCase(), c.toUpperCase(), c.toUpperCase().toLowerCase(), c.toLowerCase().toUpperCase()]) {
    const vc = v.codePointAt(0)!;
    if ([...v].length === 1 && re.test(v)) out.add(vc);
  }
  return [...out];
}

class Parser {
  private i = 0;
  private groups = 0;
  readonly names = new Map<string, number>();
  private readonly p: number[];
  private readonly totalGroups: number;
  /** Nodes whose case flag matters: whether all are caseless decides between the `i` flag and folding by hand. */
  readonly cased: { i: boolean }[] = [];

  constructor(
    pattern: string,
    private readonly utf8: boolean,
    private flags: Flags,
  ) {
    const text = utf8 ? decode(pattern) : pattern;
    this.p = [...text].map((c) => c.codePointAt(0)!);
    this.totalGroups = countGroups(text);
  }

  get groupCount(): number {
    return this.groups;
  }

  parse(): Node[][] {
    const alts = this.alternation();
    if (this.i < this.p.length) throw new RegexError('unmatched closing parenthesis');
    return alts;
  }

  private peek(k = 0): string {
    const c = this.p[this.i + k];
    return c === undefined ? '' : String.fromCodePoint(c);
  }

  /** Alternatives; in a branch reset group (`reset`) each one numbers its groups from the same start. */
  private alternation(reset = false): Node[][] {
    const start = this.groups;
    let most = start;
    const alts = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      if (reset) {
        most = Math.max(most, this.groups);
        this.groups = start;
      }
      alts.push(this.sequence());
    }
    if (reset) this.groups = Math.max(most, this.groups);
    return alts;
  }

  private sequence(): Node[] {
    const seq: Node[] = [];
    for (;;) {
      this.skipExtended();
      const c = this.peek();
      if (c === '' || c === '|' || c === ')') break;
      if (this.quantifierHere()) {
        const last = seq[seq.length - 1];
        if (!last || last.t === 'assert' || last.t === 'K' || last.t === 'rep') {
          throw new RegexError('quantifier does not follow a repeatable item');
        }
        seq[seq.length - 1] = this.quantify(last);
        continue;
      }
      const node = this.atom();
      if (node) seq.push(...(Array.isArray(node) ? node : [node]));
    }
    return seq;
  }

  /** (?x): whitespace and #-comments between items are ignored. */
  private skipExtended(): void {
    if (!this.flags.x) return;
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') this.i++;
      else if (c === '#') while (this.i < this.p.length && this.peek() !== '\n') this.i++;
      else return;
    }
  }

  private quantifierHere(): boolean {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') return true;
    return c === '{' && this.braceQuant() !== null;
  }

  /** `{n}`, `{n,}`, `{n,m}` at the cursor (PCRE2 10.42: anything else is literal). */
  private braceQuant(): { min: number; max: number; len: number } | null {
    let s = '';
    for (let k = 1; k < 24 && this.peek(k) !== ''; k++) {
      s += this.peek(k);
      if (this.peek(k) === '}') break;
    }
    const m = /^(\d+)(,(\d*))?\}/.exec(s);
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (min > MAX_QUANT || (max !== Infinity && max > MAX_QUANT)) throw new RegexError('number too big in {} quantifier');
    if (max < min) throw new RegexError('numbers out of order in {} quantifier');
    return { min, max, len: m[0].length + 1 };
  }

  private quantify(node: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '{') {
      const q = this.braceQuant()!;
      ({ min, max } = q);
      this.i += q.len;
    } else {
      this.i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    let lazy = this.flags.U;
    let poss = false;
    if (this.peek() === '?') {
      this.i++;
      lazy = !lazy;
    } else if (this.peek() === '+') {
      this.i++;
      poss = true;
      lazy = false;
    }
    return { t: 'rep', node, min, max, lazy, poss };
  }

  private lit(cp: number): Node {
    const n = { t: 'lit' as const, cp, i: this.flags.i };
    this.cased.push(n);
    return n;
  }

  private set(items: Item[], neg: boolean): Node {
    const n = { t: 'set' as const, items, neg, i: this.flags.i };
    this.cased.push(n);
    return n;
  }

  private atom(): Node | Node[] | null {
    const c = this.peek();
    this.i++;
    switch (c) {
      case '.':
        return { t: 'dot', s: this.flags.s };
      case '^':
        return { t: 'assert', k: '^', m: this.flags.m };
      case '$':
        return { t: 'assert', k: '$', m: this.flags.m };
      case '[':
        return this.bracket();
      case '(':
        return this.group();
      case '\\':
        return this.escape();
      default:
        return this.lit(this.p[this.i - 1]);
    }
  }

  private group(): Node | null {
    if (this.peek() === '*') throw unsupported('backtracking control verbs (*VERB)');
    let kind: GroupKind = 'cap';
    let name: string | null = null;
    let reset = false;
    // An inline flag set inside a group lasts to the group's end (later alternatives included).
    const outer = this.flags;
    if (this.peek() === '?') {
      this.i++;
      const c = this.peek();
      const c2 = this.peek(1);
      if (c === ':') {
        this.i++;
        kind = 'non';
      } else if (c === '=' || c === '!') {
        this.i++;
        kind = c === '=' ? 'la' : 'nla';
      } else if (c === '<' && (c2 === '=' || c2 === '!')) {
        this.i += 2;
        kind = c2 === '=' ? 'lb' : 'nlb';
      } else if (c === '>') {
        this.i++;
        kind = 'atomic';
      } else if (c === '#') {
        while (this.i < this.p.length && this.peek() !== ')') this.i++;
        if (this.peek() !== ')') throw new RegexError('missing ) after (?# comment');
        this.i++;
        return null;
      } else if (c === '<' || c === "'" || (c === 'P' && c2 === '<')) {
        this.i += c === 'P' ? 2 : 1;
        name = this.name(c === "'" ? "'" : '>');
      } else if (c === 'P' && c2 === '=') {
        this.i += 2;
        const ref = this.name(')');
        const n = { t: 'ref' as const, ref, rel: false, i: this.flags.i };
        this.cased.push(n);
        return n;
      } else if (c === 'P' && c2 === '>') {
        this.i += 2;
        return { t: 'call', ref: this.name(')') };
      } else if (c === '&') {
        this.i++;
        return { t: 'call', ref: this.name(')') };
      } else if (/[0-9]/.test(c) || ((c === '+' || c === '-') && /[0-9]/.test(c2))) {
        let s = '';
        while (/[0-9+-]/.test(this.peek()) && (s === '' || /[0-9]/.test(this.peek()))) {
          s += this.peek();
          this.i++;
        }
        if (this.peek() !== ')') throw new RegexError('(?R (recursive pattern call) must be followed by )');
        this.i++;
        return { t: 'call', ref: this.relative(s) };
      } else if (c === '|') {
        this.i++;
        kind = 'non';
        reset = true;
      } else if (c === '(') {
        throw unsupported('conditional groups (?(...)...)');
      } else if (c === 'R') {
        throw unsupported('recursion (?R)');
      } else if (c === 'C') {
        throw unsupported('callouts (?C)');
      } else {
        // Inline flags: (?imsxnU-imsxnU) for the rest of the group, or (?flags:...) for a group.
        const f = this.inlineFlags();
        if (this.p[this.i - 1] === 0x29) {
          this.flags = f;
          return null;
        }
        this.flags = f;
        kind = 'non';
      }
    }
    const n = kind === 'cap' && !(this.flags.n && name === null) ? ++this.groups : 0;
    if (name !== null) {
      if (this.names.has(name) && this.names.get(name) !== n) throw new RegexError('two named subpatterns have the same name (PCRE2_DUPNAMES not set)');
      this.names.set(name, n);
    }
    const alts = this.alternation(reset);
    this.flags = outer;
    if (this.peek() !== ')') throw new RegexError('missing closing parenthesis');
    this.i++;
    return { t: 'group', k: n === 0 && kind === 'cap' ? 'non' : kind, n, alts };
  }

  /** Reads `imsxnU-imsxnU` and the `)` (for the rest of the group) or `:` (a group with them follows) after. */
  private inlineFlags(): Flags {
    const f = { ...this.flags };
    let on = true;
    for (;;) {
      const c = this.peek();
      this.i++;
      if (c === ')' || c === ':') return f;
      if (c === '-' && on) on = false;
      else if (c === '^' && on) Object.assign(f, { i: false, s: false, m: false, x: false, xx: false, n: false, U: false });
      else if (c === 'x' && this.peek() === 'x') {
        this.i++;
        f.x = f.xx = on;
      } else if (c === 'x') {
        f.x = on;
        if (!on) f.xx = false;
      } else if (c === 'i' || c === 's' || c === 'm' || c === 'n' || c === 'U') f[c] = on;
      else if (c === 'J') throw unsupported('duplicate group names (?J)');
      else throw new RegexError('unrecognized character after (? or (?-');
    }
  }

  private name(end: string): string {
    let s = '';
    while (this.i < this.p.length && this.peek() !== end) {
      s += this.peek();
      this.i++;
    }
    if (this.peek() !== end) throw new RegexError('syntax error in subpattern name (missing terminator?)');
    this.i++;
    if (!/^[A-Za-z_]\w*$/.test(s)) {
      throw new RegexError(/^\d/.test(s) ? 'subpattern name must start with a non-digit' : 'subpattern name expected');
    }
    return s;
  }

  /** A backslash sequence (after the backslash); in a class only characters and types are allowed. */
  private escape(): Node | Node[] | null {
    const c = this.peek();
    if (c === '') throw new RegexError('\\ at end of pattern');
    this.i++;
    const type = (t: string, neg: boolean) => this.set([{ type: t, neg }], false);
    switch (c) {
      case 'd':
      case 'w':
      case 's':
      case 'h':
      case 'v':
        return type(c, false);
      case 'D':
      case 'W':
      case 'S':
      case 'H':
      case 'V':
        return type(c.toLowerCase(), true);
      case 'N':
        if (this.peek() === '{') throw unsupported('\\N{...}');
        return { t: 'dot', s: false };
      case 'p':
      case 'P':
        return this.set([this.property(c === 'P')], false);
      case 'R':
        // Any newline sequence.
        return {
          t: 'group',
          k: 'atomic',
          n: 0,
          alts: [[this.lit(13), this.lit(10)], [this.set([{ type: 'v', neg: false }], false)]],
        };
      case 'b':
      case 'B':
      case 'A':
      case 'z':
      case 'Z':
        return { t: 'assert', k: c, m: false };
      case 'G':
        return { t: 'assert', k: c, m: false };
      case 'K':
        return { t: 'K' };
      case 'X':
        throw unsupported('\\X');
      case 'C':
        throw unsupported('\\C');
      case 'Q':
        return this.quoted();
      case 'E':
        return null;
      case 'g':
      case 'k':
        return this.backref(c);
    }
    if (c >= '1' && c <= '9') {
      // \N: a back-reference when N < 10 or N groups exist; otherwise octal.
      let digits = c;
      while (/[0-9]/.test(this.peek())) {
        digits += this.peek();
        this.i++;
      }
      const n = Number(digits);
      if (n < 10 || n <= this.totalGroups) {
        const r = { t: 'ref' as const, ref: n, rel: false, i: this.flags.i };
        this.cased.push(r);
        return r;
      }
      this.i -= digits.length - 1;
      if (c >= '8') throw new RegexError('\\ followed by 8 or 9 is not allowed');
    }
    this.i--;
    return this.lit(this.charEscape());
  }

  /** A character escape at the cursor (after the backslash): \n, \x{..}, \o{..}, \0oo, \cX, or the character itself. */
  private charEscape(): number {
    const c = this.peek();
    this.i++;
    const simple: Record<string, number> = { a: 7, e: 0x1b, f: 12, n: 10, r: 13, t: 9 };
    if (c in simple) return simple[c];
    if (c === 'x') {
      if (this.peek() === '{') {
        const hex = this.until('}', /^[0-9A-Fa-f]+$/);
        if (hex === null) throw new RegexError('missing terminating } or non-hex character in \\x{}');
        return this.codeValue(parseInt(hex, 16));
      }
      let hex = '';
      while (hex.length < 2 && /[0-9A-Fa-f]/.test(this.peek())) {
        hex += this.peek();
        this.i++;
      }
      return hex === '' ? 0 : parseInt(hex, 16);
    }
    if (c === 'o') {
      const oct = this.peek() === '{' ? this.until('}', /^[0-7]+$/) : null;
      if (oct === null) throw new RegexError('missing opening brace after \\o');
      return this.codeValue(parseInt(oct, 8));
    }
    if (c >= '0' && c <= '7') {
      let oct = c;
      while (oct.length < 3 && /[0-7]/.test(this.peek())) {
        oct += this.peek();
        this.i++;
      }
      return this.codeValue(parseInt(oct, 8));
    }
    if (c === 'c') {
      const x = this.peek();
      if (x === '' || x.charCodeAt(0) > 0x7e) throw new RegexError('\\c must be followed by a printable ASCII character');
      this.i++;
      return x.toUpperCase().charCodeAt(0) ^ 0x40;
    }
    if (/[A-Za-z]/.test(c)) throw new RegexError('unrecognized character follows \\');
    return this.p[this.i - 1];
  }

  private codeValue(v: number): number {
    if (this.utf8 ? v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) : v > 0xff) {
      throw new RegexError('character code point value in \\x{} or \\o{} is too large');
    }
    return v;
  }

  /** `{...}` at the cursor whose inside matches `ok`: the inside, cursor after `}`; null if not. */
  private until(end: string, ok: RegExp): string | null {
    let k = 1;
    let s = '';
    while (this.peek(k) !== '' && this.peek(k) !== end) s += this.peek(k++);
    if (this.peek(k) !== end || !ok.test(s)) return null;
    this.i += k + 1;
    return s;
  }

  private quoted(): Node[] {
    const out: Node[] = [];
    while (this.i < this.p.length) {
      if (this.peek() === '\\' && this.peek(1) === 'E') {
        this.i += 2;
        break;
      }
      out.push(this.lit(this.p[this.i++]));
    }
    return out;
  }

  private backref(c: string): Node {
    let ref: number | string;
    let rel = false;
    const open = this.peek();
    if (c === 'g' && /[0-9+-]/.test(open)) {
      let s = '';
      while (/[0-9+-]/.test(this.peek()) && (s === '' || /[0-9]/.test(this.peek()))) {
        s += this.peek();
        this.i++;
      }
      if (s.startsWith('+')) throw unsupported('relative forward references \\g+N');
      rel = s.startsWith('-');
      ref = Number(s);
    } else if (c === 'g' && (open === '<' || open === "'")) {
      // A subroutine call: \g<n>, \g<+n>, \g<-n>, \g<name>.
      this.i++;
      let t = '';
      while (this.i < this.p.length && this.peek() !== (open === '<' ? '>' : "'")) {
        t += this.peek();
        this.i++;
      }
      if (this.i >= this.p.length) throw new RegexError('\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number');
      this.i++;
      return { t: 'call', ref: /^[+-]?\d+$/.test(t) ? this.relative(t) : t };
    } else if (open === '{' || (c === 'k' && (open === '<' || open === "'"))) {
      this.i++;
      const end = open === '{' ? '}' : open === '<' ? '>' : "'";
      let s = '';
      while (this.i < this.p.length && this.peek() !== end) {
        s += this.peek();
        this.i++;
      }
      if (this.peek() !== end) throw new RegexError('\\k is not followed by a braced, angle-bracketed, or quoted name');
      this.i++;
      if (c === 'g' && /^[+-]?\d+$/.test(s)) {
        if (s.startsWith('+')) throw unsupported('relative forward references \\g{+N}');
        rel = s.startsWith('-');
        ref = Number(s);
      } else ref = s;
    } else {
      throw new RegexError(
        c === 'g'
          ? 'a numbered reference must not be zero'
          : '\\k is not followed by a braced, angle-bracketed, or quoted name',
      );
    }
    if (rel) ref = this.groups + 1 + (ref as number);
    if (ref === 0 || (typeof ref === 'number' && ref < 0)) throw new RegexError('a numbered reference must not be zero');
    const r = { t: 'ref' as const, ref, rel: false, i: this.flags.i };
    this.cased.push(r);
    return r;
  }

  /** A group number, absolute or relative (`-1` the last opened, `+1` the next). */
  private relative(s: string): number {
    const v = Number(s);
    if (s.startsWith('+')) return this.groups + v;
    if (s.startsWith('-')) return this.groups + 1 + v;
    return v;
  }

  private property(neg: boolean): Item {
    let name: string;
    if (this.peek() === '{') {
      const s = this.until('}', /^.+$/);
      if (s === null) throw new RegexError('malformed \\P or \\p sequence');
      name = s;
    } else {
      name = this.peek();
      if (name === '') throw new RegexError('malformed \\P or \\p sequence');
      this.i++;
    }
    if (name.startsWith('^')) {
      neg = !neg;
      name = name.slice(1);
    }
    if (propertyClass(name) === null) throw new RegexError('unknown property after \\P or \\p');
    return { prop: name, neg };
  }

  /** `[...]`, the cursor after `[`. */
  private bracket(): Node {
    let neg = false;
    if (this.peek() === '^') {
      neg = true;
      this.i++;
    }
    const items: Item[] = [];
    let first = true;
    for (;;) {
      if (this.i >= this.p.length) throw new RegexError('missing terminating ] for character class');
      if (this.flags.xx && (this.peek() === ' ' || this.peek() === '\t')) {
        this.i++;
        continue;
      }
      const c = this.peek();
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === '[' && /[:.=]/.test(this.peek(1))) {
        const kind = this.peek(1);
        let k = this.i + 2;
        let s = '';
        while (k < this.p.length && !(String.fromCodePoint(this.p[k]) === kind && String.fromCodePoint(this.p[k + 1] ?? 0) === ']')) {
          s += String.fromCodePoint(this.p[k++]);
        }
        if (k < this.p.length && /^\^?[a-z]*$/.test(s)) {
          if (kind !== ':') throw new RegexError('POSIX collating elements are not supported');
          const name = s.replace('^', '');
          if (!(name in POSIX)) throw new RegexError('unknown POSIX class name');
          items.push({ type: `:${name}`, neg: s.startsWith('^') });
          this.i = k + 2;
          continue;
        }
      }
      const lo = this.classChar(items);
      if (lo === null) {
        // `[\d-z]`: a type cannot start a range.
        if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') throw new RegexError('invalid range in character class');
        continue;
      }
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.i++;
        const hi = this.classChar(null);
        if (hi === null) throw new RegexError('invalid range in character class');
        if (hi < lo) throw new RegexError('range out of order in character class');
        items.push({ lo, hi });
        continue;
      }
      items.push({ lo, hi: lo });
    }
    return this.set(items, neg);
  }

  /** One class member: a character (its code), or null after adding a type (\d, \p{..}) to `items`. */
  private classChar(items: Item[] | null): number | null {
    const c = this.peek();
    if (c !== '\\') return this.p[this.i++];
    const d = this.peek(1);
    if (d === '') throw new RegexError('\\ at end of pattern');
    if ('dwshvDWSHVpP'.includes(d)) {
      if (!items) return null;
      this.i += 2;
      if (d === 'p' || d === 'P') items.push(this.property(d === 'P'));
      else items.push({ type: d.toLowerCase(), neg: d !== d.toLowerCase() });
      return null;
    }
    if (d === 'b') {
      this.i += 2;
      return 8;
    }
    if (d === 'Q' || d === 'E') {
      throw unsupported('\\Q...\\E inside a character class');
    }
    if (/[NRXBGKAzZgk]/.test(d)) throw new RegexError('escape sequence is invalid in character class');
    this.i++;
    return this.charEscape();
  }
}

const unsupported = (what: string): RegexError => new RegexError(`${what}: unsupported in this grep -P`);

/** Capturing groups in a pattern (for telling \10 the back-reference from \10 the octal escape). */
function countGroups(p: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && (p[i + 1] !== '?' || /^\?(<[A-Za-z_]|'|P<)/.test(p.slice(i + 1, i + 4))) && p[i + 1] !== '*') n++;
  }
  return n;
}

/** The fixed length of a node in characters, or -1 when it varies (lookbehinds need a fixed length). */
function fixedLength(n: Node): number {
  switch (n.t) {
    case 'lit':
    case 'set':
    case 'dot':
      return 1;
    case 'assert':
    case 'K':
      return 0;
    case 'ref':
    case 'call':
      return -1;
    case 'rep': {
      const l = fixedLength(n.node);
      return l < 0 || n.min !== n.max ? (l === 0 ? 0 : -1) : l * n.min;
    }
    case 'group': {
      if (n.k !== 'cap' && n.k !== 'non' && n.k !== 'atomic') return 0;
      const lens = n.alts.map(seqLength);
      return lens.every((l) => l === lens[0]) ? lens[0] : -1;
    }
  }
}

function seqLength(seq: Node[]): number {
  let total = 0;
  for (const n of seq) {
    const l = fixedLength(n);
    if (l < 0) return -1;
    total += l;
  }
  return total;
}

class Emitter {
  private js = 0;
  readonly kGroups: number[] = [];
  /** The first pass: record the groups' JS numbers. */
  numbering = false;
  /** The groups being emitted (a call to one of them would recurse). */
  private readonly open: number[] = [];
  /** Inside a subroutine call: its groups do not capture (the call's captures are dropped after it, as in PCRE2). */
  private calls = 0;

  constructor(
    private readonly utf8: boolean,
    /** Fold case by hand for caseless nodes (false: the `i` flag folds). */
    private readonly manual: boolean,
    /** PCRE group → its JS groups (several in a branch reset group, of which one at most is set). */
    private readonly groupMap: Map<number, number[]>,
    /** The capturing groups by number, for subroutine calls. */
    private readonly groupNodes: Map<number, Extract<Node, { t: 'group' }>>,
  ) {}

  alts(alts: Node[][], inLookaround = false): string {
    return alts.map((s) => s.map((n) => this.node(n, inLookaround)).join('')).join('|');
  }

  private node(n: Node, look: boolean): string {
    switch (n.t) {
      case 'lit':
        return this.literal(n.cp, n.i);
      case 'set':
        return this.set(n.items, n.neg, n.i);
      case 'dot':
        if (this.utf8) return n.s ? `[^${ESCAPES}]` : `[^\\n${ESCAPES}]`;
        return n.s ? '[^]' : '[^\\n]';
      case 'assert':
        return this.assert(n.k, n.m);
      case 'call': {
        if (this.open.includes(n.n!)) throw unsupported('recursion (a group that calls itself)');
        const g = this.groupNodes.get(n.n!)!;
        this.calls++;
        try {
          return this.group({ ...g, k: 'non' }, look, n.n);
        } finally {
          this.calls--;
        }
      }
      case 'K':
        if (this.calls) return '';
        if (look) throw new RegexError('\\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)');
        this.kGroups.push(++this.js);
        return '()';
      case 'ref':
        // A group that did not take part matches empty in JS, so a reference to all of them is a reference to the one set.
        return `(?:${(this.groupMap.get(n.n!) ?? []).map((g) => `\\${g}`).join('')})`;
      case 'group':
        return this.group(n, look);
      case 'rep':
        return this.rep(n, look);
    }
  }

  private group(n: Extract<Node, { t: 'group' }>, look: boolean, called = 0): string {
    const num = called || (n.k === 'cap' ? n.n : 0);
    if (num) this.open.push(num);
    try {
      return this.groupBody(n, look);
    } finally {
      if (num) this.open.pop();
    }
  }

  private groupBody(n: Extract<Node, { t: 'group' }>, look: boolean): string {
    switch (n.k) {
      case 'cap': {
        if (this.calls) return `(?:${this.alts(n.alts, look)})`;
        const gs = this.groupMap.get(n.n) ?? [];
        if (this.numbering) this.groupMap.set(n.n, [...gs, this.js + 1]);
        ++this.js;
        return `(${this.alts(n.alts, look)})`;
      }
      case 'non':
        return `(?:${this.alts(n.alts, look)})`;
      case 'atomic': {
        const g = ++this.js;
        return `(?=(${this.alts(n.alts, look)}))\\${g}`;
      }
      default: {
        if (n.k === 'lb' || n.k === 'nlb') {
          for (const a of n.alts) if (seqLength(a) < 0) throw new RegexError('lookbehind assertion is not fixed length');
        }
        const open = { la: '(?=', nla: '(?!', lb: '(?<=', nlb: '(?<!' }[n.k];
        return `${open}${this.alts(n.alts, true)})`;
      }
    }
  }

  private rep(n: Extract<Node, { t: 'rep' }>, look: boolean): string {
    const q = n.max === Infinity ? (n.min === 0 ? '*' : n.min === 1 ? '+' : `{${n.min},}`) : n.min === 0 && n.max === 1 ? '?' : n.min === n.max ? `{${n.min}}` : `{${n.min},${n.max}}`;
    if (n.poss) {
      const g = ++this.js;
      return `(?=((?:${this.node(n.node, look)})${q}))\\${g}`;
    }
    return `(?:${this.node(n.node, look)})${q}${n.lazy ? '?' : ''}`;
  }

  private assert(k: string, m: boolean): string {
    const W = `[${ASCII_WORD}]`;
    switch (k) {
      case '^':
        return m ? '(?<![^\\n])' : '^';
      case '$':
        return m ? '(?![^\\n])' : '$';
      case 'A':
        return '^';
      case 'z':
        return '$';
      case 'G':
        throw unsupported('\\G other than at the start of every alternative');
      case 'Z':
        return '(?=\\n?$)';
      case 'b':
        return this.utf8 ? `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))` : '\\b';
      default:
        return this.utf8 ? `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))` : '\\B';
    }
  }

  private literal(cp: number, i: boolean): string {
    if (i && this.manual) {
      const vs = caseVariants(cp, this.utf8);
      if (vs.length > 1) return `[${vs.map((v) => this.ch(v)).join('')}]`;
    }
    return this.ch(cp);
  }

  /** One code point (byte) as a literal, safe inside and outside a class. */
  private ch(cp: number): string {
    if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f) return String.fromCharCode(cp);
    if (this.utf8) return `\\u{${cp.toString(16)}}`;
    return `\\x${cp.toString(16).padStart(2, '0')}`;
  }

  private set(items: Item[], neg: boolean, i: boolean): string {
    return this.utf8 ? this.unicodeSet(items, neg, i) : this.byteSet(items, neg, i);
  }

  /** C locale: the class as the set of bytes it matches. */
  private byteSet(items: Item[], neg: boolean, i: boolean): string {
    const bits = new Uint8Array(256);
    const add = (lo: number, hi: number, v = 1) => {
      for (let b = lo; b <= Math.min(hi, 255); b++) bits[b] = v;
    };
    for (const it of items) {
      if ('lo' in it) add(it.lo, it.hi);
      else {
        const one = new Uint8Array(256);
        if ('prop' in it) {
          const re = new RegExp(`^${propertyClass(it.prop)}$`, 'v');
          for (let b = 0; b < 256; b++) one[b] = re.test(String.fromCharCode(b)) ? 1 : 0;
        } else {
          const ranges = it.type.startsWith(':') ? POSIX[it.type.slice(1)] : TYPES[it.type];
          for (const [lo, hi] of ranges) for (let b = lo; b <= Math.min(hi, 255); b++) one[b] = 1;
        }
        for (let b = 0; b < 256; b++) if (one[b] !== (it.neg ? 1 : 0)) bits[b] = 1;
      }
    }
    if (i) for (let b = 0x41; b <= 0x5a; b++) if (bits[b] || bits[b + 0x20]) bits[b] = bits[b + 0x20] = 1;
    let out = '';
    for (let b = 0; b < 256; b++) {
      if (bits[b] === (neg ? 1 : 0)) continue;
      let e = b;
      while (e + 1 < 256 && bits[e + 1] === bits[b]) e++;
      out += e === b ? this.ch(b) : e === b + 1 ? this.ch(b) + this.ch(e) : `${this.ch(b)}-${this.ch(e)}`;
      b = e;
    }
    return out === '' ? '[]' : out === '\\x00-\\xff' ? '[^]' : `[${out}]`;
  }

  /** UTF-8: a `v`-flag class; negated parts leave out the invalid bytes. */
  private unicodeSet(items: Item[], neg: boolean, i: boolean): string {
    const parts: string[] = [];
    const fold = i && this.manual;
    for (const it of items) {
      if ('lo' in it) {
        parts.push(it.lo === it.hi ? this.ch(it.lo) : `${this.ch(it.lo)}-${this.ch(it.hi)}`);
        if (fold && it.hi - it.lo < 512) {
          for (let c = it.lo; c <= it.hi; c++) for (const v of caseVariants(c, true)) if (v < it.lo || v > it.hi) parts.push(this.ch(v));
        }
        continue;
      }
      let cls: string;
      if ('prop' in it) cls = propertyClass(it.prop)!;
      else {
        const ranges = it.type.startsWith(':') ? POSIX[it.type.slice(1)] : TYPES[it.type];
        cls = `[${ranges.map(([lo, hi]) => (lo === hi ? this.ch(lo) : `${this.ch(lo)}-${this.ch(hi)}`)).join('')}]`;
        // Caseless, [[:upper:]] and [[:lower:]] match letters of both cases (the rest is closed already).
        if (fold && (it.type === ':upper' || it.type === ':lower')) cls = '[A-Za-z\\u{17f}\\u{212a}]';
      }
      parts.push(it.neg ? `[^${cls.startsWith('[') ? cls.slice(1, -1) : cls}${ESCAPES}]` : cls);
    }
    const body = parts.join('');
    if (neg) return `[^${body}${ESCAPES}]`;
    return body === '' ? '[]' : `[${body}]`;
  }
}

/** Translate a grep -P pattern. */
export function translatePcre(pattern: string, opts: PcreOptions): PcreTranslated {
  const flags: Flags = { i: opts.caseless, s: false, m: false, x: false, xx: false, n: false, U: false };
  const parser = new Parser(pattern, opts.utf8, flags);
  const alts = parser.parse();
  // Resolve back-references and calls (names and numbers) to PCRE group numbers.
  const groupNodes = new Map<number, Extract<Node, { t: 'group' }>>();
  const resolve = (seq: Node[]): void => {
    for (const n of seq) {
      if (n.t === 'ref') {
        const num = typeof n.ref === 'string' ? parser.names.get(n.ref) : n.ref;
        if (num === undefined || num > parser.groupCount) throw new RegexError('reference to non-existent subpattern');
        n.n = num;
      } else if (n.t === 'call') {
        const num = typeof n.ref === 'string' ? parser.names.get(n.ref) : n.ref;
        if (num === undefined || num < 1 || num > parser.groupCount) throw new RegexError('reference to non-existent subpattern');
        n.n = num;
      } else if (n.t === 'group') {
        if (n.k === 'cap' && !groupNodes.has(n.n)) groupNodes.set(n.n, n);
        n.alts.forEach(resolve);
      }
      else if (n.t === 'rep') resolve([n.node]);
    }
  };
  alts.forEach(resolve);
  // The `i` flag serves only a wholly caseless pattern in UTF-8; otherwise case is folded by hand.
  const allCaseless = opts.utf8 && parser.cased.length > 0 && parser.cased.every((n) => n.i);
  const groupMap = new Map<number, number[]>();
  // Back-references may point forward: emit once to number the groups, then again with the numbers known.
  // \G (the search's start) is supported where every alternative begins with it: a sticky search.
  const sticky = alts.every((seq) => seq[0]?.t === 'assert' && seq[0].k === 'G');
  if (sticky) for (const seq of alts) seq.shift();
  const numbering = new Emitter(opts.utf8, !allCaseless, groupMap, groupNodes);
  numbering.numbering = true;
  numbering.alts(alts);
  const em = new Emitter(opts.utf8, !allCaseless, groupMap, groupNodes);
  const source = em.alts(alts);
  const jsFlags = `${allCaseless ? 'i' : ''}${em.kGroups.length ? 'd' : ''}${sticky ? 'y' : ''}`;
  return { source, flags: jsFlags, kGroups: em.kGroups };
}
