// awk's built-in functions. Regex arguments may be /literals/ or strings
// (dynamic regexes); sub/gsub/split write through their lvalue arguments.

import type { Expr } from './ast.js';
import * as chars from './chars.js';
import { callExtension, EXT_ARITY } from './extensions.js';
import { FormatError, sprintf } from './format.js';
import type { Interp } from './interp.js';
import { G } from './parser.js';
import { exec, type Rx } from './regex.js';
import { input, toNum, UNINIT, type Val } from './value.js';

const ARITY: Record<string, [number, number]> = {
  length: [0, 1], split: [2, 4], sub: [2, 3], gsub: [2, 3], match: [2, 3], substr: [2, 3], sprintf: [1, Infinity],
  index: [2, 2], tolower: [1, 1], toupper: [1, 1], int: [1, 1], sqrt: [1, 1], exp: [1, 1], log: [1, 1], sin: [1, 1],
  cos: [1, 1], atan2: [2, 2], rand: [0, 0], srand: [0, 1], system: [1, 1], close: [1, 2], fflush: [0, 1],
  gensub: [3, 4], ...EXT_ARITY,
};

export function callBuiltin(it: Interp, name: string, args: Expr[]): Val {
  const [lo, hi] = ARITY[name];
  if (args.length < lo || args.length > hi) it.fatal(`${name}: called with ${args.length} arguments`);
  const num = (i: number) => toNum(it.eval(args[i]));
  const str = (i: number) => it.str(it.eval(args[i]));
  switch (name) {
    case 'length': {
      if (args.length === 0) return chars.length(it.record);
      const a = args[0];
      if (a.k === 'var' && it.isArray(a.ref)) return it.array(a.ref).size;
      return chars.length(str(0));
    }
    case 'split':
      return split(it, args);
    case 'sub':
    case 'gsub':
      return substitute(it, args, name === 'gsub');
    case 'match': {
      const s = str(0);
      const rx = it.regex(args[1]);
      const m = exec(rx, s);
      const [start, len] = m ? chars.matchSpan(s, m[0], m[1]) : [0, -1];
      it.g[G.RSTART] = start;
      it.g[G.RLENGTH] = len;
      if (args.length === 3) {
        const a = args[2];
        if (a.k !== 'var') it.fatal('match: third argument is not an array');
        const arr = it.array(a.ref);
        arr.clear();
        if (m) {
          rx.re.lastIndex = m[0];
          const g = rx.re.exec(s)!;
          g.forEach((t, i) => {
            if (t === undefined) return;
            arr.set(String(i), input(i === 0 ? s.substr(m[0], m[1]) : t));
          });
        }
      }
      return start;
    }
    case 'substr':
      return chars.substr(str(0), num(1), args.length > 2 ? num(2) : undefined);
    case 'sprintf': {
      const vals = args.map((a) => it.eval(a));
      try {
        return sprintf(it.str(vals[0]), vals.slice(1), (v) => it.str(v));
      } catch (e) {
        if (e instanceof FormatError) it.fatal(e.message);
        throw e;
      }
    }
    case 'index': {
      const s = str(0);
      // IGNORECASE: compared as tolower sees them (ASCII letters in the C locale, characters in UTF-8), as gawk does.
      if (it.icase) return chars.index(chars.tolower(s), chars.tolower(str(1)));
      return chars.index(s, str(1));
    }
    case 'tolower':
      return chars.tolower(str(0));
    case 'toupper':
      return chars.toupper(str(0));
    case 'int':
      return Math.trunc(num(0));
    case 'sqrt':
      return Math.sqrt(num(0));
    case 'exp':
      return Math.exp(num(0));
    case 'log':
      return Math.log(num(0));
    case 'sin':
      return Math.sin(num(0));
    case 'cos':
      return Math.cos(num(0));
    case 'atan2': {
      const y = num(0);
      return Math.atan2(y, num(1));
    }
    case 'rand':
      return it.rand();
    case 'srand':
      return it.srand(args.length ? num(0) : Math.floor(Date.now() / 1000));
    case 'system':
      if (it.sandbox) it.fatal("'system' function not allowed in sandbox mode");
      return it.io.system(str(0));
    case 'close': {
      const r = it.io.close(str(0));
      if (r === -1) it.g[G.ERRNO] = 'close of redirection that was never opened';
      return r;
    }
    case 'fflush':
      return it.io.flush(args.length ? str(0) : undefined);
    case 'gensub':
      return gensub(it, args);
    default:
      return callExtension(it, name, args);
  }
}

