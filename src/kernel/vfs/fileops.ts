// Generic open-file operations for ordinary filesystems: regular files read
// and write through FileSystem.read/write; directories only seek (getdents
// goes through Vfs.getdents).

import { Errno, SysError } from '../../abi/errno.js';
import { O_APPEND, SEEK_CUR, SEEK_END, SEEK_SET } from '../../abi/fcntl.js';
import type { OpenFile } from '../file.js';
import type { FileOps } from './types.js';

const SEEK_DATA = 3;
const SEEK_HOLE = 4;

function newOffset(f: OpenFile, offset: number, whence: number, size: number): number {
  let base: number;
  switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = f.pos; break;
    case SEEK_END: base = size; break;
    case SEEK_DATA:
    case SEEK_HOLE:
      // No holes are tracked: all of [0, size) is data, the hole starts at EOF.
      if (offset < 0 || offset >= size) throw new SysError(Errno.ENXIO);
      return (f.pos = whence === SEEK_DATA ? offset : size);
    default: throw new SysError(Errno.EINVAL, 'whence');
  }
  const pos = base + offset;
  if (!Number.isSafeInteger(pos) || pos < 0) throw new SysError(Errno.EINVAL, 'negative offset');
  return (f.pos = pos);
}

export const regularFileOps: FileOps = {
  read(f, len, pos) {
    if (!f.readable) throw new SysError(Errno.EBADF);
    if (pos !== undefined && pos < 0) throw new SysError(Errno.EINVAL);
    const at = pos ?? f.pos;
    const inode = f.inode;
    const data = inode.fs.read(inode, at, len);
    if (pos === undefined) f.pos = at + data.length;
    // relatime: refresh atime only when it is older than the last change.
    if (!inode.fs.readonly && (inode.atimeMs <= inode.mtimeMs || inode.atimeMs <= inode.ctimeMs)) {
      inode.atimeMs = Date.now();
    }
    return data;
  },
  write(f, data, pos) {
    if (!f.writable) throw new SysError(Errno.EBADF);
    if (pos !== undefined && pos < 0) throw new SysError(Errno.EINVAL);
    const inode = f.inode;
    // O_APPEND wins even over pwrite's offset, as on Linux.
    const at = f.flags & O_APPEND ? inode.size : pos ?? f.pos;
    const n = inode.fs.write(inode, at, data);
    if (pos === undefined) f.pos = at + n;
    return n;
  },
  seek(f, offset, whence) {
    return newOffset(f, offset, whence, f.inode.size);
  },
};

export const directoryOps: FileOps = {
  read() {
    throw new SysError(Errno.EISDIR);
  },
  write() {
    throw new SysError(Errno.EBADF);
  },
  /** The position is an entry index; only SET and CUR make sense. */
  seek(f, offset, whence) {
    if (whence !== SEEK_SET && whence !== SEEK_CUR) throw new SysError(Errno.EINVAL, 'whence');
    return newOffset(f, offset, whence, 0);
  },
};
