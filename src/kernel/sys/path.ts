// Syscalls that name files by path: stat, mkdir, link, rename, chdir, ...
// Each optional trailing `dirfd` argument makes it the *at() variant.

import { Errno, SysError } from '../../abi/errno.js';
import { AT_FDCWD } from '../../abi/fcntl.js';
import { isDir, isReg, S_IFIFO, S_IFMT } from '../../abi/stat.js';
import { MemFs } from '../fs/memfs.js';
import type { Kernel } from '../kernel.js';
import type { Call, Handler } from '../syscall.js';
import type { Inode } from '../vfs/types.js';
import type { WaitQueue } from '../waitqueue.js';
import { arg, type Args, baseDir, type IndexOf, int, msOrNow, str } from './args.js';
import { settle } from './settle.js';

/** The dirfd argument at `i`: AT_FDCWD when absent. */
const at = <A extends readonly unknown[]>(a: Args<A>, i: IndexOf<A, number>) => int(a, i, AT_FDCWD);

export const stat: Handler<'stat'> = (k, p, a) => k.vfs.stat(p.cred, baseDir(p, at(a, 1)), str(a, 0), true);
export const lstat: Handler<'lstat'> = (k, p, a) => k.vfs.stat(p.cred, baseDir(p, at(a, 1)), str(a, 0), false);

export const mkdir: Handler<'mkdir'> = (k, p, a) => {
  k.vfs.mkdir(p.cred, baseDir(p, at(a, 2)), str(a, 0), int(a, 1, 0o777));
  return 0;
};

/** mknod(path, mode, rdev); mode's type bits pick FIFO, char device or regular file. */
export const mknod: Handler<'mknod'> = (k, p, a) => {
  const mode = int(a, 1);
  k.vfs.mknod(p.cred, baseDir(p, at(a, 3)), str(a, 0), mode & S_IFMT ? mode : mode | S_IFIFO, int(a, 2, 0));
  return 0;
};

export const symlink: Handler<'symlink'> = (k, p, a) => {
  k.vfs.symlink(p.cred, baseDir(p, at(a, 2)), str(a, 0), str(a, 1));
  return 0;
};

export const readlink: Handler<'readlink'> = (k, p, a) => k.vfs.readlink(p.cred, baseDir(p, at(a, 1)), str(a, 0));

export const link: Handler<'link'> = (k, p, a) => {
  k.vfs.link(p.cred, baseDir(p, at(a, 2)), str(a, 0), baseDir(p, at(a, 3)), str(a, 1));
  return 0;
};

export const unlink: Handler<'unlink'> = (k, p, a) => {
  const base = baseDir(p, at(a, 1));
  k.vfs.unlink(p.cred, base, str(a, 0));
  k.policy.removed(p, base, str(a, 0));
  return 0;
};

export const rmdir: Handler<'rmdir'> = (k, p, a) => {
  const base = baseDir(p, at(a, 1));
  k.vfs.rmdir(p.cred, base, str(a, 0));
  k.policy.removed(p, base, str(a, 0));
  return 0;
};

export const rename: Handler<'rename'> = (k, p, a) => {
  const [obase, nbase] = [baseDir(p, at(a, 2)), baseDir(p, at(a, 3))];
  k.vfs.rename(p.cred, obase, str(a, 0), nbase, str(a, 1));
  k.policy.removed(p, obase, str(a, 0), { base: nbase, path: str(a, 1) });
  return 0;
};

export const chmod: Handler<'chmod'> = (k, p, a) => {
  k.vfs.chmod(p.cred, baseDir(p, at(a, 2)), str(a, 0), int(a, 1));
  return 0;
};

export const chown: Handler<'chown'> = (k, p, a) => {
  k.vfs.chown(p.cred, baseDir(p, at(a, 3)), str(a, 0), int(a, 1), int(a, 2), true);
  return 0;
};

export const lchown: Handler<'lchown'> = (k, p, a) => {
  k.vfs.chown(p.cred, baseDir(p, at(a, 3)), str(a, 0), int(a, 1), int(a, 2), false);
  return 0;
};

