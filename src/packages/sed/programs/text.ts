// sed's regexes and text helpers. Everything is a "byte string" (one char per
// byte, latin1) so output is byte-exact; in a UTF-8 locale regexes, `y` and
// case conversions work on the characters those bytes spell.
// The BRE/ERE translation itself is grep's; sed adds its escapes (\n, \t...).

import { byteRegExp, decodeEscapes, needsAsciiFold, translate, type Syntax } from '../../../userland/lib/regex/regex.js';
import { hasEncodingError, lowerStr, seqLen, upperStr } from '../../../userland/lib/utf8.js';

export { RegexError } from '../../../userland/lib/regex/regex.js';
export { latin1 as bytesToStr, latin1Bytes as strToBytes } from '../../../userland/lib/bytes.js';
export { encode as utf8Bytes } from '../../../userland/lib/utf8.js';

/** A compiled sed regex: always global so `s///g` can walk with lastIndex. */
export interface Rx {
  re: RegExp;
  groups: number;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07' };

/** Replace sed's character escapes (\n, \xHH...) by the characters; `/` from \x2f stays escaped too. */
const sedEscapes = (p: string): string =>
  decodeEscapes(
    p,
    (q, i) => {
      if (q[i] in ESCAPES) return [ESCAPES[q[i]], 1];
      const hex = q[i] === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(q.slice(i + 1, i + 3)) : null;
      return hex ? [String.fromCharCode(parseInt(hex[0], 16)), 1 + hex[0].length] : null;
    },
    '/',
  );

/** Compile a sed regex (by characters when `utf8`); throws RegexError with GNU's message. */
export function compileRx(pattern: string, ere: boolean, icase: boolean, multiline: boolean, utf8: boolean): Rx {
  const p = sedEscapes(pattern);
  // A pattern holding bytes that are not UTF-8 (`s/\xce//`) matches bytes, also inside characters, as GNU sed's does.
  if (utf8 && hasEncodingError(p)) utf8 = false;
  const foldAscii = icase && !utf8 && needsAsciiFold(p);
  const t = translate(p, (ere ? 'ere' : 'bre') satisfies Syntax, 0, { utf8, foldAscii });
  const flags = `g${icase && !foldAscii ? 'i' : ''}${multiline ? 'm' : ''}`;
  return { re: byteRegExp(t.source, t.ascii?.source, flags), groups: t.groups };
}

/** The `l` command's unambiguous form of a pattern space, wrapped at `width` (0/1: no wrap). */
export function listing(ps: string, width: number): string {
  let out = '';
  let col = 0;
  for (const c of ps) {
    const code = c.charCodeAt(0);
    let o: string;
    if (c === '\\') o = '\\\\';
    else if (code >= 0x20 && code < 0x7f) o = c;
    else {
      const named: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' };
      o = c in named ? `\\${named[c]}` : `\\${code.toString(8).padStart(3, '0')}`;
    }
    if (width > 0 && col + o.length > width - 1) {
      out += '\\\n';
      col = 0;
    }
    out += o;
    col += o.length;
  }
  return `${out}$\n`;
}

/** One piece of an `s` replacement. */
export type Part = { lit: string } | { ref: number } | { cs: 'U' | 'L' | 'u' | 'l' | 'E' };

/** Parse the raw replacement text (delimiter escapes already removed). */
export function parseReplacement(r: string): { parts: Part[]; maxRef: number } {
  const parts: Part[] = [];
  let maxRef = 0;
  let lit = '';
  const flush = () => {
    if (lit) parts.push({ lit });
    lit = '';
  };
  for (let i = 0; i < r.length; i++) {
    const c = r[i];
    if (c === '&') {
      flush();
      parts.push({ ref: 0 });
      continue;
    }
    if (c !== '\\' || i + 1 >= r.length) {
      lit += c;
      continue;
    }
    const d = r[++i];
    if (d >= '0' && d <= '9') {
      flush();
      parts.push({ ref: Number(d) });
      maxRef = Math.max(maxRef, Number(d));
    } else if ('ULulE'.includes(d)) {
      flush();
      parts.push({ cs: d as 'U' });
    } else if (d in ESCAPES) lit += ESCAPES[d];
    else if (d === '\n') lit += '\n';
    else lit += d;
  }
  flush();
  return { parts, maxRef };
}

// The C locale's toupper/tolower touch ASCII only (JS would also map latin1
// letters); GNU sed converts through wide characters, and a byte above 0x7f,
// which the C locale cannot convert back, comes out as 0xff.
const HIGH = /[\x80-\xff]/g;
const upper = (s: string) => s.replace(/[a-z]+/g, (x) => x.toUpperCase()).replace(HIGH, '\xff');
const lower = (s: string) => s.replace(/[A-Z]+/g, (x) => x.toLowerCase()).replace(HIGH, '\xff');

/** Where the first byte that is not UTF-8 is (the length if none). */
function validPrefix(s: string): number {
  let i = 0;
  while (i < s.length) {
    const n = seqLen(s, i);
    if (n === 0) break;
    i += n;
  }
  return i;
}

/** Build the replacement for one match, applying GNU's case conversions (to characters when `utf8`). */
export function expand(parts: Part[], m: RegExpExecArray, utf8: boolean): string {
  let out = '';
  let mode: 'U' | 'L' | '' = '';
  let once: 'u' | 'l' | '' = '';
  const [up, low] = utf8 ? [upperStr, lowerStr] : [upper, lower];
  const add = (s: string) => {
    if (!s) return;
    // GNU stops converting a piece at its first invalid sequence: the rest is copied as it is.
    const k = utf8 && (mode || once) ? validPrefix(s) : s.length;
    const rest = s.slice(k);
    s = s.slice(0, k);
    let t = mode === 'U' ? up(s) : mode === 'L' ? low(s) : s;
    if (once && t) {
      const n = utf8 ? seqLen(t, 0) || 1 : 1;
      t = (once === 'u' ? up(t.slice(0, n)) : low(t.slice(0, n))) + t.slice(n);
    }
    if (once && (t || rest)) once = '';
    out += t + rest;
  };
  for (const p of parts) {
    if ('lit' in p) add(p.lit);
    else if ('ref' in p) add(m[p.ref] ?? '');
    else if (p.cs === 'u' || p.cs === 'l') once = p.cs;
    else if (p.cs === 'E') {
      mode = '';
      once = '';
    } else mode = p.cs;
  }
  return out;
}
