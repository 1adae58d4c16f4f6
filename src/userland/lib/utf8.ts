// Characters in a UTF-8 locale, for tools that keep their data as byte strings
// (one JS char per byte, latin1). A character is a valid UTF-8 sequence (as
// strict as glibc: no overlong forms, no surrogates, nothing above U+10FFFF);
// any other byte is an encoding error, one byte long, that each tool treats
// as GNU's does (counted, skipped or kept as it is, never replaced).
//
// For JS's own string machinery (RegExp with the `v` flag, case mapping) a
// byte string is decoded to UTF-16 with every invalid byte kept as the lone
// surrogate U+DC80 + (byte − 0x80) ("surrogateescape"), which no valid UTF-8
// can decode to, and encoded back exactly.

import { WIDTHS } from './wcwidth-table.js';

/** The lone surrogate standing for an invalid byte `b` (0x80–0xff) in decoded text. */
export const escapeOf = (b: number): number => 0xdc00 + b;

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** True when the byte string (or decoded text) is all ASCII: then bytes and characters coincide. */
export const isAsciiStr = (s: string): boolean => ASCII.test(s);

/**
 * Length of the valid UTF-8 sequence whose bytes are c0 c1 c2 c3 (a missing
 * byte may be NaN or undefined), or 0 when c0 starts none (an encoding error).
 */
export function utf8Len(c0: number, c1: number, c2: number, c3: number): number {
  if (c0 < 0x80) return 1;
  if (c0 < 0xc2 || c0 > 0xf4) return 0;
  if (c0 < 0xe0) return (c1 & 0xc0) === 0x80 ? 2 : 0;
  if (c0 < 0xf0) {
    const ok1 = c0 === 0xe0 ? c1 >= 0xa0 && c1 <= 0xbf : c0 === 0xed ? c1 >= 0x80 && c1 <= 0x9f : (c1 & 0xc0) === 0x80;
    return ok1 && (c2 & 0xc0) === 0x80 ? 3 : 0;
  }
  const ok1 = c0 === 0xf0 ? c1 >= 0x90 && c1 <= 0xbf : c0 === 0xf4 ? c1 >= 0x80 && c1 <= 0x8f : (c1 & 0xc0) === 0x80;
  return ok1 && (c2 & 0xc0) === 0x80 && (c3 & 0xc0) === 0x80 ? 4 : 0;
}

/** Length of the character at `i` of a byte string: 1–4, or 0 for an invalid byte. */
export const seqLen = (s: string, i: number): number =>
  utf8Len(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2), s.charCodeAt(i + 3));

/** Length of the character at `i` of a byte array: 1–4, or 0 for an invalid byte. */
export const seqLenIn = (b: Uint8Array, i: number): number => utf8Len(b[i], b[i + 1], b[i + 2], b[i + 3]);

/** The code point of the valid `n`-byte sequence at `i` of a byte string. */
export function codePointAt(s: string, i: number, n: number): number {
  const c = s.charCodeAt(i);
  if (n === 1) return c;
  if (n === 2) return ((c & 0x1f) << 6) | (s.charCodeAt(i + 1) & 0x3f);
  if (n === 3) return ((c & 0x0f) << 12) | ((s.charCodeAt(i + 1) & 0x3f) << 6) | (s.charCodeAt(i + 2) & 0x3f);
  return ((c & 0x07) << 18) | ((s.charCodeAt(i + 1) & 0x3f) << 12) | ((s.charCodeAt(i + 2) & 0x3f) << 6) | (s.charCodeAt(i + 3) & 0x3f);
}

/** A code point as the byte string of its UTF-8. */
export function charBytes(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  return String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
}

/** Whether a byte string holds a byte that is not part of valid UTF-8. */
export function hasEncodingError(s: string): boolean {
  if (isAsciiStr(s)) return false;
  for (let i = 0; i < s.length; ) {
    const n = seqLen(s, i);
    if (n === 0) return true;
    i += n;
  }
  return false;
}

