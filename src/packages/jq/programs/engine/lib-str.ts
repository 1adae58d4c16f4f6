// String builtins: case, trimming, explode/implode, split/join helpers,
// formats, and the regex family (test match capture scan split splits sub gsub).

import type { Frame, K, Node } from './interp.js';
import { format } from './format.js';
import { collect, type Native, type Table } from './natives.js';
import { add, codepointSlice, describe, splitString } from './ops.js';
import { captureObject, compileRegex, matches } from './regex.js';
import { err, isNum, num, typeOf, type JObject, type Json } from './value.js';

const fn = (f: (v: Json, args: Json[]) => Json): Native => ({ fn: (v, args) => f(v, args) });

function explode(v: Json): Json {
  if (typeof v !== 'string') throw err('explode input must be a string');
  const out: number[] = [];
  for (const ch of v) out.push(ch.codePointAt(0)!);
  return out;
}

function implode(v: Json): Json {
  if (!Array.isArray(v)) throw err('implode input must be an array');
  let s = '';
  for (const x of v) {
    if (!isNum(x)) throw err('Unicode codepoint must be numeric');
    const cp = Math.trunc(num(x));
    s += cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
  }
  return s;
}

const ascii = (v: Json, upper: boolean): Json => {
  if (typeof v !== 'string') throw err('explode input must be a string');
  return upper ? v.replace(/[a-z]+/g, (m) => m.toUpperCase()) : v.replace(/[A-Z]+/g, (m) => m.toLowerCase());
};

const SPACE = /[ \t\n\v\f\r]/;
function trim(v: Json, left: boolean, right: boolean): Json {
  if (typeof v !== 'string') throw err('trim input must be a string');
  let a = 0;
  let b = v.length;
  if (left) while (a < b && SPACE.test(v[a])) a++;
  if (right) while (b > a && SPACE.test(v[b - 1])) b--;
  return v.slice(a, b);
}

/** `re` and `flags` from test/match/capture's one-argument form: a string or [re, flags]. */
function regexArg(val: Json): [Json, Json] {
  if (typeof val === 'string') return [val, null];
  if (Array.isArray(val) && val.length > 1) return [val[0], val[1]];
  if (Array.isArray(val) && val.length > 0) return [val[0], null];
  throw err(`${typeOf(val)} not a string or array`);
}

const matchAll = (v: Json, re: Json, flags: Json): JObject[] => matches(v, compileRegex(re, flags));

const test = (v: Json, re: Json, flags: Json): boolean => {
  const c = compileRegex(re, flags);
  return matches(v, { ...c, global: false }).length > 0;
};

function scan(v: Json, re: Json, flags: Json, k: K): void {
  for (const m of matchAll(v, re, 'g' + (typeof flags === 'string' ? flags : ''))) {
    const caps = m.get('captures') as JObject[];
    k(caps.length ? caps.map((c) => c.get('string') ?? null) : (m.get('string') as Json));
  }
}

/** split/2: the pieces between the matches. */
function splitRe(v: Json, re: Json, flags: Json): Json[] {
  if (typeof v !== 'string') throw err(`${describe(v)} cannot be matched, as it is not a string`);
  const ms = matchAll(v, re, 'g' + (typeof flags === 'string' ? flags : ''));
  const out: Json[] = [];
  let prev = 0;
  const len = [...v].length;
  for (const m of ms) {
    const off = num(m.get('offset')!);
    out.push(codepointSlice(v, prev, off));
    prev = off + num(m.get('length')!);
  }
  out.push(codepointSlice(v, prev, len));
  return out;
}

/** jq 1.7's sub: one result per output of the replacement, built in parallel over the matches. */
function sub(v: Json, re: Json, repl: Node, flags: Json, f: Frame, k: K): void {
  if (typeof v !== 'string') throw err(`${describe(v)} cannot be matched, as it is not a string`);
  if (flags !== null && typeof flags !== 'string') throw err(`${describe(flags)} is not a string`);
  const result: Json[] = [];
  let prev = 0;
  for (const m of matchAll(v, re, flags)) {
    const off = num(m.get('offset')!);
    const gap = codepointSlice(v, prev, off);
    const inserts = collect(repl, captureObject(m), f);
    inserts.forEach((ins, i) => {
      result[i] = add(result[i] ?? null, add(gap, ins));
    });
    prev = off + num(m.get('length')!);
  }
  if (result.length === 0) {
    k(v);
    return;
  }
  const rest = codepointSlice(v, prev, Infinity);
  for (const r of result) k(add(r, rest));
}

