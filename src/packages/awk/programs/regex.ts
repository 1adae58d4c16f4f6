// awk EREs on top of grep's POSIX translator: awk's own escapes first (\n,
// \/, octal...), then the ERE → JS translation. Matches are leftmost and,
// across top-level alternatives, longest, as POSIX asks.

import { decodeEscapes, RegexError, translate } from '../../grep/programs/regex.js';

export { RegexError };

export interface Rx {
  /** Global, for scanning with lastIndex. */
  re: RegExp;
  /** Sticky per top-level branch when there are several (to pick the longest at a position). */
  branches: RegExp[] | null;
}

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '/': '/', '"': '"' };

/** awk's escapes: the ESC letters and up to three octal digits. */
const awkEscapes = (p: string): string =>
  decodeEscapes(p, (q, i) => {
    if (q[i] in ESC) return [ESC[q[i]], 1];
    const oct = /^[0-7]{1,3}/.exec(q.slice(i, i + 3));
    return oct ? [String.fromCharCode(parseInt(oct[0], 8) & 0xff), oct[0].length] : null;
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

/** `icase`: IGNORECASE (ASCII letters fold, as in gawk's C locale). */
export function compile(src: string, icase = false): Rx {
  const c = icase ? icaseCache : cache;
  let rx = c.get(src);
  if (rx) return rx;
  const t = translate(wordBoundaries(awkEscapes(src)), 'ere');
  const flags = icase ? 'i' : '';
  const re = new RegExp(t.source, `g${flags}`);
  const branches = t.branches.length > 1 ? t.branches.map((b) => new RegExp(b, `y${flags}`)) : null;
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