/** utimes(path, atimeMs|null, mtimeMs|null[, follow=true[, dirfd]]); null means now. */
export const utimes: Handler<'utimes'> = (k, p, a) => {
  k.vfs.utimes(p.cred, baseDir(p, at(a, 4)), str(a, 0), msOrNow(a, 1), msOrNow(a, 2), arg(a, 3) !== false);
  return 0;
};

export const truncate: Handler<'truncate'> = (k, p, a) => {
  const inode = k.vfs.resolve(p.cred, p.cwd, str(a, 0));
  k.policy.limits.fileSize(p, inode, str(a, 0), int(a, 1), 0);
  k.vfs.truncate(p.cred, p.cwd, str(a, 0), int(a, 1));
  return 0;
};

export const access: Handler<'access'> = (k, p, a) => {
  k.vfs.access(p.cred, baseDir(p, at(a, 2)), str(a, 0), int(a, 1, 0));
  return 0;
};

export const chdir: Handler<'chdir'> = (k, p, a) => {
  p.cwd = k.vfs.chdir(p.cred, p.cwd, str(a, 0));
  return 0;
};

export const fchdir: Handler<'fchdir'> = (k, p, a) => {
  const dir = p.fds.get(int(a, 0)).inode;
  if (!isDir(dir.mode)) throw new SysError(Errno.ENOTDIR);
  k.vfs.access(p.cred, dir, '.', 1);
  p.cwd = dir;
  return 0;
};

export const getcwd: Handler<'getcwd'> = (k, p) => k.vfs.pathOf(p.cwd);

export const realpath: Handler<'realpath'> = (k, p, a) => k.vfs.realpath(p.cred, p.cwd, str(a, 0));

export const statfs: Handler<'statfs'> = (k, p, a) => k.vfs.statfs(p.cred, p.cwd, str(a, 0));

export const umask: Handler<'umask'> = (_k, p, a) => {
  const old = p.umask;
  p.umask = int(a, 0) & 0o777;
  return old;
};

/**
 * sync(2): with a persistent root layer, wait until every file is durable as
 * it is now, including files still open for writing (which commits otherwise
 * take as of their last close). A store failure is EIO (ENOSPC when the
 * store's error has code ENOSPC/EDQUOT: Node's fs errors, and the browser
 * store's quota error), as a failing disk would give.
 */
export const sync: Handler<'sync'> = (k, _p, _a, call) => commit(k, call, { all: true });

/** fsync(fd)/fdatasync(fd): everything written so far, and this file as it is now; EINVAL for what cannot be synced (pipes, devices), as Linux. */
export const fsync: Handler<'fsync'> = (k, p, a, call) => {
  const inode = p.fds.get(int(a, 0)).inode; // EBADF first
  if (!isReg(inode.mode) && !isDir(inode.mode)) throw new SysError(Errno.EINVAL);
  return commit(k, call, { file: inode });
};

export const fdatasync: Handler<'fdatasync'> = (k, p, a, call) => fsync(k, p, a, call);

function commit(k: Kernel, call: Call, opts: { all?: boolean; file?: Inode }): 0 | WaitQueue {
  const persister = k.persister;
  if (!persister) return 0;
  return settle(call, () => persister.sync(opts).then(() => 0 as const, (e: unknown) => {
    const code = (e as { code?: string }).code;
    throw new SysError(code === 'ENOSPC' || code === 'EDQUOT' ? Errno.ENOSPC : Errno.EIO, (e as Error)?.message ?? String(e));
  }));
}

/** mount(target, fstype): root mounts a fresh filesystem; only tmpfs can be made from nothing. */
export const mount: Handler<'mount'> = (k, p, a) => {
  if (p.uid !== 0) throw new SysError(Errno.EPERM);
  const type = str(a, 1);
  if (type !== 'tmpfs') throw new SysError(Errno.ENODEV, type);
  k.vfs.mount(p.cred, k.vfs.realpath(p.cred, p.cwd, str(a, 0)), new MemFs());
  return 0;
};
