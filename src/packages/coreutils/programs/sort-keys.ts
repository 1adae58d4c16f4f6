// sort's key model: -k specs, field extraction and the per-key comparisons
// (-h, -g, -M, -f, -d, -b; -n's are in sort-prep.ts), after GNU sort's documented semantics.

import { isBlank } from './text.js';
import { quote } from '../../../userland/lib/index.js';

export interface KeyOpts {
  b: boolean; // skip leading blanks at the key start
  bEnd: boolean; // ... and at the key end
  d: boolean;
  f: boolean;
  i: boolean;
  n: boolean;
  g: boolean;
  h: boolean;
  V: boolean;
  M: boolean;
  r: boolean;
}

export interface Key extends KeyOpts {
  sf: number; // start field (0-based)
  sc: number; // start char (0-based)
  ef: number; // end field (0-based), -1: end of line
  ec: number; // end char (1-based within field), 0: end of field
}

export const noOpts = (): KeyOpts => ({ b: false, bEnd: false, d: false, f: false, i: false, n: false, g: false, h: false, V: false, M: false, r: false });

export const hasOpts = (k: KeyOpts): boolean => k.b || k.bEnd || k.d || k.f || k.i || k.n || k.g || k.h || k.V || k.M || k.r;

/** Apply option letters; returns false on an unknown letter. */
export function setOpt(o: KeyOpts, ch: string, end = false): boolean {
  if (ch === 'b') {
    if (end) o.bEnd = true;
    else o.b = true;
  } else if ('dfinghVMr'.includes(ch)) o[ch as 'd'] = true;
  else return false;
  return true;
}

/** Parse POS1[,POS2]; returns an error message or the key. */
export function parseKey(spec: string): Key | string {
  const m = /^(\d+)(?:\.(\d+))?([A-Za-z]*)(?:,(\d+)(?:\.(\d+))?([A-Za-z]*))?$/.exec(spec);
  const bad = `invalid number at field start: invalid count at start of ${quote(spec)}`;
  if (!m) return /^\d/.test(spec) ? `stray character in field spec: invalid field specification ${quote(spec)}` : bad;
  const k: Key = { ...noOpts(), sf: Number(m[1]) - 1, sc: m[2] === undefined ? 0 : Number(m[2]) - 1, ef: -1, ec: 0 };
  if (k.sf < 0) return `field number is zero: invalid field specification ${quote(spec)}`;
  if (k.sc < 0) return `character offset is zero: invalid field specification ${quote(spec)}`;
  for (const ch of m[3]) if (!setOpt(k, ch)) return `stray character in field spec: invalid field specification ${quote(spec)}`;
  if (m[4] !== undefined) {
    k.ef = Number(m[4]) - 1;
    if (k.ef < 0) return `field number is zero: invalid field specification ${quote(spec)}`;
    k.ec = m[5] === undefined ? 0 : Number(m[5]);
    for (const ch of m[6]) if (!setOpt(k, ch, true)) return `stray character in field spec: invalid field specification ${quote(spec)}`;
  }
  return k;
}

/** Start offsets of each field: with a tab char, split on it; else a field is leading blanks + non-blanks. */
function fieldStart(line: string, tab: string | null, field: number): number {
  let p = 0;
  for (let f = 0; f < field && p < line.length; f++) {
    if (tab !== null) {
      const i = line.indexOf(tab, p);
      if (i < 0) return line.length;
      p = i + 1;
    } else {
      while (p < line.length && isBlank(line[p])) p++;
      while (p < line.length && !isBlank(line[p])) p++;
    }
  }
  return p;
}

function fieldEnd(line: string, tab: string | null, start: number): number {
  if (tab !== null) {
    const i = line.indexOf(tab, start);
    return i < 0 ? line.length : i;
  }
  let p = start;
  while (p < line.length && isBlank(line[p])) p++;
  while (p < line.length && !isBlank(line[p])) p++;
  return p;
}

export function extract(line: string, k: Key, tab: string | null): string {
  let s = fieldStart(line, tab, k.sf);
  const fEnd = fieldEnd(line, tab, s);
  if (k.b) while (s < fEnd && isBlank(line[s])) s++;
  s = Math.min(s + k.sc, line.length);
  let e = line.length;
  if (k.ef >= 0) {
    const es = fieldStart(line, tab, k.ef);
    if (k.ec === 0) e = fieldEnd(line, tab, es);
    else {
      let p = es;
      if (k.bEnd) while (p < line.length && isBlank(line[p])) p++;
      e = Math.min(p + k.ec, line.length);
    }
  }
  return e <= s ? '' : line.slice(s, e);
}

const SUFFIX = ' KMGTPEZYRQ';

export function humanCompare(a: string, b: string): number {
  const [sa, ma, va] = human(a);
  const [sb, mb, vb] = human(b);
  if (sa !== sb) return sa - sb;
  return sa * (ma - mb || va - vb);
}

function human(s: string): [number, number, number] {
  const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?([kKMGTPEZYRQ]?)/.exec(s)!;
  const v = Number(`${m[2] || '0'}.${m[3] || '0'}`);
  const sign = v === 0 ? 0 : m[1] ? -1 : 1;
  const mag = m[4] ? SUFFIX.indexOf(m[4].toUpperCase()) : 0;
  return [sign, mag, v];
}

export function generalCompare(a: string, b: string): number {
  const fa = parseFloat(a.trimStart());
  const fb = parseFloat(b.trimStart());
  const na = Number.isNaN(fa);
  const nb = Number.isNaN(fb);
  if (na || nb) return na && nb ? 0 : na ? -1 : 1;
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export function monthCompare(a: string, b: string): number {
  const m = (s: string) => MONTHS.indexOf(s.trimStart().slice(0, 3).toUpperCase()) + 1;
  return m(a) - m(b);
}

/** Bytes ignored by -d / -i, and -f folding; returns the transformed key. */
export function filter(s: string, k: KeyOpts): string {
  let out = s;
  if (k.d) out = out.replace(/[^A-Za-z0-9 \t]/g, '');
  if (k.i) out = out.replace(/[^\x20-\x7e]/g, '');
  if (k.f) out = out.replace(/[a-z]/g, (ch) => ch.toUpperCase());
  return out;
}

export const byteCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
