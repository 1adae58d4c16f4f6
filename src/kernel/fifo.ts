// Pipe objects behind FIFO inodes: named FIFOs and anonymous pipes alike.
// An anonymous pipe is a FIFO inode on pipefs, so /proc/<pid>/fd/N reopens the same pipe.

import { Errno, SysError } from '../abi/errno.js';
import { O_ACCMODE, O_NONBLOCK, O_RDONLY, O_WRONLY } from '../abi/fcntl.js';
import { S_IFIFO, S_IFSOCK, type DirEntry, type StatFs } from '../abi/stat.js';
import { openPipeEnd, Pipe } from './pipe.js';
import type { FileOps, FileSystem, Inode } from './vfs/types.js';

export class FifoTable {
  private pipes = new WeakMap<Inode, Pipe>();

  pipeOf(inode: Inode): Pipe {
    let p = this.pipes.get(inode);
    if (!p) this.pipes.set(inode, (p = new Pipe()));
    return p;
  }

  /** The VFS's open hook for S_IFIFO inodes. Blocking for a peer is done by the open syscall. */
  open(inode: Inode, flags: number): FileOps {
    const pipe = this.pipeOf(inode);
    const acc = flags & O_ACCMODE;
    if (acc === O_WRONLY && flags & O_NONBLOCK && pipe.readers === 0) throw new SysError(Errno.ENXIO);
    if (acc === O_RDONLY) return openPipeEnd(pipe, 'r');
    if (acc === O_WRONLY) return openPipeEnd(pipe, 'w');
    // O_RDWR on a FIFO (Linux allows it): both ends, never blocks.
    const r = openPipeEnd(pipe, 'r');
    const w = openPipeEnd(pipe, 'w');
    return {
      read: (f, len) => r.read(f, len),
      write: (f, data) => w.write(f, data),
      seek: r.seek,
      poll: () => pipe.poll(true) | pipe.poll(false),
      waitQueue: () => pipe.queue,
      ioctl: (f, req, arg) => r.ioctl!(f, req, arg),
      release: (f) => {
        r.release?.(f);
        w.release?.(f);
      },
    };
  }
}

/** pipefs: where anonymous pipes' and sockets' inodes live. Nothing can be looked up or created in it. */
export class PipeFs implements FileSystem {
  readonly type = 'pipefs';
  dev = 0;
  readonly readonly = true;
  private nextIno = 1;
  private readonly rootInode: Inode;

  constructor() {
    this.rootInode = this.inode(0o040700);
  }

  newPipeInode(uid: number, gid: number): Inode {
    const ino = this.inode(S_IFIFO | 0o600);
    ino.uid = uid;
    ino.gid = gid;
    return ino;
  }

  /** A socket's inode (Linux keeps them on sockfs): what fstat of a socket fd sees. */
  newSocketInode(uid: number, gid: number): Inode {
    const ino = this.inode(S_IFSOCK | 0o777);
    ino.uid = uid;
    ino.gid = gid;
    return ino;
  }

  private inode(mode: number): Inode {
    const now = Date.now();
    return {
      fs: this, ino: this.nextIno++, mode, uid: 0, gid: 0, nlink: 1, size: 0, rdev: 0,
      atimeMs: now, mtimeMs: now, ctimeMs: now,
    };
  }

  root(): Inode {
    return this.rootInode;
  }
  lookup(): Inode | null {
    return null;
  }
  readdir(): DirEntry[] {
    return [];
  }
  create(): Inode {
    throw new SysError(Errno.EROFS);
  }
  symlink(): Inode {
    throw new SysError(Errno.EROFS);
  }
  link(): void {
    throw new SysError(Errno.EROFS);
  }
  unlink(): void {
    throw new SysError(Errno.EROFS);
  }
  rmdir(): void {
    throw new SysError(Errno.EROFS);
  }
  rename(): void {
    throw new SysError(Errno.EROFS);
  }
  readlink(): string {
    throw new SysError(Errno.EINVAL);
  }
  read(): Uint8Array {
    throw new SysError(Errno.EINVAL);
  }
  write(): number {
    throw new SysError(Errno.EINVAL);
  }
  truncate(): void {
    throw new SysError(Errno.EINVAL);
  }
  setattr(inode: Inode, attr: { mode?: number; uid?: number; gid?: number; atimeMs?: number; mtimeMs?: number }): void {
    if (attr.mode !== undefined) inode.mode = (inode.mode & ~0o7777) | (attr.mode & 0o7777);
    if (attr.uid !== undefined) inode.uid = attr.uid;
    if (attr.gid !== undefined) inode.gid = attr.gid;
    if (attr.atimeMs !== undefined) inode.atimeMs = attr.atimeMs;
    if (attr.mtimeMs !== undefined) inode.mtimeMs = attr.mtimeMs;
    inode.ctimeMs = Date.now();
  }
  statfs(): StatFs {
    return { type: 'pipefs', bsize: 4096, blocks: 0, bfree: 0, bavail: 0, files: 0, ffree: 0, namelen: 255 };
  }
}
