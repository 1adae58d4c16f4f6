// Paths: getpath, setpath and delpaths with jq's semantics (null grows into
// the container a key asks for, arrays are padded with nulls, slices can be
// assigned and deleted, several deletions in one container happen at once).

import { index, sliceBounds } from './ops.js';
import { compare, err, isNum, isObj, num, typeOf, type JObject, type Json } from './value.js';

export function getpath(v: Json, path: Json): Json {
  if (!Array.isArray(path)) throw err('Path must be specified as an array');
  for (const k of path) {
    if (v === null) return null;
    v = index(v, k);
  }
  return v;
}

export function setpath(root: Json, path: Json, value: Json, owned?: Owned): Json {
  if (!Array.isArray(path)) throw err('Path must be specified as an array');
  return setAt(root, path, 0, value, owned);
}

function setAt(root: Json, path: Json[], at: number, value: Json, owned?: Owned): Json {
  if (at === path.length) return value;
  const k = path[at];
  const sub = index(root, k);
  const v = setAt(sub, path, at + 1, value, owned);
  if (owned && root !== null && typeof root === 'object' && owned.has(root) && (typeof k === 'string' || isNum(k))) {
    // Containers this operation copied are its own: set in place.
    if (root instanceof Map) root.set(k as string, v);
    else if (Array.isArray(root)) return set(root, k, v, true);
    return root;
  }
  const r = set(root, k, v);
  if (owned && r !== null && typeof r === 'object') owned.add(r);
  return r;
}

/**
 * Containers a multi-path operation (|=, =, del) copied itself: nobody else
 * holds them, so later paths through them may update them in place instead
 * of copying again (jq gets the same effect from reference counts).
 */
export type Owned = Set<object>;

/** jq's jv_set: one key of a container (null becomes the container the key implies); `inPlace` reuses an owned array. */
export function set(t: Json, k: Json, v: Json, inPlace = false): Json {
  if (typeof k === 'string' && (t === null || isObj(t))) {
    const m: JObject = t === null ? new Map() : new Map(t);
    m.set(k, v);
    return m;
  }
  if (isNum(k) && (t === null || Array.isArray(t))) {
    const a = t === null ? [] : inPlace ? (t as Json[]) : t.slice();
    let i = Math.trunc(num(k));
    if (i < 0) {
      i += a.length;
      if (i < 0) throw err('Out of bounds negative array index');
    }
    while (a.length < i) a.push(null);
    a[i] = v;
    return a;
  }
  if (isObj(k) && (t === null || Array.isArray(t))) {
    const a = t === null ? [] : t;
    const b = sliceBounds(a.length, k.get('start') ?? null, k.get('end') ?? null);
    if (!b) throw err('Start and end indices of an array slice must be numbers');
    if (!Array.isArray(v)) throw err('A slice of an array can only be assigned another array');
    return [...a.slice(0, b[0]), ...v, ...a.slice(b[1])];
  }
  throw err(`Cannot update field at ${typeOf(k)} index of ${typeOf(t)}`);
}

export function delpaths(v: Json, paths: Json): Json {
  if (!Array.isArray(paths)) throw err('Paths must be specified as an array');
  for (const p of paths) if (!Array.isArray(p)) throw err(`Path must be specified as array, not ${typeOf(p)}`);
  if (paths.length === 0) return v;
  const sorted = (paths as Json[][]).slice().sort(compare);
  if (sorted[0].length === 0) return null;
  return delSorted(v, sorted, 0);
}

function delSorted(v: Json, paths: Json[][], at: number): Json {
  const whole: Json[] = [];
  const owned: Owned = new Set();
  for (let i = 0; i < paths.length; ) {
    const key = paths[i][at];
    let j = i;
    while (j < paths.length && compare(paths[j][at], key) === 0) j++;
    if (paths[i].length === at + 1) whole.push(key);
    else {
      const sub = index(v, key);
      if (sub !== null) v = setpath(v, [key], delSorted(sub, paths.slice(i, j), at + 1), owned);
    }
    i = j;
  }
  return dels(v, whole);
}

/** Delete several keys of one container at once. */
function dels(t: Json, ks: Json[]): Json {
  if (t === null || ks.length === 0) return t;
  if (Array.isArray(t)) {
    const drop = new Set<number>();
    for (const k of ks) {
      if (isNum(k)) {
        let i = Math.trunc(num(k));
        if (i < 0) i += t.length;
        drop.add(i);
      } else if (isObj(k)) {
        const b = sliceBounds(t.length, k.get('start') ?? null, k.get('end') ?? null);
        if (!b) throw err('Start and end indices of an array slice must be numbers');
        for (let i = b[0]; i < b[1]; i++) drop.add(i);
      } else throw err(`Cannot delete ${typeOf(k)} element of array`);
    }
    return t.filter((_, i) => !drop.has(i));
  }
  if (isObj(t)) {
    const m = new Map(t);
    for (const k of ks) {
      if (typeof k !== 'string') throw err(`Cannot delete ${typeOf(k)} field of object`);
      m.delete(k);
    }
    return m;
  }
  throw err(`Cannot delete fields from ${typeOf(t)}`);
}
