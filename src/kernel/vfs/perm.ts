// Unix permission checks (no ACLs): owner bits, else group bits, else other bits.
// Root bypasses everything except exec of a file with no x bit at all.

import { Errno, SysError } from '../../abi/errno.js';
import { isDir } from '../../abi/stat.js';
import type { Cred, Inode } from './types.js';

export const MAY_EXEC = 1;
export const MAY_WRITE = 2;
export const MAY_READ = 4;

export function inGroup(cred: Cred, gid: number): boolean {
  return cred.gid === gid || cred.groups.includes(gid);
}

/** True if `cred` may access `inode` for every bit of `mask` (MAY_*). */
export function allowed(cred: Cred, inode: Inode, mask: number): boolean {
  if (cred.uid === 0) return !(mask & MAY_EXEC) || isDir(inode.mode) || (inode.mode & 0o111) !== 0;
  const bits = cred.uid === inode.uid ? inode.mode >> 6 : inGroup(cred, inode.gid) ? inode.mode >> 3 : inode.mode;
  return (bits & mask & 7) === (mask & 7);
}

export function checkPermission(cred: Cred, inode: Inode, mask: number): void {
  if (!allowed(cred, inode, mask)) throw new SysError(Errno.EACCES);
}

/** Owner or root: may chmod, set explicit times, etc. */
export const isOwner = (cred: Cred, inode: Inode): boolean => cred.uid === 0 || cred.uid === inode.uid;
