// gawk's other ways of splitting a record: FPAT (fields are what a regex
// matches) and FIELDWIDTHS (fixed widths, each maybe after a skip).

import { exec, type Rx } from './regex.js';

/**
 * Fields matching `rx`, left to right; `seps` (patsplit's fourth argument)
 * gets the text before each field and after the last. An empty match right
 * where the previous field ended is no field: the search moves on one
 * character, so `[^,]*` over `a,,b` gives a, "", b.
 */
export function fpatSplit(s: string, rx: Rx, out: string[], seps: string[] | null): void {
  if (s === '') return;
  let scan = 0;
  let found = false;
  while (scan < s.length) {
    const start = scan;
    let m = exec(rx, s, scan);
    if (out.length > 0 && m && m[0] === scan && m[1] === 0) {
      scan++;
      m = exec(rx, s, scan);
    }
    found = m !== null;
    if (m) {
      seps?.push(s.slice(start, m[0]));
      out.push(s.substr(m[0], m[1]));
      scan = m[0] + m[1];
    } else {
      seps?.push(s.slice(start));
      scan = s.length;
    }
  }
  if (found) seps?.push('');
}

export interface Width {
  skip: number;
  len: number;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** FIELDWIDTHS: `[skip:]width ...` with an optional last `*` (the rest); a string is gawk's error. */
export function parseWidths(spec: string): Width[] | string {
  const out: Width[] = [];
  let i = 0;
  const bad = () => `invalid FIELDWIDTHS value, for field ${out.length + 1}, near \`${spec.slice(i)}'`;
  // strtoul: the digits at `from` (0 and `from` itself when there are none).
  const strtoul = (from: number): [number, number] => {
    const m = /^\d+/.exec(spec.slice(from));
    return m ? [Number(m[0]), from + m[0].length] : [0, from];
  };
  for (;;) {
    while (isBlank(spec[i])) i++;
    if (spec[i] === '-') return bad();
    if (i >= spec.length) break;
    let skip = 0;
    let [n, end] = strtoul(i);
    if (spec[end] === ':' && n > 0) {
      skip = n;
      i = end + 1;
      if (spec[i] === '-' || isBlank(spec[i])) return bad();
      [n, end] = strtoul(i);
    }
    if ((end < spec.length && !isBlank(spec[end])) || !(n > 0)) {
      if (spec[i] !== '*') return bad();
      for (i++; isBlank(spec[i]); i++);
      if (i < spec.length) return "`*' must be the last designator in FIELDWIDTHS";
      out.push({ skip, len: Infinity });
      break;
    }
    out.push({ skip, len: n });
    i = end;
  }
  return out;
}

/** Fixed-width fields; a record that ends early ends the fields (the last may be short). */
export function widthSplit(s: string, widths: Width[], out: string[]): void {
  let scan = 0;
  for (const w of widths) {
    if (scan >= s.length) break;
    scan = Math.min(s.length, scan + w.skip);
    const len = Math.min(w.len, s.length - scan);
    out.push(s.substr(scan, len));
    scan += len;
  }
}
