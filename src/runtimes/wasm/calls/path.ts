// path_*: calls naming a file by (directory fd, relative path). The kernel's
// path syscalls take the directory as a trailing dirfd (their *at() forms), so
// each is one syscall on the directory's kernel fd.

import type { SyncSyscall } from '../../../abi/syscall-types.js';
import {
  O_APPEND, O_CLOEXEC, O_CREAT, O_DIRECTORY, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY,
} from '../../../abi/fcntl.js';
import {
  FDFLAG_APPEND, FDFLAG_NONBLOCK, LOOKUP_SYMLINK_FOLLOW, OFLAG_CREAT, OFLAG_DIRECTORY, OFLAG_EXCL, OFLAG_TRUNC, RIGHT,
  WasiErrno,
} from '../abi.js';
import { WasiError } from '../errno.js';
import { Memory } from '../memory.js';
import { timesFor, type WasiState } from '../state.js';
import { rights } from './fd.js';

/** Rights that need the file open for reading, or for writing (as wasmtime decides the access mode). */
const READ_RIGHTS = RIGHT.FD_READ | RIGHT.FD_READDIR;
const WRITE_RIGHTS = RIGHT.FD_WRITE | RIGHT.FD_DATASYNC | RIGHT.FD_ALLOCATE | RIGHT.FD_FILESTAT_SET_SIZE;

export function pathCalls(w: WasiState) {
  const { sys, mem, fds } = w;
  const call: SyncSyscall = (name, ...args) => sys.raw.call(name, ...args);
  const str = (ptr: number, len: number) => mem.string(ptr, len);
  /**
   * Through the cwd's "." preopen libc sends both `x` and `/x` (its own cwd is
   * `/`): the cwd's `x` if there is one, else the root's; a name that exists in
   * neither goes where its parent directory does (the cwd first).
   */
  const dirFor = (cwd: number, root: number, path: string): number => {
    if (/^\.\.?(\/|$)/.test(path)) return cwd;
    const exists = (p: string, kfd: number) => {
      try {
        call('lstat', p, kfd);
        return true;
      } catch {
        return false;
      }
    };
    if (exists(path, cwd)) return cwd;
    if (exists(path, root)) return root;
    const parent = path.replace(/\/*[^/]*\/*$/, '') || '.';
    return exists(parent, cwd) || !exists(parent, root) ? cwd : root;
  };
  /** The kernel fd of the directory `path` is resolved in, if the WASI fd holds `right`. */
  const dir = (fd: number, right: number, path: string) => {
    const f = fds.get(fd, right);
    return f.root === undefined ? f.kfd : dirFor(f.kfd, f.root, path);
  };

  return {
    path_create_directory(fd: number, p: number, n: number): void {
      const path = str(p, n);
      call('mkdir', path, 0o777, dir(fd, RIGHT.PATH_CREATE_DIRECTORY, path));
    },

    path_filestat_get(fd: number, flags: number, p: number, n: number, out: number): void {
      const path = str(p, n);
      const kfd = dir(fd, RIGHT.PATH_FILESTAT_GET, path);
      const st = call(flags & LOOKUP_SYMLINK_FOLLOW ? 'stat' : 'lstat', path, kfd);
      w.writeFilestat(out, st);
    },

    path_filestat_set_times(fd: number, flags: number, p: number, n: number, atim: bigint, mtim: bigint, fst: number): void {
      const path = str(p, n);
      const kfd = dir(fd, RIGHT.PATH_FILESTAT_SET_TIMES, path);
      const follow = (flags & LOOKUP_SYMLINK_FOLLOW) !== 0;
      const [a, m] = timesFor(fst, atim, mtim, () => call(follow ? 'stat' : 'lstat', path, kfd));
      call('utimes', path, a, m, follow, kfd);
    },

    path_link(oldFd: number, _flags: number, op: number, on: number, newFd: number, np: number, nn: number): void {
      const [a, b] = [str(op, on), str(np, nn)];
      call('link', a, b, dir(oldFd, RIGHT.PATH_LINK_SOURCE, a), dir(newFd, RIGHT.PATH_LINK_TARGET, b));
    },

    path_open(
      fd: number, dirflags: number, p: number, n: number, oflags: number, base: bigint, inheriting: bigint,
      fdflags: number, out: number,
    ): void {
      const need = RIGHT.PATH_OPEN | (oflags & OFLAG_CREAT ? RIGHT.PATH_CREATE_FILE : 0) |
        (oflags & OFLAG_TRUNC ? RIGHT.PATH_FILESTAT_SET_SIZE : 0);
      const d = fds.get(fd, need);
      const b = rights(base);
      const i = rights(inheriting);
      if (b & ~d.rightsInheriting || i & ~d.rightsInheriting) throw new WasiError(WasiErrno.NOTCAPABLE);
      // A directory is only ever opened for reading, whatever rights were asked for.
      const write = !(oflags & OFLAG_DIRECTORY) && (b & WRITE_RIGHTS) !== 0;
      const read = (b & READ_RIGHTS) !== 0;
      let flags = (write ? (read ? O_RDWR : O_WRONLY) : O_RDONLY) | O_CLOEXEC;
      if (oflags & OFLAG_CREAT) flags |= O_CREAT;
      if (oflags & OFLAG_EXCL) flags |= O_EXCL;
      if (oflags & OFLAG_TRUNC) flags |= O_TRUNC;
      if (oflags & OFLAG_DIRECTORY) flags |= O_DIRECTORY;
      if (fdflags & FDFLAG_APPEND) flags |= O_APPEND;
      if (fdflags & FDFLAG_NONBLOCK) flags |= O_NONBLOCK;
      if (!(dirflags & LOOKUP_SYMLINK_FOLLOW)) flags |= O_NOFOLLOW;
      const path = str(p, n);
      const kfd = sys.open(path, flags, 0o666, d.root === undefined ? d.kfd : dirFor(d.kfd, d.root, path));
      mem.setU32(out, fds.add({ kfd, rightsBase: b, rightsInheriting: i }));
    },

    path_readlink(fd: number, p: number, n: number, buf: number, len: number, out: number): void {
      const path = str(p, n);
      const target = Memory.encode(call('readlink', path, dir(fd, RIGHT.PATH_READLINK, path)));
      const k = Math.min(len, target.byteLength);
      mem.slice(buf, k).set(target.subarray(0, k));
      mem.setU32(out, k);
    },

    path_remove_directory(fd: number, p: number, n: number): void {
      const path = str(p, n);
      call('rmdir', path, dir(fd, RIGHT.PATH_REMOVE_DIRECTORY, path));
    },

    path_rename(fd: number, op: number, on: number, newFd: number, np: number, nn: number): void {
      const [a, b] = [str(op, on), str(np, nn)];
      call('rename', a, b, dir(fd, RIGHT.PATH_RENAME_SOURCE, a), dir(newFd, RIGHT.PATH_RENAME_TARGET, b));
    },

    path_symlink(op: number, on: number, fd: number, np: number, nn: number): void {
      const path = str(np, nn);
      call('symlink', str(op, on), path, dir(fd, RIGHT.PATH_SYMLINK, path));
    },

    path_unlink_file(fd: number, p: number, n: number): void {
      const path = str(p, n);
      call('unlink', path, dir(fd, RIGHT.PATH_UNLINK_FILE, path));
    },
  };
}
