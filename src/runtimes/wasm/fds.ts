// The WASI descriptor table: each WASI fd names a kernel fd plus the WASI-only
// state (rights, the preopen's name, the file type once known). 0, 1 and 2 are
// the kernel's own stdin/stdout/stderr; new fds take the kernel's number when
// it is free here, so the two tables usually coincide.

import { isChr, S_IFMT, S_IFBLK, S_IFDIR, S_IFLNK, S_IFREG, S_IFSOCK } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import { ALL_RIGHTS, Filetype, RIGHT, WasiErrno } from './abi.js';
import { WasiError } from './errno.js';

export interface WasiFd {
  kfd: number;
  rightsBase: number;
  rightsInheriting: number;
  /** The name a preopened directory is announced under (fd_prestat_dir_name). */
  preopen?: string;
  /**
   * The cwd's "." preopen: the root's kernel fd, for paths through it that name
   * something at / and not in the cwd (calls/path.ts, `dirFor`).
   */
  root?: number;
  /** WASI file type, from the first fstat. */
  type?: number;
}

export function filetypeOf(mode: number): number {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return Filetype.REGULAR_FILE;
    case S_IFDIR:
      return Filetype.DIRECTORY;
    case S_IFLNK:
      return Filetype.SYMBOLIC_LINK;
    case S_IFBLK:
      return Filetype.BLOCK_DEVICE;
    case S_IFSOCK:
      return Filetype.SOCKET_STREAM;
    default:
      // FIFOs have no WASI type of their own.
      return isChr(mode) ? Filetype.CHARACTER_DEVICE : Filetype.UNKNOWN;
  }
}

/** A terminal has no offset: wasi-libc's isatty() is "character device without seek/tell rights". */
export const TTY_DROPPED_RIGHTS = RIGHT.FD_SEEK | RIGHT.FD_TELL;

export class FdTable {
  private fds = new Map<number, WasiFd>();

  constructor(private readonly sys: Sys) {
    for (const fd of [0, 1, 2]) this.fds.set(fd, { kfd: fd, rightsBase: ALL_RIGHTS, rightsInheriting: ALL_RIGHTS });
  }

  /** The descriptor, if it is open and holds `right` (ENOTCAPABLE otherwise). */
  get(fd: number, right = 0): WasiFd {
    const f = this.fds.get(fd);
    if (!f) throw new WasiError(WasiErrno.BADF);
    if ((f.rightsBase & right) !== right) {
      // Reading a write-only fd (and vice versa) is EBADF in POSIX, whatever the rights say.
      const rw = right & (RIGHT.FD_READ | RIGHT.FD_WRITE);
      throw new WasiError(rw && (f.rightsBase & rw) !== rw ? WasiErrno.BADF : WasiErrno.NOTCAPABLE);
    }
    return f;
  }

  has(fd: number): boolean {
    return this.fds.has(fd);
  }

  /** Preopened directories come right after stdio, in order: libc scans from 3 up to the first EBADF. */
  preopen(kfd: number, name: string, root?: number): void {
    let fd = 3;
    while (this.fds.has(fd)) fd++;
    this.fds.set(fd, { kfd, preopen: name, root, rightsBase: ALL_RIGHTS, rightsInheriting: ALL_RIGHTS, type: Filetype.DIRECTORY });
  }

  /** Register a kernel fd; its WASI number is the kernel's when free, else the lowest free one. */
  add(entry: WasiFd): number {
    let fd = entry.kfd;
    if (this.fds.has(fd)) for (fd = 3; this.fds.has(fd); fd++);
    this.fds.set(fd, entry);
    return fd;
  }

  remove(fd: number): void {
    this.fds.delete(fd);
  }

  /** fd_renumber: `to` takes over `from`'s file (dup2 in the kernel), `from` closes. */
  renumber(from: number, to: number): void {
    const src = this.get(from);
    const dst = this.get(to);
    if (from === to) return;
    this.sys.dup2(src.kfd, dst.kfd);
    this.sys.close(src.kfd);
    this.fds.set(to, { ...src, kfd: dst.kfd });
    this.fds.delete(from);
  }

  /** The WASI file type, fetched once per descriptor. */
  type(f: WasiFd): number {
    if (f.type === undefined) f.type = filetypeOf(this.sys.fstat(f.kfd).mode);
    return f.type;
  }
}
