// KFS: an Emscripten filesystem backend over the kernel's syscalls, so that
// Python sees the VFS live (decision 0015). Nodes are path-based, like
// Emscripten's NODEFS: every operation names the kernel path of its node and
// the kernel does the real work (permissions, overlay, pipes, devices). Open
// files hold a kernel fd (`stream.kfd`), which is also how subprocesses get
// Python's files and pipes as their fds.

import { errnoName, SysError } from '../../abi/errno.js';
import { O_ACCMODE, O_CLOEXEC, O_CREAT, O_EXCL, O_NONBLOCK, O_WRONLY, SEEK_CUR, SEEK_END } from '../../abi/fcntl.js';
import { isDir, isReg, type Stat } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- Emscripten's FS is untyped JavaScript. */
export type EmFS = any;
export type EmNode = any;
export type EmStream = any;

export interface Kfs {
  /** The Emscripten filesystem type to pass to FS.mount, with `{ root: kernelPath }` as options. */
  type: object;
  /** Stream operations for a kernel fd that is not a file of the tree (stdio, pipes). */
  fdOps: object;
  /** Raise an Emscripten error for a kernel error (anything else passes through). */
  rethrow(e: unknown): never;
}

/** Emscripten hands over its heap as an Int8Array; the kernel takes bytes. */
const bytes = (heap: ArrayBufferView, offset: number, length: number): Uint8Array =>
  new Uint8Array(heap.buffer, heap.byteOffset + offset, length);

