// sort's keys computed once per line instead of once per comparison: a sort of
// n lines compares each line ~log2(n) times, so extracting fields, filtering
// and parsing numbers inside the comparator costs ~20× what it needs to.
// Lines are then sorted by index with comparators over the prepared keys.

import { byteCompare, extract, filter, generalCompare, humanCompare, monthCompare, type Key, type KeyOpts } from './sort-keys.js';
import { versionCompare } from './version.js';

export interface SortPlan {
  keys: Key[];
  global: KeyOpts;
  tab: string | null;
  stable: boolean;
  unique: boolean;
}

/** One key's prepared values: the compared text and, for -n, its value as a double. */
interface Prepared {
  opts: KeyOpts;
  text: string[];
  num: Float64Array | null;
  /** -n: 1 when the double holds the number exactly enough to order it (≤ 15 digits). */
  exact: Uint8Array | null;
  cmp: (a: string, b: string) => number;
}

/** Index comparators over prepared lines: `keys` for -u's equality, `full` adds the last resort. */
export interface Comparators {
  keys: (a: number, b: number) => number;
  full: (a: number, b: number) => number;
}

const stripBlanks = (s: string): string => s.replace(/^[ \t]+/, '');

function textCompare(o: KeyOpts): (a: string, b: string) => number {
  if (o.h) return humanCompare;
  if (o.g) return generalCompare;
  if (o.M) return monthCompare;
  if (o.V) return versionCompare;
  return byteCompare;
}

function prepareKey(lines: string[], plan: SortPlan, key: Key | null): Prepared {
  const o: KeyOpts = key ?? plan.global;
  const n = lines.length;
  const text = new Array<string>(n);
  const numeric = o.n;
  const filtered = !numeric && !o.h && !o.g && !o.M && !o.V && (o.d || o.f || o.i);
  const num = numeric ? new Float64Array(n) : null;
  const exact = numeric ? new Uint8Array(n) : null;
  for (let i = 0; i < n; i++) {
    let t = key ? extract(lines[i], key, plan.tab) : o.b ? stripBlanks(lines[i]) : lines[i];
    if (filtered) t = filter(t, o);
    text[i] = t;
    if (num) {
      const digits = parseNum(t);
      num[i] = parsed;
      exact![i] = digits <= 15 ? 1 : 0;
    }
  }
  return { opts: o, text, num, exact, cmp: textCompare(o) };
}

export function comparators(lines: string[], plan: SortPlan): Comparators {
  const prepared = plan.keys.length ? plan.keys.map((k) => prepareKey(lines, plan, k)) : [prepareKey(lines, plan, null)];
  const keys = (a: number, b: number): number => {
    for (const p of prepared) {
      let r: number;
      if (p.num) {
        r = p.num[a] - p.num[b];
        // A tie of doubles (or ∞ - ∞) is only trusted when both numbers fit a double.
        if ((r === 0 || r !== r) && !(p.exact![a] & p.exact![b])) r = exactNumCompare(p.text[a], p.text[b]);
        else if (r !== r) r = 0;
      } else r = p.cmp(p.text[a], p.text[b]);
      if (r) return p.opts.r ? (r < 0 ? 1 : -1) : r < 0 ? -1 : 1;
    }
    return 0;
  };
  const full = (a: number, b: number): number => {
    const r = keys(a, b);
    if (r || plan.stable || plan.unique) return r;
    // Last resort: the whole line, bytewise (reversed with a global -r).
    const l = byteCompare(lines[a], lines[b]);
    return plan.global.r ? -l : l;
  };
  return { keys, full };
}

// ---- -n: GNU's numeric key: blanks, an optional '-', digits, an optional fraction; nothing else.

/** Set by parseNum: the value of the number it parsed (0 when there is none). */
let parsed = 0;

/** Blanks GNU sort skips before a number (isblank, and newline, which only -z lines can hold). */
const isNumBlank = (c: number): boolean => c === 32 || c === 9 || c === 10;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** The numeric prefix of `s`: sets `parsed` and returns how many digits it has. */
function parseNum(s: string): number {
  let p = 0;
  while (p < s.length && isNumBlank(s.charCodeAt(p))) p++;
  const start = p;
  if (s.charCodeAt(p) === 45) p++;
  let digits = 0;
  while (p < s.length && isDigit(s.charCodeAt(p))) {
    p++;
    digits++;
  }
  if (s.charCodeAt(p) === 46) {
    p++;
    while (p < s.length && isDigit(s.charCodeAt(p))) {
      p++;
      digits++;
    }
  }
  // Number() reads "-12.", ".5" and "-.5" as C does; no digits at all is zero.
  parsed = digits ? Number(s.slice(start, p)) || 0 : 0;
  return digits;
}

/** Sign, integer digits without leading zeros, fraction digits without trailing zeros. */
function numParts(s: string): [number, string, string] {
  const m = /^[ \t\n]*(-?)(\d*)(?:\.(\d*))?/.exec(s)!;
  const int = m[2].replace(/^0+/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const sign = int === '' && frac === '' ? 0 : m[1] ? -1 : 1;
  return [sign, int, frac];
}

/** Exact comparison of two numeric keys whose doubles tie (more digits than a double holds). */
export function exactNumCompare(a: string, b: string): number {
  const [sa, ia, fa] = numParts(a);
  const [sb, ib, fb] = numParts(b);
  if (sa !== sb) return sa - sb;
  let r = ia.length - ib.length || byteCompare(ia, ib) || byteCompare(fa, fb);
  if (r) r = r < 0 ? -1 : 1;
  return sa * r;
}