/** Characters in a byte string, an invalid byte counting as one (gawk's length, expr length). */
export function charCount(s: string): number {
  if (isAsciiStr(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; n++) i += seqLen(s, i) || 1;
  return n;
}

/** Byte offset of character `k` (0-based; invalid bytes are characters), or s.length past the end. */
export function charOffset(s: string, k: number): number {
  if (isAsciiStr(s)) return Math.min(k, s.length);
  let i = 0;
  for (; k > 0 && i < s.length; k--) i += seqLen(s, i) || 1;
  return i;
}

/** Characters before byte offset `off` (0-based index of the character there). */
export function charIndex(s: string, off: number): number {
  if (off <= 0) return 0;
  let n = 0;
  for (let i = 0; i < off && i < s.length; n++) i += seqLen(s, i) || 1;
  return n;
}

/** The byte strings of a byte string's characters, an invalid byte on its own. */
export function splitChars(s: string): string[] {
  if (isAsciiStr(s)) return s.split('');
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    const n = seqLen(s, i) || 1;
    out.push(s.slice(i, i + n));
    i += n;
  }
  return out;
}

// ------------------------------------------------------------------ decoding

/** Code units to a string in chunks (a spread of millions would overflow the stack). */
function unitsToString(u: Uint16Array, n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 8192) out += String.fromCharCode.apply(null, u.subarray(i, Math.min(n, i + 8192)) as unknown as number[]);
  return out;
}

/** Decoded text and, for each code unit (and one past the end), its byte offset in the source. */
export interface Decoded {
  text: string;
  offsets: Int32Array;
}

