// bc's tokens. Newlines are tokens (they end statements); a newline token
// carries the line number after it, as GNU bc's scanner has already counted
// it when the parser sees it. Comments are /* */ and # (GNU).

/** A token: its kind, text, and the line (for a newline, the next line). */
export type Tok =
  | { t: 'num'; v: string; line: number }
  | { t: 'str'; v: string; line: number }
  | { t: 'name'; v: string; line: number }
  | { t: 'kw'; v: string; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'nl'; line: number }
  | { t: 'eof'; line: number };

/** A diagnostic from the scanner: "illegal character", or one without a line (EOF in a comment). */
export class LexError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

const KEYWORDS = new Set([
  'auto', 'break', 'continue', 'define', 'else', 'for', 'halt', 'ibase', 'if', 'last', 'length', 'limits', 'obase',
  'print', 'quit', 'read', 'return', 'scale', 'sqrt', 'void', 'warranty', 'while',
]);

const OPS = ['++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '==', '<=', '>=', '!=', '&&', '||'];

export class Lexer {
  constructor(
    private readonly src: string,
    /** Where scanning is (an offset in src) and its line. */
    public i = 0,
    public line = 1,
  ) {}

  next(): Tok {
    const s = this.src;
    for (;;) {
      const c = s[this.i];
      if (c === undefined) return { t: 'eof', line: this.line };
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.i++;
      } else if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        this.line++;
      } else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else if (c === '/' && s[this.i + 1] === '*') {
        const end = s.indexOf('*/', this.i + 2);
        if (end < 0) throw new LexError('EOF encountered in a comment.', null);
        for (let k = this.i; k < end; k++) if (s[k] === '\n') this.line++;
        this.i = end + 2;
      } else break;
    }
    const line = this.line;
    const c = s[this.i];
    if (c === '\n') {
      this.i++;
      this.line++;
      return { t: 'nl', line: this.line };
    }
    if (c === '"') {
      const end = s.indexOf('"', this.i + 1);
      if (end < 0) {
        this.i = s.length;
        throw new LexError('illegal character: "', line);
      }
      const v = s.slice(this.i + 1, end);
      for (const ch of v) if (ch === '\n') this.line++;
      this.i = end + 1;
      return { t: 'str', v, line };
    }
    if (/[0-9A-Z]/.test(c) || (c === '.' && /[0-9A-Z]/.test(s[this.i + 1] ?? ''))) {
      // Digits, with backslash-newline continuations dropped.
      let v = '';
      let dot = false;
      for (;;) {
        const d = s[this.i];
        if (d === '\\' && s[this.i + 1] === '\n') {
          this.i += 2;
          this.line++;
        } else if (d !== undefined && /[0-9A-Z]/.test(d)) {
          v += d;
          this.i++;
        } else if (d === '.' && !dot) {
          v += d;
          dot = true;
          this.i++;
        } else break;
      }
      return { t: 'num', v, line };
    }
    if (/[a-z]/.test(c)) {
      let j = this.i;
      while (j < s.length && /[a-z0-9_]/.test(s[j])) j++;
      const v = s.slice(this.i, j);
      this.i = j;
      return KEYWORDS.has(v) ? { t: 'kw', v, line } : { t: 'name', v, line };
    }
    const two = s.slice(this.i, this.i + 2);
    if (OPS.includes(two)) {
      this.i += 2;
      return { t: 'op', v: two, line };
    }
    if ('+-*/%^=<>!(){}[],;.'.includes(c)) {
      this.i++;
      // A lone "." is `last` (GNU).
      return c === '.' ? { t: 'kw', v: 'last', line } : { t: 'op', v: c, line };
    }
    this.i++;
    throw new LexError(`illegal character: ${c}`, line);
  }
}
