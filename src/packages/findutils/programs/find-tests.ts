// find's tests: name, path, type, size, times, permissions, owners, emptiness.

import { strerror, SysError } from '../../../abi/errno.js';
import { S_IFMT, S_IFDIR, S_IFREG, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, type Stat } from '../../../abi/stat.js';
import { applyMode, baseName, groups, quote, users } from '../../../userland/lib/index.js';
import { encode } from '../../../userland/lib/utf8.js';
import { fnmatch } from '../../../userland/lib/glob.js';
import { FindError, type Entry, type FindState, type Node } from './find-types.js';

export const TYPE_BITS: Record<string, number> = {
  f: S_IFREG, d: S_IFDIR, l: S_IFLNK, c: S_IFCHR, b: S_IFBLK, p: S_IFIFO, s: S_IFSOCK,
};

const foldAscii = (s: string) => s.replace(/[A-Z]+/g, (x) => x.toLowerCase());

/**
 * fnmatch in the locale: over bytes in the C locale, where `?` is one byte and
 * -iname folds ASCII letters only. In UTF-8, GNU find matches a name over its
 * characters or, failing that, over its bytes: `?` and `????` both match a
 * 4-byte character (and `??` does not).
 */
function globTest(glob: string, fold: boolean, utf8: boolean): (s: string) => boolean {
  const bytes = (x: string) => (fold ? foldAscii(encode(x)) : encode(x));
  const g = bytes(glob);
  const ascii = (x: string) => !/[\x80-\uffff]/.test(x);
  const byByte = (s: string) => (ascii(glob) && ascii(s) ? fnmatch(glob, s, fold) : fnmatch(g, bytes(s)));
  return utf8 ? (s) => fnmatch(glob, s, fold) || (!ascii(s) && byByte(s)) : byByte;
}

/** -name matches the last component, trailing slashes ignored ("/" stays "/"). */
export function nameTest(glob: string, fold: boolean, utf8: boolean): Node {
  const test = globTest(glob, fold, utf8);
  return (e) => test(baseName(e.path));
}

export function pathTest(glob: string, fold: boolean, utf8: boolean): Node {
  const test = globTest(glob, fold, utf8);
  return (e) => test(e.path);
}

export function typeTest(arg: string): Node {
  const bits: number[] = [];
  for (const t of arg.split(',')) {
    if (!(t in TYPE_BITS)) {
      if (t.length > 1 && !arg.includes(',')) throw new FindError(`Must separate multiple arguments to -type using: ','`);
      throw new FindError(`Unknown argument to -type: ${t}`);
    }
    bits.push(TYPE_BITS[t]);
  }
  return (e) => {
    const st = e.stat();
    return st !== null && bits.includes(st.mode & S_IFMT);
  };
}

/** A numeric argument with GNU's +N (more than), -N (less than), N (exactly). */
export interface Num {
  cmp: '+' | '-' | '=';
  n: number;
}

export function parseNum(arg: string, pred: string, float = false): Num {
  const m = (float ? /^([+-]?)(\d+(?:\.\d*)?|\.\d+)$/ : /^([+-]?)(\d+)$/).exec(arg);
  if (!m) throw new FindError(`invalid argument \`${arg}' to \`${pred}'`);
  return { cmp: (m[1] || '=') as Num['cmp'], n: Number(m[2]) };
}

export const compare = (v: number, a: Num): boolean => (a.cmp === '+' ? v > a.n : a.cmp === '-' ? v < a.n : v === a.n);

const SIZE_UNITS: Record<string, number> = { b: 512, c: 1, w: 2, k: 1024, M: 1 << 20, G: 1 << 30 };

export function sizeTest(arg: string): Node {
  const m = /^([+-]?\d+)(.?)$/.exec(arg);
  if (!m) throw new FindError(`invalid -size type \`${arg.slice(-1)}'`);
  const unit = SIZE_UNITS[m[2] || 'b'];
  if (unit === undefined) throw new FindError(`invalid -size type \`${m[2]}'`);
  const want = parseNum(m[1], '-size');
  // Sizes round up to whole units, so -size -1M matches only empty files.
  return (e) => {
    const st = e.stat();
    return st !== null && compare(Math.ceil(st.size / unit), want);
  };
}

/** -mtime/-mmin and friends: age in whole units, rounded down (as GNU does for days). */
export function ageTest(s: FindState, arg: string, pred: string, field: 'mtimeMs' | 'atimeMs' | 'ctimeMs', unitMs: number): Node {
  const want = parseNum(arg, pred, unitMs === 60_000);
  return (e) => {
    const st = e.stat();
    if (st === null) return false;
    const age = (s.now - st[field]) / unitMs;
    if (unitMs === 60_000) {
      // -mmin compares the exact age for + and -, whole minutes (rounded up) for N.
      if (want.cmp === '=') return Math.ceil(age) === want.n;
      return compare(age, want);
    }
    return compare(Math.floor(age), want);
  };
}

export function newerTest(s: FindState, file: string): Node {
  let ref: Stat;
  try {
    ref = s.follow === 'P' ? s.cmd.sys.lstat(file) : s.cmd.sys.stat(file);
  } catch (e) {
    if (e instanceof SysError) throw new FindError(`${quote(file)}: ${strerror(e.errno)}`);
    throw e;
  }
  return (e) => {
    const st = e.stat();
    return st !== null && st.mtimeMs > ref.mtimeMs;
  };
}

export function permTest(arg: string, warn: (m: string) => void): Node {
  const how = arg[0] === '-' || arg[0] === '/' ? arg[0] : '=';
  const spec = how === '=' ? arg : arg.slice(1);
  const mode = spec === '' ? null : applyMode(spec, 0, false, 0);
  if (mode === null) throw new FindError(`invalid mode ${quote(arg)}`);
  if (how === '/' && mode === 0) {
    const zeros = '0'.repeat(3);
    warn(`warning: you have specified a mode pattern ${arg} (which is equivalent to /${zeros}). The meaning of -perm /${zeros} has now been changed to be consistent with -perm -${zeros}; that is, while it used to match no files, it now matches all files.`);
  }
  return (e) => {
    const st = e.stat();
    if (st === null) return false;
    const m = st.mode & 0o7777;
    if (how === '-') return (m & mode) === mode;
    if (how === '/') return mode === 0 || (m & mode) !== 0;
    return m === mode;
  };
}

export function ownerTest(s: FindState, arg: string, kind: 'user' | 'group'): Node {
  const list = kind === 'user' ? users(s.cmd.sys) : groups(s.cmd.sys);
  let id = list.find((u) => u.name === arg)?.id;
  if (id === undefined && /^\d+$/.test(arg)) id = Number(arg);
  if (id === undefined) {
    if (arg === '') throw new FindError(`The argument to -${kind} should not be empty`);
    throw new FindError(kind === 'user' ? `${quote(arg)} is not the name of a known user` : `${quote(arg)} is not the name of an existing group`);
  }
  const want = id;
  return (e) => {
    const st = e.stat();
    return st !== null && (kind === 'user' ? st.uid : st.gid) === want;
  };
}

export function emptyTest(e: Entry): boolean {
  const st = e.stat();
  if (st === null) return false;
  const t = st.mode & S_IFMT;
  if (t === S_IFREG) return st.size === 0;
  if (t !== S_IFDIR) return false;
  try {
    return e.cmd.sys.readdir(e.path).every((d) => d.name === '.' || d.name === '..');
  } catch {
    return false;
  }
}
