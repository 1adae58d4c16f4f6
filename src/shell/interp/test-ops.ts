// The operators shared by `test`/`[` and `[[ ]]`: file tests, string and integer comparisons.

import type { Stat } from '../../abi/stat.js';
import { expandWord } from '../expand/index.js';
import { parseSubscript } from '../syntax/index.js';
import { expandContext } from './context.js';
import type { Shell } from './shell.js';
import { ShellError } from '../errors.js';

export const UNARY = new Set(['-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x', '-G', '-L', '-N', '-O', '-S', '-z', '-n', '-o', '-v', '-R']);
export const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

function stat(sh: Shell, path: string, follow = true): Stat | null {
  if (path === '') return null;
  try {
    return follow ? sh.sys.stat(path) : sh.sys.lstat(path);
  } catch {
    return null;
  }
}

function access(sh: Shell, path: string, mode: number): boolean {
  if (path === '') return false;
  try {
    sh.sys.access(path, mode);
    return true;
  } catch {
    return false;
  }
}

const T = (mode: number, type: number) => (mode & 0o170000) === type;

export function unaryTest(sh: Shell, op: string, arg: string): boolean {
  switch (op) {
    case '-z':
      return arg === '';
    case '-n':
      return arg !== '';
    case '-e':
    case '-a':
      return stat(sh, arg) !== null;
    case '-f':
      return T(stat(sh, arg)?.mode ?? 0, 0o100000);
    case '-d':
      return T(stat(sh, arg)?.mode ?? 0, 0o040000);
    case '-b':
      return T(stat(sh, arg)?.mode ?? 0, 0o060000);
    case '-c':
      return T(stat(sh, arg)?.mode ?? 0, 0o020000);
    case '-p':
      return T(stat(sh, arg)?.mode ?? 0, 0o010000);
    case '-S':
      return T(stat(sh, arg)?.mode ?? 0, 0o140000);
    case '-h':
    case '-L':
      return T(stat(sh, arg, false)?.mode ?? 0, 0o120000);
    case '-s':
      return (stat(sh, arg)?.size ?? 0) > 0;
    case '-g':
      return ((stat(sh, arg)?.mode ?? 0) & 0o2000) !== 0;
    case '-u':
      return ((stat(sh, arg)?.mode ?? 0) & 0o4000) !== 0;
    case '-k':
      return ((stat(sh, arg)?.mode ?? 0) & 0o1000) !== 0;
    case '-r':
      return access(sh, arg, 4);
    case '-w':
      return access(sh, arg, 2);
    case '-x':
      return access(sh, arg, 1);
    case '-O':
      return stat(sh, arg)?.uid === sh.sys.getuid();
    case '-G':
      return stat(sh, arg)?.gid === sh.sys.getgid();
    case '-N': {
      const st = stat(sh, arg);
      return !!st && st.mtimeMs > st.atimeMs;
    }
    case '-t':
      try {
        return sh.sys.isatty(Number(arg));
      } catch {
        return false;
      }
    case '-o':
      return sh.opts.on(arg as never);
    case '-v':
      return isVarSet(sh, arg);
    case '-R':
      return false;
    default:
      throw new ShellError(`${op}: unary operator expected`, 2);
  }
}

function isVarSet(sh: Shell, ref: string): boolean {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?$/.exec(ref);
  if (!m) return false;
  if (m[2] === undefined) return sh.vars.isSet(m[1]);
  if (m[2] === '@' || m[2] === '*') return sh.vars.values(m[1]).length > 0;
  return sh.vars.getIndex(m[1], expandWord(parseSubscript(m[2]), expandContext(sh))) !== undefined;
}

export function toInt(text: string, sh: Shell, arith: boolean): number {
  const t = text.trim();
  // [[ -eq ]] operands are arithmetic: 017 is octal there, 17 decimal for test.
  if (arith) return sh.vars.arith(t);
  if (/^[+-]?\d+$/.test(t)) return Number(t);
  throw new ShellError(`${text}: integer expression expected`, 2);
}

/** Binary operators except the pattern ones ([[ == ]] / =~ are handled by cond.ts). */
export function binaryTest(sh: Shell, op: string, l: string, r: string, arith = false): boolean {
  switch (op) {
    case '=':
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '-eq':
      return toInt(l, sh, arith) === toInt(r, sh, arith);
    case '-ne':
      return toInt(l, sh, arith) !== toInt(r, sh, arith);
    case '-lt':
      return toInt(l, sh, arith) < toInt(r, sh, arith);
    case '-le':
      return toInt(l, sh, arith) <= toInt(r, sh, arith);
    case '-gt':
      return toInt(l, sh, arith) > toInt(r, sh, arith);
    case '-ge':
      return toInt(l, sh, arith) >= toInt(r, sh, arith);
    case '-nt': {
      const a = stat(sh, l), b = stat(sh, r);
      return !!a && (!b || a.mtimeMs > b.mtimeMs);
    }
    case '-ot': {
      const a = stat(sh, l), b = stat(sh, r);
      return !!b && (!a || a.mtimeMs < b.mtimeMs);
    }
    case '-ef': {
      const a = stat(sh, l), b = stat(sh, r);
      return !!a && !!b && a.dev === b.dev && a.ino === b.ino;
    }
    default:
      throw new ShellError(`${op}: binary operator expected`, 2);
  }
}
