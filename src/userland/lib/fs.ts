// Small filesystem helpers shared by the file commands.

import { Errno, SysError } from '../../abi/errno.js';
import { S_IFMT, S_IFDIR, S_IFLNK, S_IFREG, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, type Stat } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';

export function tryLstat(sys: Sys, path: string): Stat | null {
  try {
    return sys.lstat(path);
  } catch (e) {
    if (e instanceof SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR)) return null;
    throw e;
  }
}

export function tryStat(sys: Sys, path: string): Stat | null {
  try {
    return sys.stat(path);
  } catch (e) {
    if (e instanceof SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR || e.errno === Errno.ELOOP)) return null;
    throw e;
  }
}

export const errnoOf = (e: unknown): number => (e instanceof SysError ? e.errno : 0);

/** Join a directory and a name without doubling slashes. */
export function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

/** basename(1) semantics: trailing slashes ignored; "/" stays "/". */
export function baseName(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return p === '' ? '' : '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

/** dirname(1) semantics. */
export function dirName(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return p.startsWith('/') ? '/' : '.';
  const i = t.lastIndexOf('/');
  if (i < 0) return '.';
  const d = t.slice(0, i).replace(/\/+$/, '');
  return d === '' ? (t.startsWith('//') && !t.slice(2).includes('/') ? '//' : '/') : d;
}

/** The 10-character mode string of ls -l (`drwxr-xr-x`). */
export function modeString(mode: number): string {
  const types: Record<number, string> = {
    [S_IFREG]: '-', [S_IFDIR]: 'd', [S_IFLNK]: 'l', [S_IFCHR]: 'c', [S_IFBLK]: 'b', [S_IFIFO]: 'p', [S_IFSOCK]: 's',
  };
  const t = types[mode & S_IFMT] ?? '?';
  const rwx = (bits: number, special: boolean, ch: string) =>
    (bits & 4 ? 'r' : '-') + (bits & 2 ? 'w' : '-') + (special ? (bits & 1 ? ch : ch.toUpperCase()) : bits & 1 ? 'x' : '-');
  return (
    t +
    rwx((mode >> 6) & 7, (mode & 0o4000) !== 0, 's') +
    rwx((mode >> 3) & 7, (mode & 0o2000) !== 0, 's') +
    rwx(mode & 7, (mode & 0o1000) !== 0, 't')
  );
}

/** stat %F names. */
export function fileTypeName(mode: number, size: number): string {
  switch (mode & S_IFMT) {
    case S_IFREG: return size === 0 ? 'regular empty file' : 'regular file';
    case S_IFDIR: return 'directory';
    case S_IFLNK: return 'symbolic link';
    case S_IFCHR: return 'character special file';
    case S_IFBLK: return 'block special file';
    case S_IFIFO: return 'fifo';
    case S_IFSOCK: return 'socket';
    default: return 'weird file';
  }
}

/** Human-readable sizes as ls -h prints them (powers of 1024, one decimal below 10, rounded up). */
export function humanSize(n: number): string {
  if (n < 1024) return String(n);
  const units = 'KMGTPE';
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (v < 10) {
    const r = Math.ceil(v * 10) / 10;
    if (r < 10) return `${r.toFixed(1)}${units[u]}`;
    v = r;
  }
  const r = Math.ceil(v);
  if (r >= 1024 && u < units.length - 1) return `1.0${units[u + 1]}`;
  return `${r}${units[u]}`;
}
