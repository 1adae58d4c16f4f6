// Core builtins: types, containers, paths, control (select, recurse, limit,
// first, until, ...), sorting and grouping, streams.

import { modify } from './assign.js';
import { Identity, invalidPath, Iterate, RecurseAll, type Frame, type K, type Node, type Path, type PK } from './interp.js';
import { parseJsonText, ParseError } from './json-parse.js';
import { toJson } from './json-print.js';
import { collect, Halt, Stop, until, type Native, type Table } from './natives.js';
import { add, contains, describe, has, index, indexesOf, iterError, keys, length } from './ops.js';
import { delpaths, getpath, setpath } from './paths.js';
import { compare, equal, err, isNum, isObj, JqError, Lit, num, truthy, typeOf, type JObject, type Json } from './value.js';

const fn = (f: (v: Json, args: Json[]) => Json): Native => ({ fn: (v, args) => f(v, args) });

/** The values `.[]` would produce (arrays and objects), else jq's iteration error. */
export function values(v: Json): Json[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return [...v.values()];
  throw iterError(v);
}

/** Evaluate one argument for each of its outputs (jq-defined `$param` semantics). */
const each = (node: Node, v: Json, f: Frame, body: (x: Json) => void): void => node.ev(v, f, body);

/** [f] for each element: the sort keys of sort_by/group_by/unique_by/min_by/max_by. */
function keyed(v: Json, f: Node, fr: Frame): [Json, Json][] {
  return values(v).map((x) => [collect(f, x, fr), x]);
}

function sortArray(v: Json): Json[] {
  if (!Array.isArray(v)) throw err(`${describe(v)} cannot be sorted, as it is not an array`);
  return v.slice().sort(compare);
}

function sortedPairs(v: Json, f: Node, fr: Frame): [Json, Json][] {
  const pairs = keyed(v, f, fr);
  if (isObj(v)) throw err(`${describe(v)} and ${describe(pairs.map((p) => p[0]))} cannot be sorted, as they are not both arrays`);
  return pairs.sort((a, b) => compare(a[0], b[0]));
}

function groups(v: Json, f: Node, fr: Frame): Json[][] {
  const out: Json[][] = [];
  let last: Json | undefined;
  for (const [key, x] of sortedPairs(v, f, fr)) {
    if (out.length && equal(key, last!)) out[out.length - 1].push(x);
    else out.push([x]);
    last = key;
  }
  return out;
}

function extreme(v: Json, f: Node | null, fr: Frame | null, max: boolean): Json {
  if (!Array.isArray(v)) throw err(`${describe(v)} and ${describe(v)} cannot be iterated over`);
  let best: Json = null;
  let bestKey: Json = null;
  v.forEach((x, i) => {
    const key = f ? collect(f, x, fr!) : x;
    const c = i === 0 ? 0 : compare(key, bestKey);
    if (i === 0 || (max ? c >= 0 : c < 0)) {
      best = x;
      bestKey = key;
    }
  });
  return best;
}

function flatten(v: Json, depth: number): Json[] {
  const out: Json[] = [];
  for (const x of values(v)) {
    if (Array.isArray(x) && depth !== 0) out.push(...flatten(x, depth - 1));
    else out.push(x);
  }
  return out;
}

