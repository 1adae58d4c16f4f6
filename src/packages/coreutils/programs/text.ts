// Byte-exact text helpers for the text-processing applets: input bytes become
// latin1 strings (one char per byte) so JS string order is C-locale byte order,
// and go back out unchanged.

import { chunks, forEachInput, latin1, latin1Bytes, type Cmd, type OpenStyle } from '../../../userland/lib/index.js';

export const str = latin1;
export const bin = latin1Bytes;

/** Write a latin1 string byte for byte (Writer.write(string) would UTF-8 encode it). */
export function put(c: Cmd, s: string): void {
  c.out.write(bin(s));
}

/** Every input operand (or stdin) read whole, each as a latin1 string. */
export function readInputs(c: Cmd, names: string[], style: OpenStyle = 'plain'): string[] {
  const out: string[] = [];
  forEachInput(c, names, (fd) => {
    const parts: string[] = [];
    for (const b of chunks(c.sys, fd)) parts.push(str(b));
    out.push(parts.join(''));
  }, style);
  return out;
}

/** Split into records without their terminators; a final unterminated record is kept. */
export function records(s: string, delim = '\n'): string[] {
  if (s === '') return [];
  const r = s.split(delim);
  if (s.endsWith(delim)) r.pop();
  return r;
}

/** C-locale isblank / isspace. */
export const isBlank = (ch: string): boolean => ch === ' ' || ch === '\t';
export const isSpace = (ch: string): boolean => ch === ' ' || (ch >= '\t' && ch <= '\r');

/** Parse a non-negative decimal count the way GNU's xstrtoumax does for simple cases. */
export function count(s: string): number | null {
  return /^\+?\d+$/.test(s) ? Number(s.replace('+', '')) : null;
}
