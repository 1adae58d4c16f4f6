// gawk's built-in functions beyond POSIX awk: array sorting, patsplit, the
// bit operations, strtonum, typeof/isarray and the time functions.

import type { Expr } from './ast.js';
import { fpatSplit } from './fields.js';
import type { Interp } from './interp.js';
import { G } from './parser.js';
import { sortEntries } from './sort.js';
import { awkMktime, awkStrftime, DEFAULT_FORMAT } from './time.js';
import { input, StrNum, strToNum, toBool, toNum, UNASSIGNED, UNINIT, type AwkArray, type Val } from './value.js';

export const EXT_ARITY: Record<string, [number, number]> = {
  systime: [0, 0], strftime: [0, 3], mktime: [1, 2], asort: [1, 3], asorti: [1, 3], patsplit: [2, 4],
  and: [0, Infinity], or: [0, Infinity], xor: [0, Infinity], lshift: [2, 2], rshift: [2, 2], compl: [1, 1],
  strtonum: [1, 1], isarray: [1, 1], typeof: [1, 2],
};

/** An argument that must be an array (an untyped variable becomes one). */
function arrayArg(it: Interp, e: Expr | undefined, fn: string, nth: string): AwkArray {
  if (!e || e.k !== 'var' || (!it.isArray(e.ref) && it.cell(e.ref) !== UNINIT)) it.fatal(`${fn}: ${nth} argument is not an array`);
  return it.array(e.ref);
}

export function callExtension(it: Interp, name: string, args: Expr[]): Val {
  const num = (i: number) => toNum(it.eval(args[i]));
  const str = (i: number) => it.str(it.eval(args[i]));
  switch (name) {
    case 'systime':
      return Math.floor(Date.now() / 1000);
    case 'strftime': {
      const p = it.g[G.PROCINFO];
      const dflt = p instanceof Map ? p.get('strftime') : undefined;
      const fmt = args.length ? str(0) : dflt === undefined ? DEFAULT_FORMAT : it.str(dflt);
      const t = args.length > 1 ? num(1) : Date.now() / 1000;
      const utc = args.length > 2 && toBool(it.eval(args[2]));
      return fmt === '' ? '' : awkStrftime(fmt, t, utc, it.zone);
    }
    case 'mktime': {
      const spec = str(0);
      return awkMktime(spec, args.length > 1 && toBool(it.eval(args[1])), it.zone);
    }
    case 'asort':
    case 'asorti':
      return asort(it, name, args);
    case 'patsplit':
      return patsplit(it, args);
    case 'and':
    case 'or':
    case 'xor': {
      if (args.length < 2) it.fatal(`${name}: called with less than two arguments`);
      const vals = args.map((_, i) => num(i));
      let r = name === 'and' ? (1n << 64n) - 1n : 0n;
      for (let i = vals.length - 1; i >= 0; i--) {
        if (vals[i] < 0) it.fatal(`${name}: argument ${i + 1} negative value ${gfmt(vals[i])} is not allowed`);
        const u = toU64(vals[i]);
        r = name === 'and' ? r & u : name === 'or' ? r | u : r ^ u;
      }
      return fromU64(r);
    }
    case 'lshift':
    case 'rshift': {
      const v = num(0);
      const sh = num(1);
      if (v < 0 || sh < 0) it.fatal(`${name}(${v.toFixed(6)}, ${sh.toFixed(6)}): negative values are not allowed`);
      // x86 takes the shift count mod 64, as gawk's C shift does there.
      const n = BigInt(Number(toU64(sh) & 63n));
      return fromU64(name === 'lshift' ? BigInt.asUintN(64, toU64(v) << n) : toU64(v) >> n);
    }
    case 'compl': {
      const v = num(0);
      if (v < 0) it.fatal(`compl(${v.toFixed(6)}): negative value is not allowed`);
      return fromU64(BigInt.asUintN(64, ~toU64(v)));
    }
    case 'strtonum': {
      const v = it.eval(args[0]);
      return typeof v === 'string' ? strtonum(v) : toNum(v);
    }
    case 'isarray': {
      const a = args[0];
      return a.k === 'var' && it.isArray(a.ref) ? 1 : 0;
    }
    case 'typeof':
      return typeOf(it, args);
    default:
      return it.fatal(`function \`${name}' is not supported`);
  }
}

