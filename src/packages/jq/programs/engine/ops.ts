// jq's operators on values: arithmetic, indexing, slicing, iteration and the
// error messages they raise (jq 1.7 wording, values shown truncated the way
// jq's fixed-size error buffers truncate them).

import { toJson } from './json-print.js';
import { err, isNum, isObj, JqError, Lit, num, typeOf, compare, equal, type JObject, type Json } from './value.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** jq's jv_dump_string_trunc: the compact JSON cut to size-1 bytes, the last three replaced by "...". */
export function trunc(v: Json, size = 15): string {
  const s = toJson(v);
  // eslint-disable-next-line no-control-regex
  if (s.length < size - 1 && !/[^\x00-\x7f]/.test(s)) return s;
  const b = enc.encode(s);
  if (b.length <= size - 1) return s;
  return dec.decode(b.subarray(0, size - 4)).replace(/\ufffd$/, '') + '...';
}

/** `number (1)` — a value as type errors describe it. */
export const describe = (v: Json, size = 15): string => `${typeOf(v)} (${trunc(v, size)})`;

const binError = (a: Json, b: Json, what: string): JqError => err(`${describe(a)} and ${describe(b)} ${what}`);

export function add(a: Json, b: Json): Json {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (isNum(a) && isNum(b)) return num(a) + num(b);
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return a.concat(b);
  if (isObj(a) && isObj(b)) {
    const m = new Map(a);
    for (const [k, v] of b) m.set(k, v);
    return m;
  }
  throw binError(a, b, 'cannot be added');
}

export function subtract(a: Json, b: Json): Json {
  if (isNum(a) && isNum(b)) return num(a) - num(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => equal(x, y)));
  throw binError(a, b, 'cannot be subtracted');
}

export function multiply(a: Json, b: Json): Json {
  if (isNum(a) && isNum(b)) return num(a) * num(b);
  if ((typeof a === 'string' && isNum(b)) || (isNum(a) && typeof b === 'string')) {
    const s = typeof a === 'string' ? a : (b as string);
    const n = num(typeof a === 'string' ? b : a);
    if (!(n > 0)) return null;
    const times = n - 1 < 1 ? 1 : Math.trunc(n - 1) + 1;
    return s.repeat(times);
  }
  if (isObj(a) && isObj(b)) return deepMerge(a, b);
  throw binError(a, b, 'cannot be multiplied');
}

function deepMerge(a: JObject, b: JObject): JObject {
  const m = new Map(a);
  for (const [k, v] of b) {
    const old = m.get(k);
    m.set(k, old !== undefined && isObj(old) && isObj(v) ? deepMerge(old, v) : v);
  }
  return m;
}

export function divide(a: Json, b: Json): Json {
  if (isNum(a) && isNum(b)) {
    const y = num(b);
    if (y === 0) {
      if (num(a) === 0) return NaN;
      throw binError(a, b, 'cannot be divided because the divisor is zero');
    }
    return num(a) / y;
  }
  if (typeof a === 'string' && typeof b === 'string') return splitString(a, b);
  throw binError(a, b, 'cannot be divided');
}

export function modulo(a: Json, b: Json): Json {
  if (isNum(a) && isNum(b)) {
    const x = num(a);
    const y = num(b);
    if (x !== x || y !== y) return NaN;
    const yi = Math.trunc(y);
    if (yi === 0) throw binError(a, b, 'cannot be divided (remainder) because the divisor is zero');
    const r = Math.trunc(x) % yi;
    return r === 0 ? 0 : r;
  }
  throw binError(a, b, 'cannot be divided');
}

/** `"a,b" / ","` and split/1: an empty separator splits nothing (jq gives the characters for "" only in 1.7). */
export function splitString(s: string, sep: string): Json[] {
  if (s === '') return [];
  if (sep === '') return [...s];
  return s.split(sep);
}

export function negate(v: Json): Json {
  if (typeof v === 'number') return -v;
  if (v instanceof Lit) return new Lit(-v.n, v.s.startsWith('-') ? v.s.slice(1) : '-' + v.s);
  throw err(`${describe(v)} cannot be negated`);
}

export function cmpOp(op: string, a: Json, b: Json): boolean {
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case '<':
      return compare(a, b) < 0;
    case '<=':
      return compare(a, b) <= 0;
    case '>':
      return compare(a, b) > 0;
    default:
      return compare(a, b) >= 0;
  }
}

/** `t[k]`: jq's jv_get. */
export function index(t: Json, k: Json): Json {
  if (t instanceof Map) {
    if (typeof k === 'string') {
      const v = t.get(k);
      return v === undefined ? null : v;
    }
  } else if (Array.isArray(t)) {
    if (typeof k === 'number' || k instanceof Lit) {
      let i = num(k);
      if (!Number.isInteger(i)) return null;
      if (i < 0) i += t.length;
      const v = t[i];
      return v === undefined ? null : v;
    }
    if (isObj(k)) return sliceValue(t, k);
    if (Array.isArray(k)) return indexesOf(t, k);
  } else if (t === null) {
    if (typeof k === 'string' || isNum(k) || isObj(k)) return null;
  } else if (typeof t === 'string' && isObj(k)) return sliceValue(t, k);
  throw indexError(t, k);
}

