// Applying hunks to one file as GNU patch does: find where each hunk goes
// (at its line number, else at growing offsets either way, dropping up to
// the fuzz factor of context lines at each end), then copy the input up to
// it, leave out the removed lines and write the added ones. Context lines
// come from the input, so fuzzed lines keep the file's text.

import { pattern, prefixContext, suffixContext, type Hunk } from './pch.js';

export class Applier {
  /** Output so far, as byte strings. */
  private out: string[] = [];
  private afterNewline = true;
  /** Input lines already copied or removed (1-based count). */
  private lastFrozen = 0;
  /** How far hunks have been found from their stated lines (cumulative, input side). */
  inOffset = 0;
  /** How far the output has moved from the input (for messages and rejects). */
  outOffset = 0;
  /** Nothing has been written (the file would be empty). */
  zeroOutput = true;

  constructor(
    private readonly input: string[],
    private readonly ignoreWhite: boolean,
  ) {}

  /** Where the hunk's first pattern line goes (1-based), or 0; moves inOffset like GNU's locate_hunk. */
  locate(h: Hunk, fuzz: number): number {
    const pat = pattern(h);
    const inputLines = this.input.length;
    const firstGuess = h.first + this.inOffset;
    const patLines = pat.length;
    const prefix = prefixContext(h);
    const suffix = suffixContext(h);
    const context = Math.max(prefix, suffix);
    let prefixFuzz = fuzz + prefix - context;
    const suffixFuzz = fuzz + suffix - context;
    const maxWhere = inputLines - (patLines - suffixFuzz) + 1;
    const minWhere = this.lastFrozen + 1;
    const maxPos = maxWhere - firstGuess;
    let maxNeg = firstGuess - minWhere;
    const maxOffset = Math.max(maxPos, maxNeg);
    if (!patLines) return firstGuess;
    if (firstGuess <= maxNeg) maxNeg = firstGuess - 1;
    if (prefixFuzz < 0 && h.first <= 1) {
      // Fewer lines of context before than after: it can only match at the start.
      if (suffixFuzz < 0 && (patLines !== inputLines || prefix < this.lastFrozen)) return 0;
      const offset = 1 - firstGuess;
      if (this.lastFrozen <= prefix && offset <= maxPos && this.matches(pat, firstGuess + offset, 0, suffixFuzz)) {
        this.inOffset += offset;
        return firstGuess + offset;
      }
      return 0;
    }
    if (prefixFuzz < 0) prefixFuzz = 0;
    if (suffixFuzz < 0) {
      // Fewer after than before: only at the end.
      const offset = firstGuess - (inputLines - patLines + 1);
      if (offset <= maxNeg && this.matches(pat, firstGuess - offset, prefixFuzz, 0)) {
        this.inOffset -= offset;
        return firstGuess - offset;
      }
      return 0;
    }
    const minOffset = maxPos < 0 ? firstGuess - maxWhere : maxNeg < 0 ? firstGuess - minWhere : 0;
    for (let offset = minOffset; offset <= maxOffset; offset++) {
      if (offset <= maxPos && this.matches(pat, firstGuess + offset, prefixFuzz, suffixFuzz)) {
        this.inOffset += offset;
        return firstGuess + offset;
      }
      if (offset <= maxNeg && this.matches(pat, firstGuess - offset, prefixFuzz, suffixFuzz)) {
        this.inOffset -= offset;
        return firstGuess - offset;
      }
    }
    return 0;
  }

  private matches(pat: { text: string }[], at: number, prefixFuzz: number, suffixFuzz: number): boolean {
    for (let p = prefixFuzz; p < pat.length - suffixFuzz; p++) {
      const line = this.input[at - 1 + p];
      if (line === undefined) return false;
      if (this.ignoreWhite ? !similar(line, pat[p].text) : line !== pat[p].text) return false;
    }
    return true;
  }

  /** Apply at `where`; false when the hunk would go before text already written. */
  apply(h: Hunk, where: number): boolean {
    const base = where - 1;
    let old = 1;
    for (const l of h.lines) {
      if (l.mark === ' ') {
        old++;
        continue;
      }
      if (!this.copyTill(base + old - 1)) return false;
      if (l.mark === '-') {
        this.lastFrozen++;
        old++;
      } else this.write(l.text);
    }
    this.outOffset += h.lines.filter((l) => l.mark !== '-').length - h.lines.filter((l) => l.mark !== '+').length;
    return true;
  }

  /** Copy the rest of the input; the output text. */
  finish(): string {
    this.copyTill(this.input.length);
    return this.out.join('');
  }

  private copyTill(last: number): boolean {
    if (this.lastFrozen > last) return false;
    // Past the end of the input there is nothing to copy (GNU reads empty lines there).
    while (this.lastFrozen < last) this.write(this.input[this.lastFrozen++] ?? '');
    return true;
  }

  private write(text: string): void {
    if (text === '') return;
    if (!this.afterNewline) this.out.push('\n');
    this.out.push(text);
    this.afterNewline = text.endsWith('\n');
    this.zeroOutput = false;
  }
}

const isBlank = (c: string): boolean => c === ' ' || c === '\t';

/** -l: lines equal when runs of blanks are equal in presence (GNU's similar()). */
function similar(a0: string, b0: string): boolean {
  let a = a0.replace(/\n$/, '');
  let b = b0.replace(/\n$/, '');
  for (;;) {
    if (b === '' || isBlank(b[0])) {
      b = b.replace(/^[ \t]+/, '');
      if (a !== '') {
        if (!isBlank(a[0])) return false;
        a = a.replace(/^[ \t]+/, '');
      }
      if (a === '' || b === '') return a.length === b.length;
    } else if (a === '' || a[0] !== b[0]) return false;
    else {
      a = a.slice(1);
      b = b.slice(1);
    }
  }
}

/** Split text into lines that keep their newline (the last may lack it). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}
