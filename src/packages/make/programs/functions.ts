// make's built-in functions. Each takes its arguments unexpanded (split at
// top-level commas, at most `max` of them) and expands what it needs: most
// expand all of them, `if`/`and`/`or`/`foreach` only what they choose.

import { Errno, strerror } from '../../../abi/errno.js';
import { O_APPEND, O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { canonPath, cwdOf } from './paths.js';
import type { Make } from './context.js';
import { expand } from './expand.js';
import { glob } from './glob.js';
import { evalText } from './read.js';
import { shellOutput } from './shell.js';
import { dirPart, matchPattern, notdirPart, patsubstWord, suffixOf, words } from './text.js';
import { Scope } from './vars.js';

interface Fn {
  min: number;
  max: number;
  run(mk: Make, args: string[], scope: Scope): string;
}

/** A function whose arguments are all expanded first. */
const fx = (min: number, max: number, f: (mk: Make, a: string[], scope: Scope) => string): Fn => ({
  min,
  max,
  run: (mk, args, scope) => f(mk, args.map((a) => expand(mk, a, scope)), scope),
});

const mapWords = (s: string, f: (w: string) => string): string => words(s).map(f).join(' ');

function filterFn(keep: boolean) {
  return fx(2, 2, (_mk, [pats, text]) => {
    const ps = words(pats);
    return words(text).filter((w) => ps.some((p) => matchPattern(p, w) !== null) === keep).join(' ');
  });
}

function wordIndex(mk: Make, s: string, fn: string, which: string): number {
  const t = s.trim();
  if (!/^-?\d+$/.test(t)) mk.fatal(`non-numeric ${which} argument to '${fn}' function: '${t}'`);
  return Number(t);
}

function realpath(mk: Make, w: string): string | null {
  try {
    return mk.sys.realpath(w);
  } catch {
    return null;
  }
}

/** Bind `name` to each value in turn in a scope of its own, as foreach and call do. */
function withVars(scope: Scope, vars: [string, string][]): Scope {
  const s = new Scope(scope);
  for (const [k, v] of vars) s.vars.set(k, { value: v, flavor: 'simple', origin: 'automatic' });
  return s;
}

export const FUNCTIONS: Record<string, Fn> = {
  subst: fx(3, 3, (_mk, [from, to, text]) => (from === '' ? text + to : text.split(from).join(to))),
  patsubst: fx(3, 3, (_mk, [pat, rep, text]) => mapWords(text, (w) => patsubstWord(pat, rep, w))),
  strip: fx(1, 1, (_mk, [t]) => words(t).join(' ')),
  findstring: fx(2, 2, (_mk, [f, t]) => (t.includes(f) ? f : '')),
  filter: filterFn(true),
  'filter-out': filterFn(false),
  sort: fx(1, 1, (_mk, [t]) => [...new Set(words(t))].sort().join(' ')),
  word: fx(2, 2, (mk, [n, t]) => {
    const i = wordIndex(mk, n, 'word', 'first');
    if (i < 1) mk.fatal(`first argument to 'word' function must be greater than 0`);
    return words(t)[i - 1] ?? '';
  }),
  wordlist: fx(3, 3, (mk, [s, e, t]) => {
    const a = wordIndex(mk, s, 'wordlist', 'first');
    const b = wordIndex(mk, e, 'wordlist', 'second');
    if (a < 1) mk.fatal(`invalid first argument to 'wordlist' function: '${a}'`);
    return words(t).slice(a - 1, Math.max(b, 0)).join(' ');
  }),
  words: fx(1, 1, (_mk, [t]) => String(words(t).length)),
  firstword: fx(1, 1, (_mk, [t]) => words(t)[0] ?? ''),
  lastword: fx(1, 1, (_mk, [t]) => words(t).at(-1) ?? ''),
  dir: fx(1, 1, (_mk, [t]) => mapWords(t, dirPart)),
  notdir: fx(1, 1, (_mk, [t]) => mapWords(t, notdirPart)),
  suffix: fx(1, 1, (_mk, [t]) => words(t).map(suffixOf).filter((s) => s !== null).join(' ')),
  basename: fx(1, 1, (_mk, [t]) => mapWords(t, (w) => {
    const s = suffixOf(w);
    return s === null ? w : w.slice(0, w.length - s.length);
  })),
  addsuffix: fx(2, 2, (_mk, [s, t]) => mapWords(t, (w) => w + s)),
  addprefix: fx(2, 2, (_mk, [p, t]) => mapWords(t, (w) => p + w)),
  join: fx(2, 2, (_mk, [a, b]) => {
    const x = words(a);
    const y = words(b);
    return Array.from({ length: Math.max(x.length, y.length) }, (_, i) => (x[i] ?? '') + (y[i] ?? '')).join(' ');
  }),
  wildcard: fx(1, 1, (mk, [t]) => words(t).flatMap((p) => glob(mk.sys, p)).join(' ')),
  realpath: fx(1, 1, (mk, [t]) => words(t).map((w) => realpath(mk, w)).filter((w) => w !== null).join(' ')),
  abspath: fx(1, 1, (mk, [t]) => mapWords(t, (w) => canonPath(w.startsWith('/') ? w : `${cwdOf(mk)}/${w}`))),
  if: {
    min: 2,
    max: 3,
    run: (mk, [c, a, b], scope) => (expand(mk, c.trim(), scope).trim() !== '' ? expand(mk, a, scope) : b === undefined ? '' : expand(mk, b, scope)),
  },
  or: {
    min: 1,
    max: Infinity,
    run: (mk, args, scope) => {
      for (const a of args) {
        const v = expand(mk, a.trim(), scope).trim();
        if (v !== '') return v;
      }
      return '';
    },
  },
  and: {
    min: 1,
    max: Infinity,
    run: (mk, args, scope) => {
      let v = '';
      for (const a of args) {
        v = expand(mk, a.trim(), scope).trim();
        if (v === '') return '';
      }
      return v;
    },
  },
  foreach: {
    min: 3,
    max: 3,
    run: (mk, [v, list, text], scope) => {
      const name = expand(mk, v, scope).trim();
      return words(expand(mk, list, scope)).map((w) => expand(mk, text, withVars(scope, [[name, w]]))).join(' ');
    },
  },
  call: {
    min: 1,
    max: Infinity,
    run: (mk, args, scope) => {
      const ex = args.map((a) => expand(mk, a, scope));
      const name = ex[0].trim();
      // A built-in function's name calls it (its arguments are already expanded: keep them literal).
      const fn = FUNCTIONS[name];
      if (fn) return fn.run(mk, ex.slice(1).map((a) => a.replace(/\$/g, '$$$$')), scope);
      const hit = scope.lookup(name);
      if (!hit) return '';
      const bound: [string, string][] = ex.map((a, i) => [String(i), i === 0 ? name : a]);
      // Parameters the caller did not pass are empty, not the outer call's.
      for (let i = ex.length; i < 10; i++) bound.push([String(i), '']);
      const inner = withVars(scope, bound);
      return hit.v.flavor === 'simple' ? hit.v.value : expand(mk, hit.v.value, inner);
    },
  },
  value: fx(1, 1, (_mk, [n], scope) => scope.lookup(n.trim())?.v.value ?? ''),
  eval: fx(1, 1, (mk, [t]) => {
    evalText(mk, t);
    return '';
  }),
  origin: fx(1, 1, (_mk, [n], scope) => {
    const hit = scope.lookup(n.trim());
    return hit ? hit.v.origin : 'undefined';
  }),
  flavor: fx(1, 1, (_mk, [n], scope) => {
    const hit = scope.lookup(n.trim());
    return hit ? hit.v.flavor : 'undefined';
  }),
  shell: fx(1, 1, (mk, [cmd]) => shellOutput(mk, cmd)),
  file: fx(1, 2, (mk, [op, text]) => fileFunction(mk, op.trim(), text)),
  info: fx(1, 1, (mk, [t]) => {
    mk.out(`${t}\n`);
    return '';
  }),
  warning: fx(1, 1, (mk, [t]) => {
    mk.warnAt(t);
    return '';
  }),
  error: fx(1, 1, (mk, [t]) => mk.fatal(t)),
};

/** $(file >F,TEXT), $(file >>F,TEXT), $(file <F): write or append TEXT and a newline, or read F (one final newline dropped). */
function fileFunction(mk: Make, op: string, text: string | undefined): string {
  const m = /^(>>|>|<)\s*(.*)$/.exec(op);
  if (!m || m[2] === '') mk.fatal(m ? 'file: missing filename' : `file: invalid file operation: ${op}`);
  const [, mode, name] = m;
  try {
    if (mode === '<') {
      if (text !== undefined) mk.fatal('file: too many arguments');
      return new TextDecoder().decode(mk.sys.readFile(name)).replace(/\n$/, '');
    }
    const data = text === undefined ? '' : text.endsWith('\n') ? text : `${text}\n`;
    const fd = mk.sys.open(name, O_WRONLY | O_CREAT | (mode === '>>' ? O_APPEND : O_TRUNC), 0o666);
    try {
      mk.sys.writeAll(fd, data);
    } finally {
      mk.sys.close(fd);
    }
    return '';
  } catch (e) {
    if (!(e instanceof mk.os.SysError)) throw e;
    if (mode === '<' && e.errno === Errno.ENOENT) return '';
    return mk.fatal(`open: ${name}: ${strerror(e.errno)}`);
  }
}
