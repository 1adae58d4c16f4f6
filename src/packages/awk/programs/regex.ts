// awk EREs on top of grep's POSIX translator: awk's own escapes first (\n,
// \/, octal...), then the ERE → JS translation. Matches are leftmost and,
// across top-level alternatives, longest, as POSIX asks. In a UTF-8 locale
// they match characters, and ranges run in code point order (gawk's own).

import { byteRegExp, decodeEscapes, needsAsciiFold, RegexError, translate } from '../../../userland/lib/regex/regex.js';
import { isUtf8 } from './chars.js';

export { RegexError };

export interface Rx {
  /** Global, for scanning with lastIndex. */
  re: RegExp;
  /** Sticky per top-level branch when there are several (to pick the longest at a position). */
  branches: RegExp[] | null;
}

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '/': '/', '"': '"' };

/** awk's escapes: the ESC letters, up to three octal digits, \x and up to two hex digits. */
const awkEscapes = (p: string): string =>
  decodeEscapes(p, (q, i) => {
    if (q[i] in ESC) return [ESC[q[i]], 1];
    const oct = /^[0-7]{1,3}/.exec(q.slice(i, i + 3));
    if (oct) return [String.fromCharCode(parseInt(oct[0], 8) & 0xff), oct[0].length];
    const hex = q[i] === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(q.slice(i + 1, i + 3)) : null;
    return hex ? [String.fromCharCode(parseInt(hex[0], 16)), 1 + hex[0].length] : null;
  });

/**
 * gawk's `\y` (word boundary) is the translator's `\b`; awk's own `\b` is a
 * backspace, already decoded by awkEscapes.
 */
function wordBoundaries(p: string): string {
  if (!p.includes('\\y')) return p;
  return p.replace(/\\([^])/g, (all, c: string) => (c === 'y' ? '\\b' : all));
}

const cache = new Map<string, Rx>();
const icaseCache = new Map<string, Rx>();

/** `icase`: IGNORECASE (ASCII letters fold in the C locale, all letters in UTF-8, as in gawk). */
export function compile(src: string, icase = false): Rx {
  const c = icase ? icaseCache : cache;
  let rx = c.get(src);
  if (rx) return rx;
  const utf8 = isUtf8();
  // C locale: fold ASCII letters only (JS's `i` would also pair latin1 bytes such as É and é).
  const pattern = wordBoundaries(awkEscapes(src));
  const foldAscii = icase && !utf8 && needsAsciiFold(pattern);
  const t = translate(pattern, 'ere', 0, { utf8, codePointRanges: true, foldAscii });
  const flags = icase && !foldAscii ? 'i' : '';
  const re = byteRegExp(t.source, t.ascii?.source, `g${flags}`);
  const branches = t.branches.length > 1 ? t.branches.map((b, k) => byteRegExp(b, t.ascii?.branches[k], `y${flags}`)) : null;
  rx = { re, branches };
  if (c.size > 500) c.clear();
  c.set(src, rx);
  return rx;
}

/** First match at or after `from`: [start, length], or null. */
export function exec(rx: Rx, s: string, from = 0): [number, number] | null {
  rx.re.lastIndex = from;
  const m = rx.re.exec(s);
  if (!m) return null;
  let len = m[0].length;
  if (rx.branches) {
    for (const b of rx.branches) {
      b.lastIndex = m.index;
      const bm = b.exec(s);
      if (bm && bm[0].length > len) len = bm[0].length;
    }
  }
  return [m.index, len];
}

export function test(rx: Rx, s: string): boolean {
  rx.re.lastIndex = 0;
  return rx.re.test(s);
}
