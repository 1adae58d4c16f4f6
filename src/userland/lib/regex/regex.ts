// POSIX BRE/ERE (with the GNU extensions grep accepts) → JavaScript RegExp source.
//
// Patterns and input are "byte strings": one char per byte (latin1). In the C
// locale the translation is over bytes: bracket classes are ASCII, `.` is one
// byte, and the source is for a RegExp without flags of its own. In a UTF-8
// locale (`utf8`) the pattern's characters are decoded and the source is for
// a `v`-flag RegExp over decoded text (Utf8RegExp runs it on byte strings):
// `.`, brackets and classes match whole characters, classes and `\w` are
// Unicode's as glibc defines them, and an invalid byte matches only itself
// (never `.`, a negated bracket or `\W`, as in GNU).
// Backslash escapes that JS would read differently are always re-spelled;
// every literal is emitted escaped; stacked quantifiers (`a**`, `a\{2\}\{3\}`)
// are wrapped because JS rejects or reinterprets them (`a*?` is lazy in JS).

import { UNICODE_CLASSES, UNICODE_WORD } from '../ctype.js';
import { POSIX_CLASSES } from '../../../common/posix-classes.js';
import { Utf8RegExp } from '../utf8-regexp.js';
import { decode, seqLen } from '../utf8.js';

export type Syntax = 'bre' | 'ere';

export interface TranslateOptions {
  /** Translate for a UTF-8 locale (a `v`-flag RegExp over decoded text). */
  utf8?: boolean;
  /**
   * UTF-8: a range may have non-ASCII ends, in code point order (gawk). GNU
   * grep and sed on glibc's C.UTF-8 reject those as collation errors.
   */
  codePointRanges?: boolean;
  /**
   * C locale: ignore case by spelling both cases of each ASCII letter, for a
   * RegExp without the `i` flag (which would also fold latin1 bytes: É with é).
   * See needsAsciiFold. Back-references then compare exactly.
   */
  foldAscii?: boolean;
}

/** C locale, ignoring case: the pattern has bytes JS's `i` flag would fold (À–Þ with à–þ). */
export const needsAsciiFold = (pattern: string): boolean => /[\xc0-\xd6\xd8-\xde\xe0-\xf6\xf8-\xfe]/.test(pattern);

const isLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);
const otherCase = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** The ASCII letters of the byte range a–b in the other case, as class ranges. */
function foldedRange(a: number, b: number): string {
  let out = '';
  for (const [lo, hi, shift] of [[0x41, 0x5a, 0x20], [0x61, 0x7a, -0x20]]) {
    const [x, y] = [Math.max(a, lo), Math.min(b, hi)];
    if (x <= y) out += `${String.fromCharCode(x + shift)}-${String.fromCharCode(y + shift)}`;
  }
  return out;
}

/** A pattern GNU grep rejects; the message is GNU's (printed as `grep: MSG`). */
export class RegexError extends Error {}

export interface Translated {
  /** JS source of the whole pattern. */
  source: string;
  /** Its top-level alternatives, each a full source (for leftmost-longest at one position). */
  branches: string[];
  /**
   * UTF-8: the same pattern for a plain RegExp over ASCII subjects (the byte
   * translation with each multibyte character one atom), which runs faster
   * there than the `v` source and matches the same.
   */
  ascii?: { source: string; branches: string[] };
  /** Capturing groups it opens (the next pattern's group numbers start after them). */
  groups: number;
  /** GNU's `grep: warning: ...` texts. */
  warnings: string[];
}

const MAX_REPEAT = 32767;

