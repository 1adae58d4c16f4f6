// Character-level reading of the source: offsets to line/column, line
// continuations, and raising bash-worded errors at the right line.
import { msg, ParseError } from './errors.js';

export interface Loc {
  line: number;
  col: number;
}

export class Scanner {
  readonly src: string;
  i = 0;
  /** Line of the first character of `src` (sub-scanners over here-doc bodies and backquotes start later). */
  readonly baseLine: number;
  private readonly lineStarts: number[];
  /** Top-level source, for the `context` line of errors (sub-scanners point at their parent's). */
  readonly fullSrc: string;

  constructor(src: string, baseLine = 1, fullSrc?: string) {
    this.src = src;
    this.baseLine = baseLine;
    this.fullSrc = fullSrc ?? src;
    this.lineStarts = [0];
    for (let k = src.indexOf('\n'); k >= 0; k = src.indexOf('\n', k + 1)) this.lineStarts.push(k + 1);
  }

  loc(at: number = this.i): Loc {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.baseLine + lo, col: at - starts[lo] + 1 };
  }

  /** The line bash blames for "unexpected end of file": one past the last newline, as with `bash -c`. */
  eofLine(): number {
    const s = this.fullSrc;
    let n = 0;
    for (let k = s.indexOf('\n'); k >= 0; k = s.indexOf('\n', k + 1)) n++;
    return n + (s.endsWith('\n') ? 1 : 2);
  }

  /** Skips `\<newline>` pairs at the cursor: they vanish everywhere outside single quotes. */
  skipCont(): void {
    while (this.src.charCodeAt(this.i) === 92 && this.src.charCodeAt(this.i + 1) === 10) this.i += 2;
  }

  /** The current character after any line continuations ('' at the end). */
  ch(): string {
    this.skipCont();
    return this.src[this.i] ?? '';
  }

  /** The character `k` positions ahead, raw (no continuation skipping). */
  at(k: number): string {
    return this.src[this.i + k] ?? '';
  }

  eof(): boolean {
    this.skipCont();
    return this.i >= this.src.length;
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  contextLine(line: number): string {
    const lines = this.fullSrc.split('\n');
    return lines[line - 1] ?? '';
  }

  /** `syntax error near unexpected token`; bash echoes the offending line too. */
  errToken(tok: string, at: number): never {
    const { line, col } = this.loc(at);
    throw new ParseError(msg.unexpectedToken(tok), line, col, false, this.contextLine(line));
  }

  errEOF(): never {
    throw new ParseError(msg.unexpectedEOF(), this.eofLine(), 0, true);
  }

  /** Unterminated quote-like construct opened at `openAt`; bash blames the opening line. */
  errMatching(close: string, openAt: number, blameEOF = false): never {
    const { line, col } = this.loc(openAt);
    throw new ParseError(msg.matching(close), blameEOF ? this.eofLine() : line, col, true);
  }

  /** `=~ (` with no `)` before EOF: bash reports the open paren, then the missing operand. */
  errRegexEOF(openAt: number): never {
    const preceding = { message: msg.matching(')'), line: this.loc(openAt).line };
    throw new ParseError(msg.condArgBinaryEOF(), this.eofLine(), 0, true, null, preceding);
  }

  errAt(message: string, at: number, incomplete = false): never {
    const { line, col } = this.loc(at);
    throw new ParseError(message, line, col, incomplete);
  }
}