/** `interrupted`: whether a caught signal waits for CPython (a blocking read then fails with EINTR). */
export function makeKfs(FS: EmFS, ERRNO_CODES: Record<string, number>, sys: Sys, interrupted: () => boolean): Kfs {
  const EIO = ERRNO_CODES.EIO;

  function rethrow(e: unknown): never {
    if (e instanceof SysError) throw new FS.ErrnoError(ERRNO_CODES[errnoName(e.errno)] ?? EIO);
    throw e;
  }
  function call<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      return rethrow(e);
    }
  }

  function pathOf(node: EmNode): string {
    const parts: string[] = [];
    while (node.parent !== node) {
      parts.push(node.name);
      node = node.parent;
    }
    const root: string = node.mount.opts.root;
    return parts.length ? `${root === '/' ? '' : root}/${parts.reverse().join('/')}` : root;
  }
  const childPath = (parent: EmNode, name: string): string => {
    const p = pathOf(parent);
    return p === '/' ? `/${name}` : `${p}/${name}`;
  };

  /**
   * lstat, or stat in a mount made with `follow`: there the kernel follows its links (/dev/fd/N reopens
   * the process's fd N), where Emscripten would read the link ("pipe:[7]") and fail to open that.
   */
  const statOf = (node: EmNode, path: string): Stat => (node.mount.opts.follow ? sys.stat(path) : sys.lstat(path));

  function toAttr(st: Stat): object {
    return {
      dev: st.dev, ino: st.ino, mode: st.mode, nlink: st.nlink, uid: st.uid, gid: st.gid, rdev: st.rdev,
      size: st.size, blksize: st.blksize, blocks: st.blocks,
      atime: new Date(st.atimeMs), mtime: new Date(st.mtimeMs), ctime: new Date(st.ctimeMs),
    };
  }

  function createNode(parent: EmNode | null, name: string, mode: number): EmNode {
    const node = FS.createNode(parent, name, mode, 0);
    node.node_ops = nodeOps;
    node.stream_ops = isDir(mode) ? dirOps : isReg(mode) ? fileOps : fdOps;
    return node;
  }

  const nodeOps = {
    getattr: (node: EmNode) => toAttr(call(() => statOf(node, pathOf(node)))),
    setattr(node: EmNode, attr: { mode?: number; size?: number; atime?: number; mtime?: number }) {
      const path = pathOf(node);
      call(() => {
        if (attr.mode !== undefined) {
          sys.chmod(path, attr.mode & 0o7777);
          node.mode = (node.mode & ~0o7777) | (attr.mode & 0o7777);
        }
        if (attr.atime !== undefined || attr.mtime !== undefined) sys.utimes(path, attr.atime ?? null, attr.mtime ?? null);
        if (attr.size !== undefined) sys.truncate(path, attr.size);
      });
    },
    lookup: (parent: EmNode, name: string) => createNode(parent, name, call(() => statOf(parent, childPath(parent, name))).mode),
    mknod(parent: EmNode, name: string, mode: number) {
      const path = childPath(parent, name);
      call(() => {
        if (isDir(mode)) sys.mkdir(path, mode & 0o7777);
        else if (isReg(mode)) sys.close(sys.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 0o7777));
        else sys.mknod(path, mode);
      });
      return createNode(parent, name, call(() => sys.lstat(path)).mode);
    },
    rename(node: EmNode, newDir: EmNode, newName: string) {
      call(() => sys.rename(pathOf(node), childPath(newDir, newName)));
    },
    unlink: (parent: EmNode, name: string) => call(() => sys.unlink(childPath(parent, name))),
    rmdir: (parent: EmNode, name: string) => call(() => sys.rmdir(childPath(parent, name))),
    readdir: (node: EmNode) => call(() => sys.readdir(pathOf(node))).map((e) => e.name),
    symlink: (parent: EmNode, name: string, target: string) => call(() => sys.symlink(target, childPath(parent, name))),
    readlink: (node: EmNode) => call(() => sys.readlink(pathOf(node))),
  };

  /** Streams on kernel fds: opened by path for tree nodes; given for stdio and pipes. */
  const common = {
    open(stream: EmStream) {
      // O_CREAT/O_TRUNC were done by Emscripten through mknod/setattr; O_APPEND is done by seeking to the end.
      const flags = (stream.flags & (O_ACCMODE | O_NONBLOCK)) | O_CLOEXEC;
      stream.kfd = call(() => sys.open(pathOf(stream.node), flags));
    },
    close(stream: EmStream) {
      if (stream.kfd !== undefined) call(() => sys.close(stream.kfd));
    },
    dup(stream: EmStream) {
      stream.kfd = call(() => sys.dup(stream.kfd));
    },
    getattr: (stream: EmStream) => toAttr(call(() => sys.fstat(stream.kfd))),
  };

  const fileOps = {
    ...common,
    read(stream: EmStream, buffer: Uint8Array, offset: number, length: number, position: number) {
      let done = 0;
      while (done < length) {
        const b = call(() => sys.pread(stream.kfd, length - done, position + done));
        if (!b.byteLength) break;
        buffer.set(b, offset + done);
        done += b.byteLength;
      }
      return done;
    },
    write(stream: EmStream, buffer: Uint8Array, offset: number, length: number, position: number) {
      let done = 0;
      while (done < length) done += call(() => sys.pwrite(stream.kfd, bytes(buffer, offset + done, length - done), position + done));
      return done;
    },
    llseek(stream: EmStream, offset: number, whence: number) {
      let pos = offset;
      if (whence === SEEK_CUR) pos += stream.position;
      else if (whence === SEEK_END) pos += call(() => sys.fstat(stream.kfd)).size;
      if (pos < 0) throw new FS.ErrnoError(ERRNO_CODES.EINVAL);
      return pos;
    },
  };

  const fdOps = {
    ...common,
    open(stream: EmStream) {
      common.open(stream);
      stream.seekable = false;
    },
    read(stream: EmStream, buffer: Uint8Array, offset: number, length: number) {
      if (interrupted()) throw new FS.ErrnoError(ERRNO_CODES.EINTR);
      const b = call(() => sys.read(stream.kfd, length));
      buffer.set(b, offset);
      return b.byteLength;
    },
    write(stream: EmStream, buffer: Uint8Array, offset: number, length: number) {
      return call(() => sys.write(stream.kfd, bytes(buffer, offset, length)));
    },
    ioctl: () => ERRNO_CODES.ENOTTY,
  };

  const dirOps = {
    llseek(stream: EmStream, offset: number, whence: number) {
      const pos = whence === SEEK_CUR ? stream.position + offset : offset;
      if (pos < 0 || whence === SEEK_END) throw new FS.ErrnoError(ERRNO_CODES.EINVAL);
      return pos;
    },
  };

  const type = {
    mount: (mount: EmNode) => createNode(null, '/', call(() => sys.stat(mount.opts.root)).mode),
  };

  return { type, fdOps, rethrow };
}
