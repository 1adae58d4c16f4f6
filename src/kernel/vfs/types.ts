// The contracts between the VFS layer and the filesystems mounted in it.
//
// A FileSystem stores inodes; the VFS (namei, mount table, vfs.ts) does path
// walking, permission checks and the POSIX rules shared by every filesystem
// (EISDIR/ENOTDIR/ENOTEMPTY, rename into a subdirectory, sticky dirs...). A
// FileSystem only sees single-name operations on inodes it owns, already
// validated, and may still fail with storage errors (ENOSPC, EFBIG, EROFS).

import type { DirEntry, StatFs } from '../../abi/stat.js';
import type { OpenFile } from '../file.js';
import type { WaitQueue } from '../waitqueue.js';

/** Who is asking: credentials and, for procfs's `self`, the calling pid. */
export interface Cred {
  uid: number;
  gid: number;
  groups: readonly number[];
  pid: number;
  umask: number;
  /** Real ids, for access(2); default to uid/gid (which are the effective ids). */
  ruid?: number;
  rgid?: number;
}

export interface Inode {
  readonly fs: FileSystem;
  readonly ino: number;
  /** S_IFMT type bits | permission bits. */
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
  size: number;
  rdev: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface SetAttr {
  mode?: number; // permission bits only; the type never changes
  uid?: number;
  gid?: number;
  atimeMs?: number;
  mtimeMs?: number;
}

/** Result of an operation that may have to wait: bytes/count, or the queue to sleep on. */
export type IoResult<T = number> = T | WaitQueue;

/**
 * Operations of an open file description. Regular files on ordinary
 * filesystems use the VFS's generic ops; pipes, devices and generated
 * (procfs) files bring their own.
 */
export interface FileOps {
  /**
   * Read up to `len` bytes at the description's position (or `pos` for pread).
   * The result may be a view of kernel storage, valid only until the kernel
   * next runs a syscall: reply with it at once, or copy it.
   */
  read(f: OpenFile, len: number, pos?: number): IoResult<Uint8Array>;
  write(f: OpenFile, data: Uint8Array, pos?: number): IoResult<number>;
  /** Seekable files return the new offset; pipes and ttys throw ESPIPE. */
  seek?(f: OpenFile, offset: number, whence: number): number;
  /** Readiness for poll: bit 1 = readable, bit 2 = writable, bit 4 = hangup. */
  poll?(f: OpenFile): number;
  /** Queue woken when readiness may have changed. */
  waitQueue?(f: OpenFile): WaitQueue;
  ioctl?(f: OpenFile, request: number, arg: unknown): unknown;
  /** Called when the last reference to the description is dropped. */
  release?(f: OpenFile): void;
}

export interface FileSystem {
  readonly type: string;
  /** Device number, unique per mounted filesystem (st_dev). Assigned by the mount table. */
  dev: number;
  readonly readonly: boolean;
  root(): Inode;
  /** Child `name` of directory `dir`, or null. ".." gives the parent (the root's is itself); "." is never asked. */
  lookup(dir: Inode, name: string, cred: Cred): Inode | null;
  /** Entries of `dir`, without "." and "..". */
  readdir(dir: Inode, cred: Cred): DirEntry[];
  /** Create a new inode of the type in `mode` (S_IFREG/S_IFDIR/S_IFIFO/S_IFCHR) under `dir`. */
  create(dir: Inode, name: string, mode: number, rdev: number, cred: Cred): Inode;
  symlink(dir: Inode, name: string, target: string, cred: Cred): Inode;
  /** Add a hard link `name` in `dir` to the non-directory `target`. */
  link(dir: Inode, name: string, target: Inode): void;
  /** Remove a non-directory entry. The inode lives on while open (nlink 0). */
  unlink(dir: Inode, name: string): void;
  /** Remove an empty directory entry. */
  rmdir(dir: Inode, name: string): void;
  /** Atomically move `oname` to `nname`, replacing an existing compatible target. */
  rename(odir: Inode, oname: string, ndir: Inode, nname: string): void;
  readlink(inode: Inode): string;
  /** Regular-file data: a view of up to `len` bytes at `pos` (may alias storage; copy before keeping). */
  read(inode: Inode, pos: number, len: number): Uint8Array;
  write(inode: Inode, pos: number, data: Uint8Array): number;
  truncate(inode: Inode, size: number): void;
  setattr(inode: Inode, attr: SetAttr): void;
  statfs(): StatFs;
  /** Filesystems with generated files (procfs) return their own ops; null = generic. */
  open?(inode: Inode, flags: number, cred: Cred): FileOps | null;
  /**
   * Magic links (procfs `fd/N`, `exe`, `cwd`): jump straight to an inode instead
   * of re-resolving the link text, as Linux does. null = ordinary symlink.
   */
  followLink?(inode: Inode, cred: Cred): Inode | null;
  /**
   * Optional fast path for getcwd: the name of directory `child` inside its
   * parent `dir` (directories have exactly one name). Without it the VFS scans readdir.
   */
  dirName?(dir: Inode, child: Inode): string | null;
  /** The inode's last name and last open reference are gone: free its storage. */
  evict?(inode: Inode): void;
  /** A description that may write regular file `inode` was opened (+1) or released (-1). */
  writeOpen?(inode: Inode, delta: 1 | -1): void;
  /** Files read-only whatever their mode (aosfs's projections): a write open is EROFS before permissions. */
  readOnlyFile?(inode: Inode): boolean;
  /** Throws to refuse any rename onto this filesystem before the cross-device check (aosfs: EPERM). */
  renameTarget?(): void;
}

/**
 * Policy hooks on path operations (the VM's fs rules, kernel/policy/fs-guard.ts).
 * Each throws the SysError the operation must fail with.
 */
export interface PathGuard {
  /** A lookup reached `inode` under `name`. */
  lookup(cred: Cred, inode: Inode, name: string): void;
  /** Whether directory entry `ino` of `dir` may be listed. */
  listable(cred: Cred, dir: Inode, ino: number): boolean;
  create(cred: Cred, dir: Inode, name: string): void;
  remove(cred: Cred, dir: Inode, victim: Inode, name: string): void;
  /** `ask` = false: a query (access W_OK) that must not wait for approval. */
  modify(cred: Cred, inode: Inode, what: string, ask?: boolean): void;
  read(cred: Cred, inode: Inode, path: string): void;
  /** A filesystem is about to be mounted on directory `dir`. */
  mount(cred: Cred, dir: Inode, path: string): void;
  created(dir: Inode, inode: Inode): void;
  changed(): void;
}
