// /proc/<pid>/fd and /proc/<pid>/fdinfo: one entry per open descriptor.
// fd/N is a magic link to the open file's inode, so opening it reopens the
// very file or pipe even when no path leads there any more.

import { Errno, SysError } from '../../../abi/errno.js';
import { O_ACCMODE, O_CLOEXEC, O_RDONLY, O_WRONLY } from '../../../abi/fcntl.js';
import type { OpenFile } from '../../file.js';
import { checkPtrace, parseDecimal, procOf, type Ctx, type DirSpec, type Dynamic, type Entry } from './entry.js';
import { FD_OFFSET, FDINFO_OFFSET, MAX_FD, pidBase } from './ino.js';

function fileOf(c: Ctx): OpenFile {
  const p = procOf(c);
  if (!p.fds.has(c.fd)) throw new SysError(Errno.ENOENT, `fd ${c.fd}`);
  return p.fds.get(c.fd);
}

/** Linux gives the link r-x for a readable, -wx for a writable description (owner only). */
function linkPerm(c: Ctx): number {
  const acc = fileOf(c).flags & O_ACCMODE;
  return (acc !== O_WRONLY ? 0o500 : 0) | (acc !== O_RDONLY ? 0o300 : 0);
}

const fdLink: Entry = {
  name: 'fd/N',
  type: 'link',
  perm: linkPerm,
  target: (c) => {
    checkPtrace(c);
    return fileOf(c).path;
  },
  follow: (c) => {
    checkPtrace(c);
    return fileOf(c).inode;
  },
};

const fdInfo: Entry = {
  name: 'fdinfo/N',
  type: 'file',
  perm: 0o444,
  read: (c) => {
    const f = fileOf(c);
    const flags = f.flags | (procOf(c).fds.getCloexec(c.fd) ? O_CLOEXEC : 0);
    return `pos:\t${f.pos}\nflags:\t0${flags.toString(8)}\nmnt_id:\t${f.inode.fs.dev}\nino:\t${f.inode.ino}\n`;
  },
};

function fdChildren(entry: Entry, offset: number): Dynamic {
  return {
    names: (c) => procOf(c).fds.entries().filter(([fd]) => fd < MAX_FD).map(([fd]) => String(fd)),
    child: (c, name) => {
      const p = procOf(c);
      const fd = parseDecimal(name);
      if (fd === null || fd >= MAX_FD || !p.fds.has(fd)) return null;
      return { entry, pid: p.pid, fd, ino: pidBase(p.pid) + offset + fd };
    },
  };
}

export const FD_DIR: DirSpec = { name: 'fd', type: 'dir', perm: 0o500, children: [], dynamic: fdChildren(fdLink, FD_OFFSET) };

export const FDINFO_DIR: DirSpec = {
  name: 'fdinfo',
  type: 'dir',
  perm: 0o500,
  children: [],
  dynamic: fdChildren(fdInfo, FDINFO_OFFSET),
};
