// /proc/<pid>: one directory per process in the table, zombies included.

import { decodeBytes } from '../../../abi/bytestr.js';
import { Errno, SysError } from '../../../abi/errno.js';
import type { Process } from '../../process.js';
import { checkPtrace, procOf, type Ctx, type DirSpec, type Entry } from './entry.js';
import { FD_DIR, FDINFO_DIR } from './fd.js';
import { statText, statusText } from './pidtext.js';
import { mountsText } from './text.js';

/** TASK_COMM_LEN - 1. */
const COMM_MAX = 15;

/** A zombie has released its memory and filesystem context: Linux reports ENOENT. */
function living(c: Ctx): Process {
  const p = procOf(c);
  if (!p.alive) throw new SysError(Errno.ENOENT);
  return p;
}

/** NUL-terminated strings, as argv and envp lie in memory; empty once the memory is gone. */
function nulList(c: Ctx, list: (p: Process) => string[]): string {
  const p = procOf(c);
  return p.alive ? list(p).map((s) => `${s}\0`).join('') : '';
}

/** Linux keeps the bytes as written (newline included), up to 15 of them. */
function writeComm(c: Ctx, data: Uint8Array): number {
  const p = procOf(c);
  if (c.cred.pid !== p.pid) throw new SysError(Errno.EINVAL, 'comm of another process');
  let bytes = data.subarray(0, COMM_MAX);
  const nul = bytes.indexOf(0);
  if (nul >= 0) bytes = bytes.subarray(0, nul);
  p.comm = decodeBytes(bytes);
  return data.length;
}

const entries: Entry[] = [
  FD_DIR,
  FDINFO_DIR,
  {
    name: 'environ',
    type: 'file',
    perm: 0o400,
    check: checkPtrace,
    read: (c) => nulList(c, (p) => c.src.environ?.(c.cred, p) ?? p.env),
  },
  { name: 'status', type: 'file', perm: 0o444, read: (c) => statusText(procOf(c)) },
  { name: 'comm', type: 'file', perm: 0o644, read: (c) => `${procOf(c).comm}\n`, write: writeComm },
  { name: 'cmdline', type: 'file', perm: 0o444, read: (c) => nulList(c, (p) => p.argv) },
  { name: 'stat', type: 'file', perm: 0o444, read: (c) => statText(procOf(c), c.src.bootMs) },
  { name: 'statm', type: 'file', perm: 0o444, read: () => '0 0 0 0 0 0 0\n' },
  {
    name: 'cwd',
    type: 'link',
    perm: 0o777,
    target: (c) => {
      checkPtrace(c);
      return c.src.pathOf(living(c).cwd);
    },
    follow: (c) => {
      checkPtrace(c);
      return living(c).cwd;
    },
  },
  {
    // No chroot: every process's root is the tree root, reached by resolving "/".
    name: 'root',
    type: 'link',
    perm: 0o777,
    target: (c) => {
      checkPtrace(c);
      living(c);
      return '/';
    },
  },
  {
    // The text resolves to the executable; there is no inode pinned for it.
    name: 'exe',
    type: 'link',
    perm: 0o777,
    target: (c) => {
      checkPtrace(c);
      const exe = living(c).exe;
      if (!exe) throw new SysError(Errno.ENOENT, 'no executable');
      return exe;
    },
  },
  { name: 'mounts', type: 'file', perm: 0o444, read: (c) => mountsText(c.src) },
];

export const PID_DIR: DirSpec = { name: '<pid>', type: 'dir', perm: 0o555, children: entries };
