// Set-user-ID root programs (sudo, su): exec of a root-owned file with
// S_ISUID runs it with root as its effective user, the caller staying its
// real user. It is the only way a guest becomes root, and the policy can
// close it (processes.sudo: false: like a nosuid mount, the bit is ignored).
//
// Programs here are #! scripts that their runtime re-opens by path, so the
// kernel hands the interpreter the file's canonical path and honours the bit
// only when nobody but root can change what that path names: the file and
// every directory above it are root's and not writable by group or others.
// Between the check and the runtime's open, no other guest can swap it.

import { isDir, S_ISUID } from '../abi/stat.js';
import type { Cred, Inode } from './vfs/types.js';
import type { Vfs } from './vfs/vfs.js';

const KERNEL: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };

const rootOnly = (inode: Inode): boolean => inode.uid === 0 && (inode.mode & 0o022) === 0;

/** Is `inode`, at canonical `path`, a set-user-ID root program whose path only root controls? */
export function isSetuidRoot(vfs: Vfs, inode: Inode, path: string): boolean {
  if (!(inode.mode & S_ISUID) || !rootOnly(inode)) return false;
  const parts = path.split('/').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    let dir: Inode;
    try {
      dir = vfs.namei.resolve(KERNEL, vfs.root(), '/' + parts.slice(0, i).join('/'), false).inode;
    } catch {
      return false;
    }
    if (!isDir(dir.mode) || !rootOnly(dir)) return false;
  }
  return true;
}
