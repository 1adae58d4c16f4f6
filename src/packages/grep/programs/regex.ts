// POSIX BRE/ERE (with the GNU extensions grep accepts) → JavaScript RegExp source.
//
// Patterns and input are "byte strings": one char per byte (latin1), so the
// translation is the C locale's: bracket classes are ASCII, `.` is one byte.
// Backslash escapes that JS would read differently are always re-spelled;
// every literal is emitted escaped; stacked quantifiers (`a**`, `a\{2\}\{3\}`)
// are wrapped because JS rejects or reinterprets them (`a*?` is lazy in JS).

export type Syntax = 'bre' | 'ere';

/** A pattern GNU grep rejects; the message is GNU's (printed as `grep: MSG`). */
export class RegexError extends Error {}

export interface Translated {
  /** JS source of the whole pattern. */
  source: string;
  /** Its top-level alternatives, each a full source (for leftmost-longest at one position). */
  branches: string[];
  /** Capturing groups it opens (the next pattern's group numbers start after them). */
  groups: number;
  /** GNU's `grep: warning: ...` texts. */
  warnings: string[];
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: '0-9A-Za-z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
};

const MAX_REPEAT = 32767;

/** One char as a JS regex literal, safe inside and outside a class. */
export function lit(c: string): string {
  const code = c.charCodeAt(0);
  if (/[0-9A-Za-z_ ]/.test(c)) return c;
  if (code < 0x20 || code >= 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\${c}`;
}

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

/** Escape a fixed string (-F). */
export function literal(s: string): string {
  let out = '';
  for (const c of s) out += lit(c);
  return out;
}

interface Piece {
  /** JS source of the atom (already quantified, if any). */
  src: string;
  /** The atom can take a quantifier directly (not yet quantified, not an assertion). */
  bare: boolean;
}

class Parser {
  private i = 0;
  private opened = 0;
  private closed = new Set<number>();
  private depth = 0;
  readonly warnings: string[] = [];

  constructor(
    private readonly p: string,
    private readonly ere: boolean,
    private readonly offset: number,
  ) {}

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
          pieces.push({ src: literal(q.text), bare: true });
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
      return { src: '[^]', bare: true };
    }
    if (this.ere && c === '(') {
      this.i++;
      return this.group();
    }
    if (c === '\\') return this.escape();
    this.i++;
    return { src: lit(c), bare: true };
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
    this.i += 2;
    if (!this.ere && d === '(') return this.group();
    if (!this.ere && d === ')') throw new RegexError('Unmatched ) or \\)');
    if (!this.ere && d === '}') return { src: lit('}'), bare: true };
    if (d >= '1' && d <= '9') {
      const n = Number(d);
      if (!this.closed.has(n)) throw new RegexError('Invalid back reference');
      return { src: `(?:\\${n + this.offset})`, bare: true };
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
        return { src: lit(d), bare: true };
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
          const cls = CLASSES[name];
          if (cls === undefined) throw new RegexError('Invalid character class name');
          items.push(cls);
          continue;
        }
        if (name.length !== 1) throw new RegexError('Invalid collation character');
        c = name;
        if (this.rangeFollows()) {
          items.push(this.range(c));
          continue;
        }
        items.push(lit(c));
        continue;
      }
      this.i++;
      if (this.rangeFollows()) {
        items.push(this.range(c));
        continue;
      }
      items.push(lit(c));
    }
    const text = this.p.slice(open, this.i);
    if (/^\[:[a-z]+:\]$/.test(text)) throw new RegexError('character class syntax is [[:space:]], not [:space:]');
    if (items.length === 0) return neg ? '[^]' : '[]';
    return `[${neg ? '^' : ''}${items.join('')}]`;
  }

  /** A `-` that makes a range (not a trailing `-]`). */
  private rangeFollows(): boolean {
    return this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '';
  }

  private range(from: string): string {
    this.i++; // '-'
    let to = this.peek();
    if (to === '[' && (this.peek(1) === '.' || this.peek(1) === '=')) {
      const kind = this.peek(1);
      const end = this.p.indexOf(`${kind}]`, this.i + 2);
      if (end < 0) throw new RegexError('Unmatched [, [^, [:, [., or [=');
      to = this.p.slice(this.i + 2, end);
      this.i = end + 2;
      if (to.length !== 1) throw new RegexError('Invalid collation character');
    } else {
      this.i++;
    }
    if (to.charCodeAt(0) < from.charCodeAt(0)) throw new RegexError('Invalid range end');
    return `${lit(from)}-${lit(to)}`;
  }
}

/** Translate one pattern; its back-references are numbered after `groupOffset` earlier groups. */
export function translate(pattern: string, syntax: Syntax, groupOffset = 0): Translated {
  const parser = new Parser(pattern, syntax === 'ere', groupOffset);
  const branches = parser.parse();
  return { source: branches.join('|'), branches, groups: parser.groups, warnings: parser.warnings };
}
