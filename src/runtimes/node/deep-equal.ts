// Deep equality for assert.deepStrictEqual / util.isDeepStrictEqual (strict)
// and assert.deepEqual (loose: == on primitives, prototypes ignored).

export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return deepEqual(a, b, true, new Map());
}

export function isDeepLooseEqual(a: unknown, b: unknown): boolean {
  return deepEqual(a, b, false, new Map());
}

function deepEqual(a: unknown, b: unknown, strict: boolean, memo: Map<object, object>): boolean {
  if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return !strict && (typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null) ? a == b : false;
  }
  if (memo.get(a) === b) return true;
  memo.set(a, b);
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ta = Object.prototype.toString.call(a);
  if (ta !== Object.prototype.toString.call(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b) && a.lastIndex === (b as RegExp).lastIndex;
  if (a instanceof Error && (a.message !== (b as Error).message || a.name !== (b as Error).name)) return false;
  if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    if (!Object.is(a.valueOf(), (b as { valueOf(): unknown }).valueOf())) return false;
  }
  if (ArrayBuffer.isView(a)) {
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
  }
  if (a instanceof Map) {
    const m = b as Map<unknown, unknown>;
    if (a.size !== m.size) return false;
    for (const [k, v] of a) {
      if (m.has(k)) { if (!deepEqual(v, m.get(k), strict, memo)) return false; continue; }
      let found = false;
      for (const [k2, v2] of m) if (deepEqual(k, k2, strict, memo) && deepEqual(v, v2, strict, memo)) { found = true; break; }
      if (!found) return false;
    }
  }
  if (a instanceof Set) {
    const s = b as Set<unknown>;
    if (a.size !== s.size) return false;
    for (const v of a) {
      if (s.has(v)) continue;
      let found = false;
      for (const v2 of s) if (deepEqual(v, v2, strict, memo)) { found = true; break; }
      if (!found) return false;
    }
  }
  const ka = ownKeys(a, strict, ArrayBuffer.isView(a));
  const kb = ownKeys(b, strict, ArrayBuffer.isView(b));
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    if (!deepEqual((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k], strict, memo)) return false;
  }
  return true;
}

function ownKeys(o: object, strict: boolean, skipIndices: boolean): PropertyKey[] {
  let keys: PropertyKey[] = Object.keys(o);
  if (skipIndices) keys = keys.filter((k) => !/^\d+$/.test(k as string));
  if (strict) for (const s of Object.getOwnPropertySymbols(o)) if (Object.prototype.propertyIsEnumerable.call(o, s)) keys.push(s);
  return keys;
}
