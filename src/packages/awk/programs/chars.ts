// awk's strings are byte strings; these are the places gawk sees characters.
// In the C locale a character is a byte. In a UTF-8 locale length, substr,
// index, match's RSTART/RLENGTH, toupper/tolower, split(s, a, "") and printf's
// %c, and %s with a width or precision count characters, each as gawk does it:
// an invalid byte is one character (U+FFFD where gawk converts to wide
// characters: toupper/tolower), and the first one met by those conversions
// draws gawk's one-time warning about invalid multibyte data.

import { charBytes, charCount, charIndex, charOffset, codePointAt, hasEncodingError, isAsciiStr, lowerCp, seqLen, splitChars, upperCp } from '../../../userland/lib/utf8.js';

/** U+FFFD, as bytes: what gawk's wide-character conversions make of an invalid byte. */
const REPLACEMENT = '\xef\xbf\xbd';

let utf8 = false;
let warn: () => void = () => {};
let warned = false;

/** Choose characters (UTF-8) or bytes; `onInvalid` prints gawk's warning (called once). */
export function setCharacters(on: boolean, onInvalid: () => void): void {
  utf8 = on;
  warn = onInvalid;
}

/** Whether characters are UTF-8 (regexes match characters too). */
export const isUtf8 = (): boolean => utf8;

/** UTF-8 data with an invalid byte, as a conversion to wide characters meets it: warn once. */
function check(s: string): void {
  if (!warned && hasEncodingError(s)) {
    warned = true;
    warn();
  }
}

const bytes = (s: string): boolean => !utf8 || isAsciiStr(s);

export function length(s: string): number {
  if (bytes(s)) return s.length;
  check(s);
  return charCount(s);
}

/** substr: gawk truncates a fractional start and length; a start below 1 counts from 1 without shortening the length. */
export function substr(s: string, m: number, n: number | undefined): string {
  if (Number.isNaN(m)) return '';
  let len = n === undefined ? Infinity : n;
  if (Number.isNaN(len)) return '';
  const start = m < 1 ? 1 : Math.trunc(m);
  if (len !== Infinity) len = Math.trunc(len);
  if (!(len > 0)) return '';
  if (bytes(s)) {
    const from = start - 1;
    if (from >= s.length) return '';
    return len === Infinity ? s.slice(from) : s.slice(from, from + len);
  }
  check(s);
  const from = charOffset(s, start - 1);
  if (from >= s.length) return '';
  // gawk cuts the wide-character copy: an invalid byte comes out as U+FFFD.
  return replaceInvalid(len === Infinity ? s.slice(from) : s.slice(from, from + charOffset(s.slice(from), len)));
}

function replaceInvalid(s: string): string {
  if (!hasEncodingError(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; ) {
    const n = seqLen(s, i);
    out += n === 0 ? REPLACEMENT : s.slice(i, i + n);
    i += n || 1;
  }
  return out;
}

/** index: where `t` first occurs in `s`, from 1 (0: nowhere), at a character boundary. */
export function index(s: string, t: string): number {
  if (bytes(s) && bytes(t)) return s.indexOf(t) + 1;
  check(s);
  check(t);
  for (let i = 0, k = 0; i <= s.length; k++) {
    if (s.startsWith(t, i)) return k + 1;
    if (i === s.length) break;
    i += seqLen(s, i) || 1;
  }
  return 0;
}

/** A match at byte `at`, `len` bytes long, as match()'s RSTART (from 1) and RLENGTH in characters. */
export function matchSpan(s: string, at: number, len: number): [number, number] {
  if (bytes(s)) return [at + 1, len];
  check(s);
  return [charIndex(s, at) + 1, charCount(s.slice(at, at + len))];
}

function mapCase(s: string, ascii: (x: string) => string, map: (cp: number) => number): string {
  if (bytes(s)) return ascii(s);
  check(s);
  let out = '';
  for (let i = 0; i < s.length; ) {
    const n = seqLen(s, i);
    if (n === 0) {
      out += REPLACEMENT;
      i++;
    } else {
      out += n === 1 ? ascii(s[i]) : charBytes(map(codePointAt(s, i, n)));
      i += n;
    }
  }
  return out;
}

export const toupper = (s: string): string => mapCase(s, (x) => x.replace(/[a-z]+/g, (c) => c.toUpperCase()), upperCp);
export const tolower = (s: string): string => mapCase(s, (x) => x.replace(/[A-Z]+/g, (c) => c.toLowerCase()), lowerCp);

/** The pieces of split(s, a, "") and of FS = "": characters (an invalid byte alone). */
export const chars = (s: string): string[] => (bytes(s) ? s.split('') : splitChars(s));

/** Whether %s with a width or precision must count characters instead of bytes. */
export const countsChars = (s: string): boolean => !bytes(s);

/** printf %c of a number: in UTF-8 the character with that code (a byte if it has none). */
export function codeChar(v: number): string {
  const n = Math.trunc(v);
  if (utf8 && n >= 0x80 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff)) return charBytes(n);
  return String.fromCharCode(n & 0xff);
}

/** printf %c of a string: its first character (in UTF-8 a whole valid sequence, else one byte). */
export function firstChar(s: string): string {
  return s.slice(0, bytes(s) ? 1 : seqLen(s, 0) || 1);
}

/**
 * gawk's count for %s with a width or precision: characters up to the first
 * invalid (or NUL) byte, or every byte when the string starts with one.
 */
export function fieldChars(s: string): number {
  if (bytes(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length && s[i] !== '\0'; n++) {
    const k = seqLen(s, i);
    if (k === 0) return n === 0 ? s.length : n;
    i += k;
  }
  return n === 0 ? s.length : n;
}

/** The bytes of the first `n` characters as fieldChars counts them. */
export function fieldBytes(s: string, n: number): number {
  if (bytes(s)) return n;
  if ((seqLen(s, 0) || 0) === 0 || s[0] === '\0') return n;
  let i = 0;
  for (; n > 0 && i < s.length && s[i] !== '\0'; n--) {
    const k = seqLen(s, i);
    if (k === 0) break;
    i += k;
  }
  return i;
}