function split(it: Interp, args: Expr[]): number {
  const s = it.str(it.eval(args[0]));
  const target = args[1];
  if (target.k !== 'var') it.fatal('split: second argument is not an array');
  let rx: Rx | undefined;
  let fs: string;
  if (args.length > 2) {
    const sep = args[2];
    if (sep.k === 're') {
      rx = it.regex(sep);
      fs = '';
    } else fs = it.str(it.eval(sep));
  } else fs = it.str(it.g[G.FS] as Val);
  const arr = it.array(target.ref);
  const parts: string[] = [];
  it.splitInto(s, fs, parts, false, rx);
  arr.clear();
  parts.forEach((p, i) => arr.set(String(i + 1), input(p)));
  return parts.length;
}

/** The replacement for one match: `&` is the match, `\&` a literal &, `\\` a backslash. */
function expand(repl: string, matched: string): string {
  if (!repl.includes('&') && !repl.includes('\\')) return repl;
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i];
    if (c === '\\' && (repl[i + 1] === '&' || repl[i + 1] === '\\')) {
      out += repl[++i];
    } else if (c === '&') out += matched;
    else out += c;
  }
  return out;
}

function substitute(it: Interp, args: Expr[], global: boolean): number {
  const rx = it.regex(args[0]);
  const repl = it.str(it.eval(args[1]));
  const target = args.length > 2 ? args[2] : null;
  if (target && target.k !== 'var' && target.k !== 'idx' && target.k !== 'field') it.fatal(`${global ? 'gsub' : 'sub'}: third argument is not a changeable object`);
  const s = target ? it.str(it.eval(target)) : it.record;
  let out = '';
  let pos = 0;
  let count = 0;
  let lastEnd = -1;
  let from = 0;
  while (from <= s.length) {
    const m = exec(rx, s, from);
    if (!m) break;
    const [at, len] = m;
    if (len === 0 && at === lastEnd) {
      // No empty match right after the previous match.
      if (at >= s.length) break;
      from = at + 1;
      continue;
    }
    out += s.slice(pos, at) + expand(repl, s.substr(at, len));
    count++;
    pos = at + len;
    lastEnd = pos;
    if (!global) break;
    if (len === 0) {
      if (at < s.length) out += s[at];
      pos = at + 1;
      from = at + 1;
    } else from = pos;
  }
  if (count === 0) return 0;
  out += s.slice(pos);
  if (target) it.assign(target as Extract<Expr, { k: 'var' | 'idx' | 'field' }>, out);
  else it.setRecord(out);
  return count;
}

function gensub(it: Interp, args: Expr[]): Val {
  const rx = it.regex(args[0]);
  const repl = it.str(it.eval(args[1]));
  const howV = it.eval(args[2]);
  const how = it.str(howV);
  const s = args.length > 3 ? it.str(it.eval(args[3])) : it.record;
  const global = typeof howV !== 'number' && /^[gG]/.test(how);
  const d = toNum(howV);
  if (!global && d <= 0) it.warn(`gensub: third argument \`${how}' treated as 1`);
  const which = global ? 0 : Math.max(1, Math.trunc(d) || 1);
  let out = '';
  let pos = 0;
  let n = 0;
  let from = 0;
  let lastEnd = -1;
  while (from <= s.length) {
    rx.re.lastIndex = from;
    const g = rx.re.exec(s);
    if (!g) break;
    const m = exec(rx, s, from)!;
    const [at, len] = m;
    if (len === 0 && at === lastEnd) {
      if (at >= s.length) break;
      from = at + 1;
      continue;
    }
    n++;
    if (global || n === which) {
      let r = '';
      for (let i = 0; i < repl.length; i++) {
        const c = repl[i];
        if (c === '\\' && /[0-9]/.test(repl[i + 1] ?? '')) {
          const k = Number(repl[++i]);
          r += k === 0 ? s.substr(at, len) : (g[k] ?? '');
        } else if (c === '\\') {
          // \& \\ and \q are the character; gawk turns a trailing backslash into a NUL.
          r += i + 1 < repl.length ? repl[++i] : '\0';
        } else if (c === '&') r += s.substr(at, len);
        else r += c;
      }
      out += s.slice(pos, at) + r;
      pos = at + len;
      if (!global) break;
    }
    lastEnd = at + len;
    if (len === 0) {
      from = at + 1;
    } else from = at + len;
  }
  out += s.slice(pos);
  return out === s && n === 0 ? s : out;
}

export { UNINIT };
