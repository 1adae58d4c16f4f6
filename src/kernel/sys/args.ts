// Argument checking for syscall handlers: a wrong type is the guest's EFAULT/EINVAL, never a kernel crash.

import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { AT_FDCWD } from '../../abi/fcntl.js';
import { isDir } from '../../abi/stat.js';
import type { Process } from '../process.js';
import type { Inode } from '../vfs/types.js';

export function str(a: Value[], i: number): string {
  const v = a[i];
  if (typeof v !== 'string') throw new SysError(Errno.EFAULT, `argument ${i} must be a string`);
  return v;
}

export function int(a: Value[], i: number, dflt?: number): number {
  const v = a[i];
  if ((v === undefined || v === null) && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SysError(Errno.EINVAL, `argument ${i} must be a number`);
  return Math.trunc(v);
}

/** A time in ms, or null for "now". */
export function msOrNow(a: Value[], i: number): number | null {
  return a[i] === null || a[i] === undefined ? null : int(a, i);
}

export function bytes(a: Value[], i: number): Uint8Array {
  const v = a[i];
  if (!(v instanceof Uint8Array)) throw new SysError(Errno.EFAULT, `argument ${i} must be bytes`);
  return v;
}

export function strList(a: Value[], i: number): string[] {
  const v = a[i];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
    throw new SysError(Errno.EFAULT, `argument ${i} must be a list of strings`);
  }
  return v as string[];
}

/** The directory a relative path starts from: cwd, or the directory open at `dirfd`. */
export function baseDir(p: Process, dirfd: number): Inode {
  if (dirfd === AT_FDCWD) return p.cwd;
  const f = p.fds.get(dirfd);
  if (!isDir(f.inode.mode)) throw new SysError(Errno.ENOTDIR);
  return f.inode;
}