/** Depth-first recursion with an explicit stack: recurse(f) and recurse(f; cond). */
function recurse(v: Json, f: Node, fr: Frame, k: K, cond: Node | null): void {
  const stack: Json[] = [v];
  while (stack.length) {
    const x = stack.pop()!;
    k(x);
    const kids: Json[] = [];
    f.ev(x, fr, (y) => {
      if (!cond || collect(cond, y, fr).some(truthy)) kids.push(y);
    });
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

function recursePaths(v: Json, p: Path, f: Node, fr: Frame, k: PK, cond: Node | null): void {
  const stack: [Json, Path][] = [[v, p]];
  while (stack.length) {
    const [x, q] = stack.pop()!;
    k(x, q);
    const kids: [Json, Path][] = [];
    f.paths(x, q, fr, (y, yq) => {
      if (!cond || collect(cond, y, fr).some(truthy)) kids.push([y, yq]);
    });
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

/** Up to n outputs (limit), in value or path mode. */
function limited(n: Json, run: (k: () => void) => void): void {
  const max = num(n);
  if (!(max > 0)) return;
  const stop = new Stop();
  let count = 0;
  until(stop, () =>
    run(() => {
      if (++count >= max) throw stop;
    }),
  );
}

/** A worklist loop for until/while: tasks are values to emit or to process, kept in jq's order. */
function loop(v: Json, step: (x: Json, emit: (y: Json) => void, next: (y: Json) => void) => void, k: K): void {
  const stack: [boolean, Json][] = [[false, v]];
  while (stack.length) {
    const [isOut, x] = stack.pop()!;
    if (isOut) {
      k(x);
      continue;
    }
    const tasks: [boolean, Json][] = [];
    step(
      x,
      (y) => tasks.push([true, y]),
      (y) => tasks.push([false, y]),
    );
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]);
  }
}

function toEntries(v: Json): Json[] {
  if (isObj(v)) return [...v].map(([key, value]) => entry(key, value));
  if (Array.isArray(v)) return v.map((value, key) => entry(key, value));
  throw err(`${describe(v)} has no keys`);
}

const entry = (key: Json, value: Json): JObject =>
  new Map<string, Json>([
    ['key', key],
    ['value', value],
  ]);

/** from_entries: key from key/Key/name/Name (first truthy), value from value (if present) or Value. */
function fromEntries(v: Json): Json {
  const m: JObject = new Map();
  for (const e of values(v)) {
    let key: Json = null;
    for (const name of ['key', 'Key', 'name', 'Name']) {
      key = index(e, name);
      if (truthy(key)) break;
    }
    if (typeof key !== 'string') throw err(`Cannot use ${describe(key)} as object key`);
    const val = has(e, 'value') ? index(e, 'value') : index(e, 'Value');
    m.set(key, val);
  }
  return m;
}

function join(v: Json, sep: Json): Json {
  let acc: Json = null;
  for (const x of values(v)) {
    const s = typeof x === 'boolean' || isNum(x) ? toJson(x) : x === null ? '' : x;
    acc = add(acc === null ? '' : add(acc, sep), s);
  }
  return acc === null || acc === false ? '' : acc;
}

/** jq 1.7 indices: overlapping matches, byte offsets for strings. */
function indices(v: Json, i: Json): Json {
  if (Array.isArray(v) && Array.isArray(i)) return indexesOf(v, i);
  if (Array.isArray(v)) return indexesOf(v, [i]);
  if (typeof v === 'string' && typeof i === 'string') {
    if (i === '') return null;
    const out: number[] = [];
    const enc = new TextEncoder();
    const hay = enc.encode(v);
    const needle = enc.encode(i);
    outer: for (let p = 0; p + needle.length <= hay.length; p++) {
      for (let j = 0; j < needle.length; j++) if (hay[p + j] !== needle[j]) continue outer;
      out.push(p);
    }
    return out;
  }
  return index(v, i);
}

/** tostream: [path, leaf] events and closing [path] markers. */
function tostream(v: Json, k: K): void {
  const walkS = (x: Json, path: Json[]): void => {
    const container = (Array.isArray(x) && x.length > 0) || (isObj(x) && x.size > 0);
    if (!container) {
      k([path, x]);
      return;
    }
    const ks: Json[] = Array.isArray(x) ? x.map((_, i) => i) : [...(x as JObject).keys()];
    for (const key of ks) walkS(index(x, key), [...path, key]);
    k([[...path, ks[ks.length - 1]]]);
  };
  walkS(v, []);
}

/** fromstream: rebuild values from stream events (top-level values as they complete). */
function fromstream(events: Node, v: Json, fr: Frame, k: K): void {
  let cur: Json = null;
  let have = false;
  events.ev(v, fr, (e) => {
    if (!Array.isArray(e) || !Array.isArray(e[0])) throw err('Invalid path expression');
    const path = e[0] as Json[];
    if (e.length === 2) {
      if (path.length === 0) {
        k(e[1]);
        return;
      }
      cur = setpath(have ? cur : null, path, e[1]);
      have = true;
    } else if (path.length === 1) {
      if (have) k(cur);
      cur = null;
      have = false;
    }
  });
}

const truncate = (depth: Json, e: Json): Json | undefined => {
  if (!Array.isArray(e) || !Array.isArray(e[0])) return undefined;
  const d = num(depth);
  const p = e[0] as Json[];
  if (p.length <= d) return undefined;
  return [p.slice(d), ...e.slice(1)];
};

/** walk(f) as jq 1.7: children first (arrays keep every output, objects the first or drop the key), then f. */
function walkValue(x: Json, f: Node, fr: Frame, k: K): void {
  let v = x;
  if (Array.isArray(x)) {
    const out: Json[] = [];
    for (const e of x) walkValue(e, f, fr, (y) => out.push(y));
    v = out;
  } else if (isObj(x)) {
    const m: JObject = new Map();
    for (const [key, e] of x) {
      const stop = new Stop();
      until(stop, () =>
        walkValue(e, f, fr, (y) => {
          m.set(key, y);
          throw stop;
        }),
      );
    }
    v = m;
  }
  f.ev(v, fr, k);
}

export const CORE: Table = {
  'empty/0': { gen: () => {}, paths: () => {} },
  'not/0': fn((v) => !truthy(v)),
  'error/0': fn((v) => {
    throw new JqError(v);
  }),
  'error/1': fn((_v, [m]) => {
    throw new JqError(m);
  }),
  'type/0': fn((v) => typeOf(v)),
  'length/0': fn(length),
  'utf8bytelength/0': fn((v) => {
    if (typeof v !== 'string') throw err(`${describe(v)} only strings have UTF-8 byte length`);
    return new TextEncoder().encode(v).length;
  }),
  'keys/0': fn((v) => keys(v, true)),
  'keys_unsorted/0': fn((v) => keys(v, false)),
  'has/1': fn((v, [k]) => has(v, k)),
  'in/1': fn((v, [o]) => has(o, v)),
  'contains/1': fn((v, [b]) => contains(v, b)),
  'inside/1': fn((v, [b]) => contains(b, v)),
  'add/0': fn((v) => values(v).reduce((acc: Json, x) => add(acc, x), null)),
  'any/0': fn((v) => values(v).some(truthy)),
  'all/0': fn((v) => values(v).every(truthy)),
  'any/1': { single: 'always', gen: (v, [c], f, k) => k(values(v).some((x) => collect(c, x, f).some(truthy))) },
  'all/1': { single: 'always', gen: (v, [c], f, k) => k(values(v).every((x) => collect(c, x, f).every(truthy))) },
  'any/2': { single: 'always', gen: (v, [g, c], f, k) => k(search(v, g, c, f, true)) },
  'all/2': { single: 'always', gen: (v, [g, c], f, k) => k(!search(v, g, c, f, false)) },
  'isempty/1': { single: 'always', gen: (v, [g], f, k) => k(!search(v, g, null, f, true)) },
  'select/1': {
    gen: (v, [c], f, k) => c.ev(v, f, (x) => truthy(x) && k(v)),
    paths: (v, p, [c], f, k) => c.ev(v, f, (x) => truthy(x) && k(v, p)),
  },
  'map/1': {
    single: 'always',
    gen: (v, [g], f, k) => {
      const out: Json[] = [];
      for (const x of values(v)) g.ev(x, f, (y) => out.push(y));
      k(out);
    },
  },
  'map_values/1': { single: 'always', gen: (v, [g], f, k) => k(modify(v, ITERATE, f, (old, out) => g.ev(old, f, out))) },
  'recurse/0': {
    gen: (v, _a, f, k) => RECURSE.ev(v, f, k),
    paths: (v, p, _a, f, k) => RECURSE.paths(v, p, f, k),
  },
  'recurse/1': {
    gen: (v, [g], f, k) => recurse(v, g, f, k, null),
    paths: (v, p, [g], f, k) => recursePaths(v, p, g, f, k, null),
  },
  'recurse/2': {
    gen: (v, [g, c], f, k) => recurse(v, g, f, k, c),
    paths: (v, p, [g, c], f, k) => recursePaths(v, p, g, f, k, c),
  },
  'range/1': { gen: (v, [n], f, k) => each(n, v, f, (to) => range(0, to, 1, k)) },
  'range/2': { gen: (v, [a, b], f, k) => each(a, v, f, (from) => each(b, v, f, (to) => range(from, to, 1, k))) },
  'range/3': {
    gen: (v, [a, b, c], f, k) => each(a, v, f, (from) => each(b, v, f, (to) => each(c, v, f, (by) => range(from, to, by, k)))),
  },
  'limit/2': {
    gen: (v, [n, g], f, k) =>
      each(n, v, f, (max) => {
        if (num(max) < 0) g.ev(v, f, k);
        else limited(max, (tick) => g.ev(v, f, (x) => (k(x), tick())));
      }),
    paths: (v, p, [n, g], f, k) =>
      each(n, v, f, (max) => {
        if (num(max) < 0) g.paths(v, p, f, k);
        else limited(max, (tick) => g.paths(v, p, f, (x, q) => (k(x, q), tick())));
      }),
  },
  'first/1': {
    gen: (v, [g], f, k) => limited(1, (tick) => g.ev(v, f, (x) => (k(x), tick()))),
    paths: (v, p, [g], f, k) => limited(1, (tick) => g.paths(v, p, f, (x, q) => (k(x, q), tick()))),
  },
  'last/1': {
    single: 'always',
    gen: (v, [g], f, k) => {
      let last: Json = null;
      g.ev(v, f, (x) => {
        last = x;
      });
      k(last);
    },
  },
  'nth/2': {
    gen: (v, [n, g], f, k) =>
      each(n, v, f, (nv) => {
        const i = num(nv);
        if (i < 0) throw err("nth doesn't support negative indices");
        let c = 0;
        limited(i + 1, (tick) =>
          g.ev(v, f, (x) => {
            if (c++ === i) k(x);
            tick();
          }),
        );
      }),
  },
  'until/2': {
    gen: (v, [cond, next], f, k) =>
      loop(v, (x, emit, go) => cond.ev(x, f, (c) => (truthy(c) ? emit(x) : next.ev(x, f, go))), k),
  },
  'while/2': {
    gen: (v, [cond, update], f, k) =>
      loop(v, (x, emit, go) => cond.ev(x, f, (c) => truthy(c) && (emit(x), update.ev(x, f, go))), k),
  },
  'repeat/1': {
    gen: (v, [g], f, k) => {
      for (;;) g.ev(v, f, k);
    },
  },
  'path/1': { gen: (v, [g], f, k) => g.paths(v, [], f, (x, p) => k(requirePathOf(x, p))) },
  'paths/0': { gen: (v, _a, _f, k) => allPaths(v, k) },
  'paths/1': {
    gen: (v, [c], f, k) => allPaths(v, (p) => collect(c, getpath(v, p), f).forEach((x) => truthy(x) && k(p))),
  },
  'getpath/1': {
    fn: (v, [p]) => getpath(v, p),
    paths: (v, p, [a], f, k) =>
      a.ev(v, f, (path) => {
        const r = getpath(v, path);
        k(r, p === null ? null : [...p, ...(path as Json[])]);
      }),
  },
  'setpath/2': fn((v, [p, x]) => setpath(v, p, x)),
  'delpaths/1': fn((v, [ps]) => delpaths(v, ps)),
  'del/1': {
    single: 'always',
    gen: (v, [g], f, k) => {
      const ps: Json[] = [];
      g.paths(v, [], f, (x, p) => ps.push(requirePathOf(x, p)));
      k(delpaths(v, ps));
    },
  },
  'pick/1': {
    single: 'always',
    gen: (v, [g], f, k) => {
      let r: Json = null;
      g.paths(v, [], f, (x, p) => {
        const path = requirePathOf(x, p);
        r = setpath(r, path, getpath(v, path));
      });
      k(r);
    },
  },
  'to_entries/0': fn(toEntries),
  'from_entries/0': fn(fromEntries),
  'with_entries/1': {
    single: 'always',
    gen: (v, [g], f, k) => {
      const out: Json[] = [];
      for (const e of toEntries(v)) g.ev(e, f, (y) => out.push(y));
      k(fromEntries(out));
    },
  },
  'join/1': fn((v, [s]) => join(v, s)),
  'flatten/0': fn((v) => flatten(v, -1)),
  'flatten/1': fn((v, [d]) => {
    if (num(d) < 0) throw err('flatten depth must not be negative');
    return flatten(v, num(d));
  }),
  'reverse/0': fn((v) => {
    if (typeof v === 'string') return [...v].reverse().join('');
    if (v === null) return [];
    if (!Array.isArray(v)) throw err(`Cannot index ${typeOf(v)} with number`);
    return v.slice().reverse();
  }),
  'indices/1': fn((v, [i]) => indices(v, i)),
  'index/1': fn((v, [i]) => {
    const r = indices(v, i);
    return Array.isArray(r) ? (r.length ? r[0] : null) : index(r, 0);
  }),
  'rindex/1': fn((v, [i]) => {
    const r = indices(v, i);
    return Array.isArray(r) ? (r.length ? r[r.length - 1] : null) : r === null ? null : index(r, -1);
  }),
  'sort/0': fn(sortArray),
  'sort_by/1': { single: 'always', gen: (v, [g], f, k) => k(sortedPairs(v, g, f).map((p) => p[1])) },
  'group_by/1': { single: 'always', gen: (v, [g], f, k) => k(groups(v, g, f)) },
  'unique/0': fn((v) => {
    if (isObj(v)) throw err(`${describe(v)} and ${describe([...v.values()].map((x) => [x]))} cannot be sorted, as they are not both arrays`);
    return sortArray(Array.isArray(v) ? v : values(v)).filter((x, i, a) => i === 0 || !equal(x, a[i - 1]));
  }),
  'unique_by/1': { single: 'always', gen: (v, [g], f, k) => k(groups(v, g, f).map((grp) => grp[0])) },
  'min/0': fn((v) => extreme(v, null, null, false)),
  'max/0': fn((v) => extreme(v, null, null, true)),
  'min_by/1': { single: 'always', gen: (v, [g], f, k) => k(extreme(v, g, f, false)) },
  'max_by/1': { single: 'always', gen: (v, [g], f, k) => k(extreme(v, g, f, true)) },
  'transpose/0': fn((v) => {
    const rows = values(v);
    const n = rows.reduce((m: number, r) => Math.max(m, num(length(r))), 0);
    const out: Json[] = [];
    for (let i = 0; i < n; i++) out.push(rows.map((r) => index(r, i)));
    return out;
  }),
  'tostream/0': { gen: (v, _a, _f, k) => tostream(v, k) },
  'fromstream/1': { gen: (v, [g], f, k) => fromstream(g, v, f, k) },
  'truncate_stream/1': {
    gen: (v, [g], f, k) =>
      g.ev(v, f, (e) => {
        const r = truncate(v, e);
        if (r !== undefined) k(r);
      }),
  },
  'walk/1': { gen: (v, [g], f, k) => walkValue(v, g, f, k) },
  'tojson/0': fn((v) => toJson(v)),
  'fromjson/0': fn((v) => {
    if (typeof v !== 'string') throw err(`${describe(v)} cannot be parsed as JSON`);
    try {
      return parseJsonText(v);
    } catch (e) {
      if (e instanceof ParseError) throw err(`${e.msg} (while parsing '${v}')`);
      throw e;
    }
  }),
  'tostring/0': fn((v) => (typeof v === 'string' ? v : toJson(v))),
  'tonumber/0': fn((v) => {
    if (isNum(v)) return v;
    if (typeof v === 'string') {
      let r: Json;
      try {
        r = parseJsonText(v);
      } catch (e) {
        if (e instanceof ParseError) throw err(`${e.msg} (while parsing '${v}')`);
        throw e;
      }
      if (isNum(r)) return r;
    }
    throw err(`${describe(v)} cannot be parsed as a number`);
  }),
  'abs/0': fn((v) => {
    if (typeof v === 'number') return Math.abs(v);
    if (v instanceof Lit) return v.n < 0 ? new Lit(-v.n, v.s.slice(1)) : v;
    throw err(`${describe(v)} has no absolute value`);
  }),
  'toarray/0': fn((v) => (Array.isArray(v) ? v : [v])),
  'have_literal_numbers/0': fn(() => true),
  'have_decnum/0': fn(() => true),
  'input/0': {
    single: 'always',
    gen: (_v, _a, _f, k, rt) => {
      const x = rt.nextInput();
      if (x === undefined) throw err('No more inputs');
      k(x);
    },
  },
  'inputs/0': {
    gen: (_v, _a, _f, k, rt) => {
      for (let x = rt.nextInput(); x !== undefined; x = rt.nextInput()) k(x);
    },
  },
  'debug/0': {
    single: 'always',
    gen: (v, _a, _f, k, rt) => (rt.debug(v), k(v)),
    paths: (v, p, _a, _f, k, rt) => (rt.debug(v), k(v, p)),
  },
  'debug/1': {
    single: 'args',
    gen: (v, [m], f, k, rt) => (m.ev(v, f, (x) => rt.debug(x)), k(v)),
    paths: (v, p, [m], f, k, rt) => (m.ev(v, f, (x) => rt.debug(x)), k(v, p)),
  },
  'stderr/0': {
    single: 'always',
    gen: (v, _a, _f, k, rt) => (rt.stderr(v), k(v)),
    paths: (v, p, _a, _f, k, rt) => (rt.stderr(v), k(v, p)),
  },
  'halt/0': {
    gen: () => {
      throw new Halt(0, undefined);
    },
  },
  'halt_error/1': {
    gen: (v, [c], f) =>
      c.ev(v, f, (code) => {
        if (!isNum(code)) throw err(`${describe(v)} halt_error/1: number required`);
        throw new Halt(num(code), v);
      }),
  },
  'env/0': { fn: (_v, _a, rt) => rt.env() },
  'builtins/0': { fn: (_v, _a, rt) => rt.builtins() },
  'input_filename/0': { fn: (_v, _a, rt) => rt.filename() },
  'input_line_number/0': { fn: (_v, _a, rt) => rt.lineNumber() },
  'get_search_list/0': { fn: (_v, _a, rt) => rt.searchList() },
  'get_prog_origin/0': { fn: (_v, _a, rt) => rt.progOrigin() },
  'get_jq_origin/0': { fn: (_v, _a, rt) => rt.jqOrigin() },
  'modulemeta/0': fn((v) => {
    throw err(`${describe(v)} is not a module name`);
  }),
  'bsearch/1': fn((v, [t]) => {
    if (!Array.isArray(v)) throw err(`${describe(v)} cannot be searched from`);
    let lo = 0;
    let hi = v.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compare(v[mid], t);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1 - lo;
  }),
};

/** `.[]`, for map_values; `..` for recurse/0. */
const ITERATE = new Iterate(new Identity(), false);
const RECURSE = new RecurseAll();

function requirePathOf(x: Json, p: Path): Json[] {
  if (p === null) throw invalidPath(x);
  return p;
}

/** Every path under v (not v itself), depth first: paths/0. */
function allPaths(v: Json, k: (p: Json[]) => void): void {
  const go = (x: Json, p: Json[]): void => {
    const step = (key: Json, y: Json): void => {
      k([...p, key]);
      go(y, [...p, key]);
    };
    if (Array.isArray(x)) x.forEach((y, i) => step(i, y));
    else if (isObj(x)) for (const [key, y] of x) step(key, y);
  };
  go(v, []);
}

/** any/all/isempty: does g (| cond) produce a truthy (or, for all, a falsy) value? Stops at the first. */
function search(v: Json, g: Node, cond: Node | null, f: Frame, want: boolean): boolean {
  const stop = new Stop();
  let found = false;
  until(stop, () =>
    g.ev(v, f, (x) => {
      if (!cond) {
        found = true;
        throw stop;
      }
      cond.ev(x, f, (c) => {
        if (truthy(c) === want) {
          found = true;
          throw stop;
        }
      });
    }),
  );
  return found;
}

/** range(from; to; by) for numbers; jq's generic comparison otherwise. */
function range(from: Json, to: Json, by: Json, k: K): void {
  if (!isNum(from) || !isNum(to)) throw err('Range bounds must be numeric');
  const step = num(by);
  const end = num(to);
  if (step > 0) for (let x = num(from); x < end; x += step) k(x);
  else if (step < 0) for (let x = num(from); x > end; x += step) k(x);
}