export function indexError(t: Json, k: Json): JqError {
  // jq 1.7 quotes short keys (they usually come from `.foo`).
  if (typeof k === 'string' && enc.encode(k).length < 30) return err(`Cannot index ${typeOf(t)} with "${k}"`);
  return err(`Cannot index ${typeOf(t)} with ${typeOf(k)}`);
}

/** Positions where array `sub` occurs in `a` (`.[[1,2]]`, indices/1). */
export function indexesOf(a: Json[], sub: Json[]): Json {
  if (sub.length === 0) return null;
  const out: number[] = [];
  for (let i = 0; i + sub.length <= a.length; i++) {
    let ok = true;
    for (let j = 0; j < sub.length && ok; j++) ok = equal(a[i + j], sub[j]);
    if (ok) out.push(i);
  }
  return out;
}

/** Start and end of a slice {start, end} over a length, as jq's parse_slice; null if not numbers. */
export function sliceBounds(len: number, s: Json, e: Json): [number, number] | null {
  if (s === null) s = 0;
  if (e === null) e = len;
  if (!isNum(s) || !isNum(e)) return null;
  let ds = num(s);
  let de = num(e);
  if (ds < 0) ds += len;
  if (de < 0) de += len;
  if (ds < 0) ds = 0;
  if (ds > len) ds = len;
  const start = Math.trunc(ds);
  let end = de > len ? len : Math.trunc(de);
  if (end < de) end += 1;
  if (end > len) end = len;
  if (end < start) end = start;
  return [start, end];
}

function sliceValue(t: Json[] | string, k: JObject): Json {
  const s = k.get('start') ?? null;
  const e = k.get('end') ?? null;
  if (typeof t === 'string') {
    const cps = codepointLength(t);
    const b = sliceBounds(cps, s, e);
    if (!b) throw err('Start and end indices of an string slice must be numbers');
    return codepointSlice(t, b[0], b[1]);
  }
  const b = sliceBounds(t.length, s, e);
  if (!b) throw err('Start and end indices of an array slice must be numbers');
  return t.slice(b[0], b[1]);
}

/** `.[from:to]` on a value. */
export function slice(t: Json, from: Json, to: Json): Json {
  if (t === null) return null;
  if (typeof t === 'string' || Array.isArray(t)) return sliceValue(t, sliceKey(from, to));
  throw err(`Cannot index ${typeOf(t)} with object`);
}

const sliceKey = (from: Json, to: Json): JObject =>
  new Map<string, Json>([
    ['start', from],
    ['end', to],
  ]);

/** Code points in a string (jq's length). */
export function codepointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

/** Substring by code point positions. */
export function codepointSlice(s: string, start: number, end: number): string {
  if (!/[\ud800-\udfff]/.test(s)) return s.slice(start, end);
  return [...s].slice(start, end).join('');
}

/** The values `.[]` iterates. */
export function iterError(v: Json): JqError {
  return err(`Cannot iterate over ${typeOf(v)}${v === null ? ' (null)' : ` (${trunc(v)})`}`);
}

/** `length`. */
export function length(v: Json): Json {
  if (v === null) return 0;
  if (typeof v === 'boolean') throw err(`${describe(v)} has no length`);
  if (typeof v === 'number') return Math.abs(v);
  if (v instanceof Lit) return Math.abs(v.n);
  if (typeof v === 'string') return codepointLength(v);
  if (Array.isArray(v)) return v.length;
  return v.size;
}

/** `has(k)`. */
export function has(t: Json, k: Json): boolean {
  if (isObj(t) && typeof k === 'string') return t.has(k);
  if (Array.isArray(t) && isNum(k)) {
    const i = num(k);
    return i >= 0 && i < t.length;
  }
  throw err(`Cannot check whether ${typeOf(t)} has a ${typeOf(k)} key`);
}

/** `contains(b)`: substring for strings, recursive for arrays and objects. */
export function contains(a: Json, b: Json): boolean {
  if (kind(a) !== kind(b)) throw err(`${describe(a)} and ${describe(b)} cannot have their containment checked`);
  return containsSame(a, b);
}

// jq's kinds tell true from false.
const kind = (v: Json): string => (v === true ? 'true' : v === false ? 'false' : typeOf(v));

function containsSame(a: Json, b: Json): boolean {
  if (isObj(a)) {
    for (const [k, v] of b as JObject) {
      const x = a.get(k);
      if (x === undefined || kind(x) !== kind(v) || !containsSame(x, v)) return false;
    }
    return true;
  }
  if (Array.isArray(a)) return (b as Json[]).every((y) => a.some((x) => kind(x) === kind(y) && containsSame(x, y)));
  if (typeof a === 'string') return a.includes(b as string);
  return equal(a, b);
}

/** keys (sorted) or keys_unsorted. */
export function keys(v: Json, sorted: boolean): Json[] {
  if (isObj(v)) {
    const ks = [...v.keys()];
    return sorted ? ks.sort((x, y) => compare(x, y)) : ks;
  }
  if (Array.isArray(v)) return v.map((_, i) => i);
  throw err(`${describe(v)} has no keys`);
}