/** One char as a JS regex literal, safe inside and outside a class. */
export function lit(c: string): string {
  const code = c.charCodeAt(0);
  if (/[0-9A-Za-z_ ]/.test(c)) return c;
  if (code < 0x20 || code >= 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\${c}`;
}

/** One character (a code point of decoded text) as a `v`-flag literal, safe inside and outside a class. */
export function ulit(c: string): string {
  if (/^[0-9A-Za-z_ ]$/.test(c)) return c;
  return `\\u{${c.codePointAt(0)!.toString(16)}}`;
}

/** The escapes standing for invalid bytes: no `.` or negated class may match them. */
const ESCAPES = '\\u{dc80}-\\u{dcff}';
const UNICODE_NOT_WORD = `[^${UNICODE_WORD}${ESCAPES}]`;
const WORD_START = `(?<!${UNICODE_WORD})(?=${UNICODE_WORD})`;
const WORD_END = `(?<=${UNICODE_WORD})(?!${UNICODE_WORD})`;

/** `-w`'s wrapper: the match neither follows nor precedes a word constituent. */
export const wordBounded = (alt: string, utf8: boolean): string =>
  utf8 ? `(?<!${UNICODE_WORD})(?:${alt})(?!${UNICODE_WORD})` : `(?<!\\w)(?:${alt})(?!\\w)`;

/**
 * Replace a tool's own character escapes (sed's \t and \x41, awk's \/ and \101)
 * by the characters, before translate(). `decode` gets the index after the
 * backslash and returns the character and how many pattern characters it used,
 * or null to leave the escape to translate(). A decoded character special to
 * the translator (or listed in `quoted`) stays escaped so it matches itself.
 */
export function decodeEscapes(p: string, decode: (p: string, i: number) => [string, number] | null, quoted = ''): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c !== '\\' || i + 1 >= p.length) {
      out += c;
      continue;
    }
    const d = decode(p, i + 1);
    if (!d) {
      out += `\\${p[++i]}`;
      continue;
    }
    const [ch, used] = d;
    out += /[\\^$.*[\]+?(){}|]/.test(ch) || quoted.includes(ch) ? `\\${ch}` : ch;
    i += used;
  }
  return out;
}

/**
 * Escape a fixed string (-F); in UTF-8 (`utf8`), for a `v`-flag RegExp over
 * its decoding; `foldAscii` as in TranslateOptions.
 */
export function literal(s: string, utf8 = false, foldAscii = false): string {
  let out = '';
  if (utf8) for (const c of decode(s)) out += ulit(c);
  else for (const c of s) out += foldAscii && isLetter(c) ? `[${c}${otherCase(c)}]` : lit(c);
  return out;
}

interface Piece {
  /** JS source of the atom (already quantified, if any). */
  src: string;
  /** The atom can take a quantifier directly (not yet quantified, not an assertion). */
  bare: boolean;
}

/**
 * How the parser reads and emits: `bytes` (C locale), `utf8` (decoded, for a
 * `v` RegExp) or `ascii` (bytes, but a UTF-8 character is one atom).
 */
type Mode = 'bytes' | 'utf8' | 'ascii';

/** A multibyte character as a bytes-mode literal (its bytes in sequence). */
const blit = (c: string): string => (c.length === 1 ? lit(c) : [...c].map(lit).join(''));

class Parser {
  private i = 0;
  private opened = 0;
  private closed = new Set<number>();
  private depth = 0;
  readonly warnings: string[] = [];
  private readonly p: string;
  private readonly utf8: boolean;
  private readonly lit: (c: string) => string;

  constructor(
    pattern: string,
    private readonly ere: boolean,
    private readonly offset: number,
    private readonly mode: Mode,
    private readonly codePointRanges: boolean,
    private readonly foldAscii: boolean,
  ) {
    this.utf8 = mode === 'utf8';
    this.p = this.utf8 ? decode(pattern) : pattern;
    this.lit = this.utf8 ? ulit : blit;
  }

  get groups(): number {
    return this.opened;
  }

  parse(): string[] {
    const branches = this.alternation();
    if (this.i < this.p.length) {
      // Only an unmatched close can stop the top level.
      throw new RegexError('Unmatched ) or \\)');
    }
    return branches;
  }

  private peek(k = 0): string {
    return this.p[this.i + k] ?? '';
  }

  /** The character at the cursor, taken whole (a code point may be two units, a UTF-8 sequence four bytes). */
  private take(): string {
    const n = this.mode === 'utf8' ? (this.p.codePointAt(this.i)! > 0xffff ? 2 : 1) : this.mode === 'ascii' ? seqLen(this.p, this.i) || 1 : 1;
    const c = this.p.slice(this.i, this.i + n);
    this.i += n;
    return c;
  }

  /** A literal atom: a multibyte character in `ascii` mode is several atoms, so it is quantified as a group. */
  private atomOf(c: string): Piece {
    if (this.foldAscii && isLetter(c)) return { src: `[${c}${otherCase(c)}]`, bare: true };
    return { src: this.lit(c), bare: this.utf8 || c.length === 1 };
  }

  /** One character in a bracket. */
  private member(c: string): string {
    return this.foldAscii && isLetter(c) ? c + otherCase(c) : this.lit(c);
  }

  private atAlt(): boolean {
    return this.ere ? this.peek() === '|' : this.peek() === '\\' && this.peek(1) === '|';
  }

  private atClose(): boolean {
    if (this.depth === 0) return false;
    return this.ere ? this.peek() === ')' : this.peek() === '\\' && this.peek(1) === ')';
  }

  private alternation(): string[] {
    const branches = [this.branch()];
    while (this.atAlt()) {
      this.i += this.ere ? 1 : 2;
      branches.push(this.branch());
    }
    return branches;
  }

  private branch(): string {
    const pieces: Piece[] = [];
    let start = true; // at the start of an expression: `*` is literal (BRE) or ignored (ERE)
    while (this.i < this.p.length && !this.atAlt() && !this.atClose()) {
      const c = this.peek();
      if (this.quantifierHere()) {
        const q = this.quantifier();
        if (start || pieces.length === 0) {
          if (this.ere) {
            this.warn(q.name);
            continue;
          }
          // BRE: a leading `*` is literal; `\{` / `\+` / `\?` at the start likewise.
          pieces.push({ src: [...q.text].map(this.lit).join(''), bare: true });
          start = false;
          continue;
        }
        const last = pieces[pieces.length - 1];
        last.src = (last.bare ? last.src : `(?:${last.src})`) + q.js;
        last.bare = false;
        continue;
      }
      if (c === '^' && (this.ere || pieces.length === 0)) {
        this.i++;
        pieces.push({ src: '^', bare: false });
        continue; // still at the start: `^*` is a literal star in BRE
      }
      if (c === '$' && (this.ere || this.atBreEnd())) {
        this.i++;
        pieces.push({ src: '$', bare: false });
        start = false;
        continue;
      }
      pieces.push(this.atom());
      start = false;
    }
    return pieces.map((x) => x.src).join('');
  }

  /** BRE `$` is an anchor only at the end of the pattern or of a group / alternative. */
  private atBreEnd(): boolean {
    const rest = this.p.slice(this.i + 1);
    return rest === '' || rest.startsWith('\\)') || rest.startsWith('\\|');
  }

  private warn(name: string): void {
    const w = `${name} at start of expression`;
    if (!this.warnings.includes(w)) this.warnings.push(w);
  }

  private quantifierHere(): boolean {
    const c = this.peek();
    if (c === '*') return true;
    if (this.ere) {
      if (c === '+' || c === '?') return true;
      return c === '{' && this.intervalAt(this.i + 1) !== null;
    }
    if (c !== '\\') return false;
    const d = this.peek(1);
    return d === '+' || d === '?' || d === '{';
  }

  /** ERE: does a valid `{m,n}` start at `at`? (Otherwise `{` is literal, as in GNU.) */
  private intervalAt(at: number): { min: number; max: number; end: number } | null {
    const m = /^(\d*)(,?)(\d*)\}/.exec(this.p.slice(at));
    if (!m || (m[1] === '' && m[2] === '')) return null;
    if (m[1] === '' && m[3] === '' && m[2] === ',') return { min: 0, max: -1, end: at + m[0].length };
    return this.interval(m[1], m[2], m[3], at + m[0].length);
  }

  private interval(a: string, comma: string, b: string, end: number): { min: number; max: number; end: number } {
    const min = a === '' ? 0 : Number(a);
    const max = comma ? (b === '' ? -1 : Number(b)) : min;
    if (min > MAX_REPEAT || max > MAX_REPEAT) throw new RegexError('Regular expression too big');
    if (max !== -1 && max < min) throw new RegexError('Invalid content of \\{\\}');
    return { min, max, end };
  }

  private quantifier(): { js: string; name: string; text: string } {
    const from = this.i;
    let c = this.peek();
    if (!this.ere && c === '\\') {
      this.i++;
      c = this.peek();
    }
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return { js: c, name: c, text: this.p.slice(from, this.i).replace('\\', '') };
    }
    // An interval.
    let iv: { min: number; max: number; end: number };
    if (this.ere) {
      iv = this.intervalAt(this.i + 1)!;
    } else {
      const close = this.p.indexOf('\\}', this.i + 1);
      if (close < 0) throw new RegexError('Unmatched \\{');
      const m = /^(\d*)(,?)(\d*)$/.exec(this.p.slice(this.i + 1, close));
      if (!m || (m[1] === '' && m[2] === '')) throw new RegexError('Invalid content of \\{\\}');
      iv = this.interval(m[1], m[2], m[3], close + 2);
    }
    this.i = iv.end;
    const js = iv.max === -1 ? `{${iv.min},}` : iv.max === iv.min ? `{${iv.min}}` : `{${iv.min},${iv.max}}`;
    return { js, name: '{...}', text: this.p.slice(from, this.i) };
  }

  private atom(): Piece {
    const c = this.peek();
    if (c === '[') return { src: this.bracket(), bare: true };
    if (c === '.') {
      this.i++;
      return { src: this.utf8 ? `[^${ESCAPES}]` : '[^]', bare: true };
    }
    if (this.ere && c === '(') {
      this.i++;
      return this.group();
    }
    if (c === '\\') return this.escape();
    return this.atomOf(this.take());
  }

  private group(): Piece {
    const n = ++this.opened;
    this.depth++;
    const inner = this.alternation();
    this.depth--;
    const closes = this.ere ? this.peek() === ')' : this.peek() === '\\' && this.peek(1) === ')';
    if (!closes) throw new RegexError('Unmatched ( or \\(');
    this.i += this.ere ? 1 : 2;
    this.closed.add(n);
    return { src: `(${inner.join('|')})`, bare: true };
  }

  private escape(): Piece {
    const d = this.peek(1);
    if (d === '') throw new RegexError('Trailing backslash');
    this.i++;
    if (this.mode !== 'bytes' && d.charCodeAt(0) > 0x7f) return this.atomOf(this.take());
    this.i++;
    if (!this.ere && d === '(') return this.group();
    if (!this.ere && d === ')') throw new RegexError('Unmatched ) or \\)');
    if (!this.ere && d === '}') return { src: lit('}'), bare: true };
    if (d >= '1' && d <= '9') {
      const n = Number(d);
      if (!this.closed.has(n)) throw new RegexError('Invalid back reference');
      return { src: `(?:\\${n + this.offset})`, bare: true };
    }
    if (this.utf8) {
      switch (d) {
        case '<':
          return { src: WORD_START, bare: false };
        case '>':
          return { src: WORD_END, bare: false };
        case 'b':
          return { src: `(?:${WORD_START}|${WORD_END})`, bare: false };
        case 'B':
          return { src: `(?:(?<=${UNICODE_WORD})(?=${UNICODE_WORD})|(?<!${UNICODE_WORD})(?!${UNICODE_WORD}))`, bare: false };
        case 'w':
          return { src: UNICODE_WORD, bare: true };
        case 'W':
          return { src: UNICODE_NOT_WORD, bare: true };
        case 's':
          return { src: UNICODE_CLASSES.space, bare: true };
        case 'S':
          return { src: `[^${UNICODE_CLASSES.space}${ESCAPES}]`, bare: true };
      }
    }
    switch (d) {
      case '<':
        return { src: '\\b(?=\\w)', bare: false };
      case '>':
        return { src: '\\b(?<=\\w)', bare: false };
      case 'b':
        return { src: '\\b', bare: false };
      case 'B':
        return { src: '\\B', bare: false };
      case '`':
        return { src: '^', bare: false };
      case "'":
        return { src: '$', bare: false };
      case 'w':
      case 'W':
        return { src: `\\${d}`, bare: true };
      case 's':
        return { src: '[ \\t\\n\\r\\f\\v]', bare: true };
      case 'S':
        return { src: '[^ \\t\\n\\r\\f\\v]', bare: true };
      default:
        // `\.`, `\*`, `\[`, and GNU's "stray" escapes (`\d` is `d`) are literals.
        return this.atomOf(d);
    }
  }

  /** `[...]`: POSIX bracket expression → JS class (backslash is literal inside). */
  private bracket(): string {
    const open = this.i;
    this.i++;
    let neg = false;
    if (this.peek() === '^') {
      neg = true;
      this.i++;
    }
    const items: string[] = [];
    let first = true;
    const unmatched = () => new RegexError('Unmatched [, [^, [:, [., or [=');
    for (;;) {
      if (this.i >= this.p.length) throw unmatched();
      let c = this.peek();
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      // [:class:], [=c=], [.c.]
      if (c === '[' && (this.peek(1) === ':' || this.peek(1) === '=' || this.peek(1) === '.')) {
        const kind = this.peek(1);
        const end = this.p.indexOf(`${kind}]`, this.i + 2);
        if (end < 0) throw unmatched();
        const name = this.p.slice(this.i + 2, end);
        this.i = end + 2;
        if (kind === ':') {
          const cls = (this.utf8 ? UNICODE_CLASSES : POSIX_CLASSES)[this.foldAscii && (name === 'upper' || name === 'lower') ? 'alpha' : name];
          if (cls === undefined) throw new RegexError('Invalid character class name');
          items.push(cls);
          continue;
        }
        if (this.chars(name) !== 1) throw new RegexError('Invalid collation character');
        c = name;
      } else c = this.take();
      items.push(this.rangeFollows() ? this.range(c) : this.member(c));
    }
    const text = this.p.slice(open, this.i);
    if (/^\[:[a-z]+:\]$/.test(text)) throw new RegexError('character class syntax is [[:space:]], not [:space:]');
    // UTF-8: a negated bracket matches characters only, never an invalid byte.
    if (this.utf8 && neg) items.push(ESCAPES);
    if (items.length === 0) return neg ? '[^]' : '[]';
    return `[${neg ? '^' : ''}${items.join('')}]`;
  }

  /** Characters in a piece of the pattern (code points in UTF-8). */
  private chars(s: string): number {
    return this.mode === 'bytes' ? s.length : [...(this.utf8 ? s : decode(s))].length;
  }

  /** A `-` that makes a range (not a trailing `-]`). */
  private rangeFollows(): boolean {
    return this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '';
  }

  private range(from: string): string {
    this.i++; // '-'
    let to: string;
    if (this.peek() === '[' && (this.peek(1) === '.' || this.peek(1) === '=')) {
      const kind = this.peek(1);
      const end = this.p.indexOf(`${kind}]`, this.i + 2);
      if (end < 0) throw new RegexError('Unmatched [, [^, [:, [., or [=');
      to = this.p.slice(this.i + 2, end);
      this.i = end + 2;
      if (this.chars(to) !== 1) throw new RegexError('Invalid collation character');
    } else {
      to = this.take();
    }
    // In `ascii` mode the ends' first bytes order them as their code points do.
    const [a, b] = [from.codePointAt(0)!, to.codePointAt(0)!];
    // glibc's C.UTF-8 collates only ASCII in ranges; gawk takes code points.
    if (this.utf8 && !this.codePointRanges && (a > 0x7f || b > 0x7f)) throw new RegexError('Invalid collation character');
    if (b < a) throw new RegexError('Invalid range end');
    return `${this.lit(from)}-${this.lit(to)}${this.foldAscii ? foldedRange(a, b) : ''}`;
  }
}

/** Translate one pattern; its back-references are numbered after `groupOffset` earlier groups. */
export function translate(pattern: string, syntax: Syntax, groupOffset = 0, opts: TranslateOptions = {}): Translated {
  const ranges = !!opts.codePointRanges;
  const parser = new Parser(pattern, syntax === 'ere', groupOffset, opts.utf8 ? 'utf8' : 'bytes', ranges, !!opts.foldAscii);
  const branches = parser.parse();
  const t: Translated = { source: branches.join('|'), branches, groups: parser.groups, warnings: parser.warnings };
  if (opts.utf8) {
    const ascii = new Parser(pattern, syntax === 'ere', groupOffset, 'ascii', ranges, false).parse();
    t.ascii = { source: ascii.join('|'), branches: ascii };
  }
  return t;
}

/**
 * A RegExp for byte strings: in the C locale (`ascii` undefined) a plain one;
 * in UTF-8 a Utf8RegExp of the `v` source, running `ascii` on ASCII subjects.
 */
export function byteRegExp(source: string, ascii: string | undefined, flags: string): RegExp {
  return ascii === undefined ? new RegExp(source, flags) : new Utf8RegExp(source, ascii, flags);
}
