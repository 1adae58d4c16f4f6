// jq values as JavaScript values: null, booleans, numbers (doubles), strings,
// arrays, objects as Maps (jq keeps insertion order, which JS objects would
// not for integer-like keys), and Lit — a number that keeps the text of its
// literal, as jq 1.7 does (`1.0` prints `1.0`, big integers keep every digit).
// Values are never mutated once built.

export class Lit {
  constructor(
    /** The double the literal denotes (used by arithmetic). */
    readonly n: number,
    /** The canonical literal text (decNumber's to-scientific-string). */
    readonly s: string,
  ) {}
}

export type JObject = Map<string, Json>;
export type Json = null | boolean | number | string | Json[] | JObject | Lit;

/** An error raised by a jq program (`error`, type errors); its value is what `catch` sees. */
export class JqError {
  constructor(readonly value: Json) {}
}

export const err = (msg: string): JqError => new JqError(msg);

export type TypeName = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function typeOf(v: Json): TypeName {
  switch (typeof v) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'array';
      return v instanceof Lit ? 'number' : 'object';
  }
}

export const isNum = (v: Json): v is number | Lit => typeof v === 'number' || v instanceof Lit;
export const isObj = (v: Json): v is JObject => v instanceof Map;
/** The double of a number value (callers check isNum first). */
export const num = (v: Json): number => (typeof v === 'number' ? v : (v as Lit).n);
export const truthy = (v: Json): boolean => v !== null && v !== false;

const ORDER: Record<TypeName, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };
const rank = (v: Json): number => (v === false ? 1 : v === true ? 2 : ORDER[typeOf(v)]);

/** Code units → code point order (UTF-8 byte order, as jq compares strings). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function compare(a: Json, b: Json): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a === b ? 0 : a > b ? 1 : nanCompare(a);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3: {
      if (a instanceof Lit && b instanceof Lit) return decCompare(a.s, b.s);
      const x = num(a);
      const y = num(b);
      return x < y ? -1 : x === y ? 0 : x > y ? 1 : nanCompare(x);
    }
    case 4:
      return compareStrings(a as string, b as string);
    case 5: {
      const x = a as Json[];
      const y = b as Json[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compare(x[i], y[i]);
        if (c) return c;
      }
      return x.length < y.length ? -1 : x.length === y.length ? 0 : 1;
    }
    case 6:
      return compareObjects(a as JObject, b as JObject);
    default:
      return 0;
  }
}

// jq orders nan below every number, itself included (`nan < nan` is true).
const nanCompare = (a: number): number => (a !== a ? -1 : 1);

/** Objects compare by their sorted key lists first, then by values in key order. */
function compareObjects(a: JObject, b: JObject): number {
  const ka = sortedKeys(a);
  const kb = sortedKeys(b);
  const c = compare(ka, kb);
  if (c) return c;
  for (const k of ka) {
    const d = compare(a.get(k)!, b.get(k)!);
    if (d) return d;
  }
  return 0;
}

export const sortedKeys = (o: JObject): string[] => [...o.keys()].sort(compareStrings);

export function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return false;
  return compare(a, b) === 0;
}

/** Compare two canonical decimal literals exactly (sign, magnitude by exponent then digits). */
export function decCompare(a: string, b: string): number {
  const x = decParts(a);
  const y = decParts(b);
  if (x.zero && y.zero) return 0;
  const sx = x.zero ? 0 : x.neg ? -1 : 1;
  const sy = y.zero ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx < sy ? -1 : 1;
  let c: number;
  if (x.adj !== y.adj) c = x.adj < y.adj ? -1 : 1;
  else {
    const n = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(n, '0');
    const dy = y.digits.padEnd(n, '0');
    c = dx < dy ? -1 : dx === dy ? 0 : 1;
  }
  return sx < 0 ? -c : c;
}

/** A decimal string as sign, significant digits (no leading/trailing zeros) and adjusted exponent. */
function decParts(s: string): { neg: boolean; digits: string; adj: number; zero: boolean } {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) return { neg: false, digits: '', adj: 0, zero: true };
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  let digits = int + frac;
  let exp = Number(m[4] ?? 0) - frac.length;
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return { neg: m[1] === '-', digits: '', adj: 0, zero: true };
  digits = digits.slice(lead);
  const trimmed = digits.replace(/0+$/, '');
  exp += digits.length - trimmed.length;
  return { neg: m[1] === '-', digits: trimmed, adj: exp + trimmed.length - 1, zero: false };
}
