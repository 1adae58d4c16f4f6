// Argument checking for syscall handlers: a wrong type is the guest's EFAULT/EINVAL, never a kernel crash.

import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { AT_FDCWD } from '../../abi/fcntl.js';
import { isDir } from '../../abi/stat.js';
import type { Process } from '../process.js';
import type { Inode } from '../vfs/types.js';

declare const signature: unique symbol;

/**
 * A syscall's arguments as they arrived: whatever the process sent, to be
 * checked here, but labelled (at compile time only) with the signature `A`
 * they should have (abi/syscall-types.ts). The readers below take only an
 * index whose type in `A` is what they read, so a handler and the signature
 * table cannot drift apart.
 */
export type Args<A extends readonly unknown[] = readonly unknown[]> = Value[] & { readonly [signature]?: A };

/** The indexes of `A` (a tuple, or a union of tuples) whose type, absent aside, is `T`. */
export type IndexOf<A extends readonly unknown[], T> = {
  [K in keyof A]-?: K extends `${infer I extends number}` ? (Exclude<A[K], undefined> extends T ? I : never) : never;
}[number];

export function str<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, string>): string {
  const v: Value = a[i];
  if (typeof v !== 'string') throw new SysError(Errno.EFAULT, `argument ${i} must be a string`);
  return v;
}

export function int<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, number>, dflt?: number): number {
  const v: Value = a[i];
  if ((v === undefined || v === null) && dflt !== undefined) return dflt;
  return integer(v, i);
}

/** A time in ms, or null for "now". */
export function msOrNow<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, number | null>): number | null {
  const v: Value = a[i];
  return v === null || v === undefined ? null : integer(v, i);
}

function integer(v: Value, i: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SysError(Errno.EINVAL, `argument ${i} must be a number`);
  return Math.trunc(v);
}

export function bytes<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, Uint8Array>): Uint8Array {
  const v: Value = a[i];
  if (!(v instanceof Uint8Array)) throw new SysError(Errno.EFAULT, `argument ${i} must be bytes`);
  return v;
}

export function strList<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, string[]>): string[] {
  const v: Value = a[i];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
    throw new SysError(Errno.EFAULT, `argument ${i} must be a list of strings`);
  }
  return v as string[];
}

/** Argument `i` unchecked, for a handler that checks its shape itself (an object, a list of pairs). */
export function arg<A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, unknown>): Value {
  return a[i];
}

/** An object argument of type `T` as it arrived: `T`'s field names, each value still to be checked. */
export type Fields<T> = { readonly [K in keyof T]-?: Value };

/** The fields of an object argument of type `T`; EFAULT (with `detail`) when it is not a plain object. */
export function fields<T extends object>(v: Value, detail?: string): Fields<T> {
  if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) throw new SysError(Errno.EFAULT, detail);
  return v as Fields<T>;
}

/** The directory a relative path starts from: cwd, or the directory open at `dirfd`. */
export function baseDir(p: Process, dirfd: number): Inode {
  if (dirfd === AT_FDCWD) return p.cwd;
  const f = p.fds.get(dirfd);
  if (!isDir(f.inode.mode)) throw new SysError(Errno.ENOTDIR);
  return f.inode;
}
