// Array orders: PROCINFO["sorted_in"] for `for (k in a)`, and asort()/asorti().
// gawk's predefined orders ("@ind_str_asc" ...) or a user comparison
// function cmp(i1, v1, i2, v2). Ties of the predefined orders fall back to the
// index string, so the order is total and no stable-sort question arises.

import type { Interp } from './interp.js';
import { input, isNumeric, strToNum, toNum, type AwkArray, type Val } from './value.js';

type Entry = [key: string, val: Val];
type Cmp = (a: Entry, b: Entry) => number;

/** A byte folded as IGNORECASE folds it (ASCII letters down; bytes >= 0x80 are signed chars in gawk). */
function fold(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c + 32;
  return c >= 0x80 ? c - 256 : c;
}

/** gawk's string comparison under IGNORECASE (== < ... and switch): folded bytes, then length. */
export function caseCompare(x: string, y: string): number {
  if (x === '' || y === '') return x.length - y.length;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = fold(x.charCodeAt(i)) - fold(y.charCodeAt(i));
    if (d) return d;
  }
  return x.length - y.length;
}

/** Sorting's string order: folded first under IGNORECASE, then bytes, so equal-but-case strings still order. */
function cmpStrings(x: string, y: string, icase: boolean): number {
  if (x === '' || y === '') return x.length - y.length;
  if (icase) {
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) {
      const d = fold(x.charCodeAt(i)) - fold(y.charCodeAt(i));
      if (d) return d;
    }
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

function cmpNumbers(x: number, y: number): number {
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
  if (Number.isNaN(y)) return -1;
  return x === y ? 0 : x < y ? -1 : 1;
}

function comparators(it: Interp): Record<string, Cmp> {
  const ic = it.icase;
  const indStr: Cmp = (a, b) => cmpStrings(a[0], b[0], ic);
  const indNum: Cmp = (a, b) => cmpNumbers(strToNum(a[0]), strToNum(b[0])) || indStr(a, b);
  const valType: Cmp = (a, b) => {
    const [x, y] = [a[1], b[1]];
    let r: number;
    if (isNumeric(x) && isNumeric(y)) r = cmpNumbers(toNum(x), toNum(y));
    else if (isNumeric(x)) r = -1;
    else if (isNumeric(y)) r = 1;
    else r = cmpStrings(it.str(x), it.str(y), ic);
    return r || indStr(a, b);
  };
  const valStr: Cmp = (a, b) => cmpStrings(it.str(a[1]), it.str(b[1]), ic) || indStr(a, b);
  const valNum: Cmp = (a, b) =>
    cmpNumbers(toNum(a[1]), toNum(b[1])) || cmpStrings(it.str(a[1]), it.str(b[1]), ic) || indStr(a, b);
  const down = (c: Cmp): Cmp => (a, b) => -c(a, b);
  return {
    '@ind_str_asc': indStr,
    '@ind_num_asc': indNum,
    '@val_str_asc': valStr,
    '@val_num_asc': valNum,
    '@val_type_asc': valType,
    '@ind_str_desc': down(indStr),
    '@ind_num_desc': down(indNum),
    '@val_str_desc': down(valStr),
    '@val_num_desc': down(valNum),
    '@val_type_desc': down(valType),
  };
}

/** The entries of `a` in the order `how` names; "@unsorted" keeps insertion order. */
export function sortEntries(it: Interp, a: AwkArray, how: string): Entry[] {
  const list: Entry[] = [...a.entries()];
  if (how === '@unsorted') return list;
  let cmp: Cmp | undefined = comparators(it)[how];
  if (!cmp) {
    if (how === '' || /\s/.test(how)) it.fatal(`\`${how}' is invalid as a function name`);
    if (!it.prog.funcs.has(how)) it.fatal(`sort comparison function \`${how}' is not defined`);
    cmp = (x, y) => {
      const r = toNum(it.callWith(how, [input(x[0]), x[1], input(y[0]), y[1]]));
      return r < 0 ? -1 : r > 0 ? 1 : 0;
    };
  }
  return list.sort(cmp);
}

export function sortedKeys(it: Interp, a: AwkArray, how: string): string[] {
  return sortEntries(it, a, how).map((e) => e[0]);
}