/** C's %g, for gawk's messages. */
function gfmt(n: number): string {
  return String(Number(n.toPrecision(6)));
}

/** A double as C's uintmax_t (truncated toward zero). */
function toU64(d: number): bigint {
  return Number.isFinite(d) ? BigInt.asUintN(64, BigInt(Math.trunc(d))) : 0n;
}

/** gawk keeps the 53 bits a double holds exactly, from the lowest set bit (at most 11 up). */
function fromU64(n: bigint): number {
  let shift = 0n;
  while (shift < 11n && !((n >> shift) & 1n)) shift++;
  return Number(n & (((1n << 53n) - 1n) << shift));
}

/** strtonum: 0x hex and 0 octal as in source code, otherwise a decimal number. */
function strtonum(s: string): number {
  if (/^0[xX]/.test(s)) {
    const m = /^0[xX]([0-9a-fA-F]*)/.exec(s)!;
    return m[1] ? parseInt(m[1], 16) : 0;
  }
  if (/^0\d/.test(s) && !/^0[89]/.test(s) && !/^\d*[.eE]/.test(s)) {
    const m = /^[0-7]*/.exec(s)![0];
    // An 8 or 9 among the digits makes it decimal after all.
    if (!/[89]/.test(s[m.length] ?? '')) return parseInt(m, 8);
  }
  return strToNum(s);
}

function typeOf(it: Interp, args: Expr[]): Val {
  const a = args[0];
  if (args.length > 1) arrayArg(it, args[1], 'typeof', 'second').clear();
  if (a.k === 'var' && it.isArray(a.ref)) return 'array';
  const v = it.eval(a);
  if (v === UNINIT) return 'untyped';
  if (v === UNASSIGNED) return 'unassigned';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return v instanceof StrNum ? 'strnum' : 'string';
}

/** asort(src [, dest [, how]]) / asorti: the values (or indices) in order, as dest[1..n] (or src). */
function asort(it: Interp, name: string, args: Expr[]): number {
  const src = arrayArg(it, args[0], name, 'first');
  const dest = args.length > 1 ? arrayArg(it, args[1], name, 'second') : src;
  const how = args.length > 2 ? it.str(it.eval(args[2])) : '';
  const list = sortEntries(it, src, how || (name === 'asort' ? '@val_type_asc' : '@ind_str_asc'));
  dest.clear();
  list.forEach(([k, v], i) => dest.set(String(i + 1), name === 'asort' ? v : input(k)));
  return list.length;
}

/** patsplit(s, a [, re [, seps]]): fields that match re (default FPAT), separators into seps. */
function patsplit(it: Interp, args: Expr[]): number {
  const s = it.str(it.eval(args[0]));
  const arr = arrayArg(it, args[1], 'patsplit', 'second');
  const seps = args.length > 3 ? arrayArg(it, args[3], 'patsplit', 'fourth') : null;
  const re = args.length > 2 ? args[2] : null;
  const src = re === null ? it.str(it.g[G.FPAT] as Val) : re.k === 're' ? re.src : it.str(it.eval(re));
  if (src === '') it.fatal('patsplit: third argument must be non-null');
  if (seps === arr) it.fatal('patsplit: cannot use the same array for second and fourth args');
  seps?.clear();
  arr.clear();
  const parts: string[] = [];
  const between: string[] = [];
  fpatSplit(s, it.compileRx(src), parts, seps ? between : null);
  parts.forEach((p, i) => arr.set(String(i + 1), input(p)));
  between.forEach((p, i) => seps!.set(String(i), input(p)));
  return parts.length;
}