/** Regex builtins take their arguments jq-style: every combination, the first outermost. */
function args2(a: Node, b: Node, v: Json, f: Frame, body: (x: Json, y: Json) => void): void {
  a.ev(v, f, (x) => b.ev(v, f, (y) => body(x, y)));
}

export const STRINGS: Table = {
  'explode/0': fn(explode),
  'implode/0': fn(implode),
  'ascii_downcase/0': fn((v) => ascii(v, false)),
  'ascii_upcase/0': fn((v) => ascii(v, true)),
  'ltrimstr/1': fn((v, [p]) => (typeof v === 'string' && typeof p === 'string' && v.startsWith(p) ? v.slice(p.length) : v)),
  'rtrimstr/1': fn((v, [p]) =>
    typeof v === 'string' && typeof p === 'string' && v.endsWith(p) && p.length > 0 ? v.slice(0, v.length - p.length) : v,
  ),
  'startswith/1': fn((v, [p]) => {
    if (typeof v !== 'string' || typeof p !== 'string') throw err('startswith() requires string inputs');
    return v.startsWith(p);
  }),
  'endswith/1': fn((v, [p]) => {
    if (typeof v !== 'string' || typeof p !== 'string') throw err('endswith() requires string inputs');
    return v.endsWith(p);
  }),
  'trim/0': fn((v) => trim(v, true, true)),
  'ltrim/0': fn((v) => trim(v, true, false)),
  'rtrim/0': fn((v) => trim(v, false, true)),
  'split/1': fn((v, [sep]) => {
    if (typeof v !== 'string' || typeof sep !== 'string') throw err('split input and separator must be strings');
    return splitString(v, sep);
  }),
  'split/2': { single: 'args', gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => k(splitRe(v, r, x))) },
  'splits/1': { gen: (v, [re], f, k) => re.ev(v, f, (r) => splitRe(v, r, null).forEach((x) => k(x))) },
  'splits/2': { gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => splitRe(v, r, x).forEach((y) => k(y))) },
  'test/1': fn((v, [val]) => test(v, ...regexArg(val))),
  'test/2': { single: 'args', gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => k(test(v, r, x))) },
  'match/1': fn1Gen((v, val, k) => matchAll(v, ...regexArg(val)).forEach((m) => k(m))),
  'match/2': { gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => matchAll(v, r, x).forEach((m) => k(m))) },
  'capture/1': fn1Gen((v, val, k) => matchAll(v, ...regexArg(val)).forEach((m) => k(captureObject(m)))),
  'capture/2': { gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => matchAll(v, r, x).forEach((m) => k(captureObject(m)))) },
  'scan/1': fn1Gen((v, re, k) => scan(v, re, null, k)),
  'scan/2': { gen: (v, [re, fl], f, k) => args2(re, fl, v, f, (r, x) => scan(v, r, x, k)) },
  'sub/2': { gen: (v, [re, repl], f, k) => re.ev(v, f, (r) => sub(v, r, repl, null, f, k)) },
  'sub/3': { gen: (v, [re, repl, fl], f, k) => args2(re, fl, v, f, (r, x) => sub(v, r, repl, x, f, k)) },
  'gsub/2': { gen: (v, [re, repl], f, k) => re.ev(v, f, (r) => sub(v, r, repl, 'g', f, k)) },
  'gsub/3': {
    gen: (v, [re, repl, fl], f, k) =>
      args2(re, fl, v, f, (r, x) => {
        if (x !== null && typeof x !== 'string') throw err(`${describe(x)} is not a string`);
        sub(v, r, repl, 'g' + (x ?? ''), f, k);
      }),
  },
  'format/1': fn((v, [name]) => {
    if (typeof name !== 'string') throw err(`${describe(name)} is not a valid format`);
    return format(name, v);
  }),
};

/** A one-argument generator builtin whose argument is a value. */
function fn1Gen(body: (v: Json, arg: Json, k: K) => void): Native {
  return { gen: (v, [a], f, k) => a.ev(v, f, (x) => body(v, x, k)) };
}