/** Decode a byte string, invalid bytes as escapes (see escapeOf), keeping where each unit came from. */
export function decodeOffsets(s: string): Decoded {
  const n = s.length;
  const units = new Uint16Array(n);
  const offsets = new Int32Array(n + 1);
  let k = 0;
  for (let i = 0; i < n; ) {
    const len = seqLen(s, i);
    offsets[k] = i;
    if (len === 0) {
      units[k++] = escapeOf(s.charCodeAt(i));
      i++;
    } else if (len === 1) {
      units[k++] = s.charCodeAt(i++);
    } else {
      const cp = codePointAt(s, i, len);
      if (cp > 0xffff) {
        units[k++] = 0xd800 + ((cp - 0x10000) >> 10);
        offsets[k] = i;
        units[k++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      } else units[k++] = cp;
      i += len;
    }
  }
  offsets[k] = n;
  return { text: unitsToString(units, k), offsets: offsets.subarray(0, k + 1) };
}

/** Decode a byte string to UTF-16 text, invalid bytes as escapes. */
export function decode(s: string): string {
  return isAsciiStr(s) ? s : decodeOffsets(s).text;
}

/** Encode decoded text (escapes back to their bytes) as a byte string. */
export function encode(t: string): string {
  if (isAsciiStr(t)) return t;
  const out = new Uint16Array(t.length * 3);
  let k = 0;
  for (let i = 0; i < t.length; i++) {
    let c = t.charCodeAt(i);
    if (c < 0x80) {
      out[k++] = c;
      continue;
    }
    if (c >= 0xdc80 && c <= 0xdcff) {
      out[k++] = c - 0xdc00; // an escaped invalid byte (a pair's low half never follows on its own)
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
      const d = t.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x800) {
      out[k++] = 0xc0 | (c >> 6);
    } else if (c < 0x10000) {
      out[k++] = 0xe0 | (c >> 12);
      out[k++] = 0x80 | ((c >> 6) & 0x3f);
    } else {
      out[k++] = 0xf0 | (c >> 18);
      out[k++] = 0x80 | ((c >> 12) & 0x3f);
      out[k++] = 0x80 | ((c >> 6) & 0x3f);
    }
    out[k++] = 0x80 | (c & 0x3f);
  }
  return unitsToString(out, k);
}

// ------------------------------------------------------------------ case

// glibc maps these by Unicode's simple case mappings where JS's full mapping
// gives several characters (ᾀ → ᾈ, İ → i); others with no simple mapping
// (ß) stay as they are.
const UPPER_EXTRA = new Map<number, number>([
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
for (const base of [0x1f80, 0x1f90, 0x1fa0]) for (let c = base; c < base + 8; c++) UPPER_EXTRA.set(c, c + 8);
const LOWER_EXTRA = new Map<number, number>([[0x130, 0x69]]);

function mapped(cp: number, to: string, extra: Map<number, number>): number {
  const x = extra.get(cp);
  if (x !== undefined) return x;
  const m = to.codePointAt(0)!;
  return to.length === (m > 0xffff ? 2 : 1) ? m : cp;
}

const upperCache = new Map<number, number>();
const lowerCache = new Map<number, number>();

/** towupper: the code point's simple uppercase mapping (itself if none). */
export function upperCp(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp;
  let r = upperCache.get(cp);
  if (r === undefined) upperCache.set(cp, (r = mapped(cp, String.fromCodePoint(cp).toUpperCase(), UPPER_EXTRA)));
  return r;
}

/** towlower: the code point's simple lowercase mapping (itself if none). */
export function lowerCp(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp;
  let r = lowerCache.get(cp);
  if (r === undefined) lowerCache.set(cp, (r = mapped(cp, String.fromCodePoint(cp).toLowerCase(), LOWER_EXTRA)));
  return r;
}

function mapCase(s: string, ascii: RegExp, asciiMap: (x: string) => string, map: (cp: number) => number): string {
  if (isAsciiStr(s)) return s.replace(ascii, asciiMap);
  let out = '';
  for (let i = 0; i < s.length; ) {
    const n = seqLen(s, i);
    if (n <= 1) {
      const c = s[i++];
      out += n === 1 ? c.replace(ascii, asciiMap) : c;
      continue;
    }
    out += charBytes(map(codePointAt(s, i, n)));
    i += n;
  }
  return out;
}

const toUpperAscii = (x: string) => x.toUpperCase();
const toLowerAscii = (x: string) => x.toLowerCase();

/** A byte string with every character mapped by towupper (invalid bytes kept). */
export const upperStr = (s: string): string => mapCase(s, /[a-z]+/g, toUpperAscii, upperCp);

/** A byte string with every character mapped by towlower (invalid bytes kept). */
export const lowerStr = (s: string): string => mapCase(s, /[A-Z]+/g, toLowerAscii, lowerCp);

// ------------------------------------------------------------------ width

const UNASSIGNED = /^[\p{Cn}\p{Cs}]$/u;

/**
 * wcwidth: columns a code point takes on a terminal (glibc's table): 0 for
 * combining and format characters, 2 for East Asian wide and fullwidth, -1
 * for controls and unassigned code points, 1 otherwise.
 */
export function wcwidth(cp: number): number {
  if (cp < 0x7f) return cp >= 0x20 ? 1 : cp === 0 ? 0 : -1;
  if (cp < 0xa0) return -1;
  if (cp < 0x300) return 1;
  let lo = 0;
  let hi = WIDTHS.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDTHS[mid * 3]) hi = mid - 1;
    else if (cp > WIDTHS[mid * 3 + 1]) lo = mid + 1;
    else return WIDTHS[mid * 3 + 2];
  }
  // Line and paragraph separators are not printable in glibc.
  return cp === 0x2028 || cp === 0x2029 || UNASSIGNED.test(String.fromCodePoint(cp)) ? -1 : 1;
}

/**
 * Columns a byte string takes: the sum of its characters' widths, where a
 * character of width −1 (control, unassigned) counts `unprintable` and an
 * invalid byte counts `invalid` (each tool decides: ls counts both as 1).
 */
export function strWidth(s: string, invalid: number, unprintable: number): number {
  let w = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      w += c >= 0x20 && c < 0x7f ? 1 : unprintable;
      i++;
      continue;
    }
    const n = seqLen(s, i);
    if (n === 0) {
      w += invalid;
      i++;
      continue;
    }
    const cw = wcwidth(codePointAt(s, i, n));
    w += cw < 0 ? unprintable : cw;
    i += n;
  }
  return w;
}
