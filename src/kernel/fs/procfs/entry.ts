// The shape of the procfs tree: a static description of each name, whose
// contents are generated from the kernel's state when looked up or opened.

import { Errno, SysError } from '../../../abi/errno.js';
import type { Process } from '../../process.js';
import type { Cred, Inode } from '../../vfs/types.js';
import type { ProcSource } from './source.js';

/** What a generator sees: the kernel, the process the entry belongs to, and the caller. */
export interface Ctx {
  readonly src: ProcSource;
  /** Owner of a per-process entry; null for system-wide ones. */
  readonly proc: Process | null;
  readonly cred: Cred;
  /** The fd number of fd/N and fdinfo/N; -1 elsewhere. */
  readonly fd: number;
}

/** Where a node sits: its entry and, for per-process ones, the pid (and fd). */
export interface Node {
  readonly entry: Entry;
  readonly pid: number | null;
  readonly fd: number;
  readonly ino: number;
}

interface Common {
  readonly name: string;
  /** Permission bits; a function when they depend on the object (fd links). */
  readonly perm: number | ((c: Ctx) => number);
}

export interface FileEntry extends Common {
  readonly type: 'file';
  /** Content, generated at open (and again when read from the start after a read). */
  read(c: Ctx): string | Uint8Array;
  /** Absent: the file cannot be written. Returns bytes consumed. */
  write?(c: Ctx, data: Uint8Array): number;
  /** Throws (EACCES) if the caller may not open it at all. */
  check?(c: Ctx): void;
}

export interface LinkEntry extends Common {
  readonly type: 'link';
  /** readlink text. */
  target(c: Ctx): string;
  /** Magic link: the inode to jump to; null = resolve the text. */
  follow?(c: Ctx): Inode | null;
}

/** Children generated from kernel state (pids, fds): names and the node for each. */
export interface Dynamic {
  names(c: Ctx): string[];
  child(c: Ctx, name: string): Node | null;
}

export interface DirSpec extends Common {
  readonly type: 'dir';
  readonly children: readonly Entry[];
  readonly dynamic?: Dynamic;
  /** Extra link count on top of 2 + static subdirectories (the root counts processes). */
  extraLinks?(c: Ctx): number;
}

export type Entry = FileEntry | LinkEntry | DirSpec;

/** The entry's owning process, which per-process generators always have. */
export function procOf(c: Ctx): Process {
  if (!c.proc) throw new SysError(Errno.ESRCH);
  return c.proc;
}

/**
 * Linux guards cwd, exe, environ and fd links with ptrace_may_access
 * (PTRACE_MODE_READ): root, or the same uid and gid as the target.
 */
export function checkPtrace(c: Ctx): void {
  const p = procOf(c);
  // Like PR_SET_DUMPABLE 0: the host's exec shells are closed to every other guest process
  // (their stdin carries the exec protocol's frames and tokens).
  if (c.cred.pid > 1 && c.cred.pid !== p.pid && c.src.undumpable?.(p)) throw new SysError(Errno.EACCES);
  if (c.cred.uid === 0 || (c.cred.uid === p.uid && c.cred.gid === p.gid)) return;
  throw new SysError(Errno.EACCES);
}

/** Canonical decimal only, as Linux's name_to_int: "42" yes, "042" and "+42" no. */
export function parseDecimal(name: string): number | null {
  if (!/^(0|[1-9][0-9]{0,9})$/.test(name)) return null;
  const n = Number(name);
  return n <= 0x7fffffff ? n : null;
}
