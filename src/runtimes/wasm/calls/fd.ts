// fd_*: calls on open descriptors, each one or a few kernel syscalls on the WASI fd's kernel fd.

import { F_GETFL, F_SETFL, O_APPEND, O_NONBLOCK, SEEK_CUR, SEEK_SET } from '../../../abi/fcntl.js';
import { DT_CHR, DT_DIR, DT_LNK, DT_REG, DT_SOCK } from '../../../abi/stat.js';
import {
  ALL_FDFLAGS, ALL_RIGHTS, DIRENT_SIZE, FDFLAG_APPEND, FDFLAG_NONBLOCK, Filetype, PREOPENTYPE_DIR, RIGHT, WasiErrno,
} from '../abi.js';
import { WasiError } from '../errno.js';
import { TTY_DROPPED_RIGHTS, type WasiFd } from '../fds.js';
import { Memory } from '../memory.js';
import { timesFor, type WasiState } from '../state.js';

/** getdents64's DT_BLK (the kernel has no block devices yet). */
const DT_BLK = 6;

const DT_TO_FILETYPE: Record<number, number> = {
  [DT_DIR]: Filetype.DIRECTORY, [DT_REG]: Filetype.REGULAR_FILE, [DT_LNK]: Filetype.SYMBOLIC_LINK,
  [DT_CHR]: Filetype.CHARACTER_DEVICE, [DT_BLK]: Filetype.BLOCK_DEVICE, [DT_SOCK]: Filetype.SOCKET_STREAM,
};

/** Rights arrive as i64; every defined right is in the low 30 bits. */
export const rights = (r: bigint): number => Number(BigInt.asUintN(64, r) & BigInt(ALL_RIGHTS));

export function fdCalls(w: WasiState) {
  const { sys, mem, fds } = w;

  /** fsync-like calls: files and directories have nothing to flush; a pipe cannot be synced (EINVAL). */
  const sync = (fd: number, right: number): void => {
    const t = fds.type(fds.get(fd, right));
    if (t !== Filetype.REGULAR_FILE && t !== Filetype.DIRECTORY) throw new WasiError(WasiErrno.INVAL);
  };

  /** One read(2) (readv's): the library splits what exceeds the channel. */
  const readInto = (f: WasiFd, iovs: [number, number][], pos?: number): number => {
    const want = iovs.reduce((n, [, len]) => n + len, 0);
    const data = pos === undefined ? sys.read(f.kfd, want) : sys.pread(f.kfd, want, pos);
    return mem.scatter(iovs, data);
  };

  /** One write(2) (writev's): the library splits what exceeds the channel. */
  const writeFrom = (f: WasiFd, iovs: [number, number][], pos?: number): number => {
    const data = mem.gather(iovs);
    return pos === undefined ? sys.write(f.kfd, data) : sys.pwrite(f.kfd, data, pos);
  };

  return {
    fd_advise(fd: number, _offset: bigint, _len: bigint, advice: number): void {
      const t = fds.type(fds.get(fd, RIGHT.FD_ADVISE));
      if (advice > 5) throw new WasiError(WasiErrno.INVAL);
      if (t === Filetype.UNKNOWN) throw new WasiError(WasiErrno.SPIPE);
    },

    /** posix_fallocate: make the file at least offset+len long. */
    fd_allocate(fd: number, offset: bigint, len: bigint): void {
      const f = fds.get(fd, RIGHT.FD_ALLOCATE);
      const t = fds.type(f);
      if (t === Filetype.DIRECTORY) throw new WasiError(WasiErrno.ISDIR);
      if (t !== Filetype.REGULAR_FILE) throw new WasiError(t === Filetype.UNKNOWN ? WasiErrno.SPIPE : WasiErrno.NODEV);
      if (offset < 0n || len <= 0n) throw new WasiError(WasiErrno.INVAL);
      const end = Number(offset + len);
      if (end > sys.fstat(f.kfd).size) sys.ftruncate(f.kfd, end);
    },

    fd_close(fd: number): void {
      const f = fds.get(fd);
      sys.close(f.kfd);
      fds.remove(fd);
    },

    fd_datasync(fd: number): void {
      sync(fd, RIGHT.FD_DATASYNC);
    },

    fd_sync(fd: number): void {
      sync(fd, RIGHT.FD_SYNC);
    },

    fd_fdstat_get(fd: number, ptr: number): void {
      const f = fds.get(fd);
      const type = fds.type(f);
      if (type === Filetype.CHARACTER_DEVICE && f.rightsBase & TTY_DROPPED_RIGHTS && sys.isatty(f.kfd)) {
        f.rightsBase &= ~TTY_DROPPED_RIGHTS;
      }
      const fl = sys.fcntl(f.kfd, F_GETFL);
      mem.setU8(ptr, type);
      mem.setU8(ptr + 1, 0);
      mem.setU16(ptr + 2, (fl & O_APPEND ? FDFLAG_APPEND : 0) | (fl & O_NONBLOCK ? FDFLAG_NONBLOCK : 0));
      mem.setU32(ptr + 4, 0);
      mem.setU64(ptr + 8, f.rightsBase);
      mem.setU64(ptr + 16, f.rightsInheriting);
    },

    /** APPEND and NONBLOCK live on the open file description; the sync flags have nothing to do here. */
    fd_fdstat_set_flags(fd: number, flags: number): void {
      const f = fds.get(fd, RIGHT.FD_FDSTAT_SET_FLAGS);
      if (flags & ~ALL_FDFLAGS) throw new WasiError(WasiErrno.INVAL);
      sys.fcntl(f.kfd, F_SETFL, (flags & FDFLAG_APPEND ? O_APPEND : 0) | (flags & FDFLAG_NONBLOCK ? O_NONBLOCK : 0));
    },

    /** Rights can only shrink. */
    fd_fdstat_set_rights(fd: number, base: bigint, inheriting: bigint): void {
      const f = fds.get(fd);
      const b = rights(base);
      const i = rights(inheriting);
      if (b & ~f.rightsBase || i & ~f.rightsInheriting) throw new WasiError(WasiErrno.NOTCAPABLE);
      f.rightsBase = b;
      f.rightsInheriting = i;
    },

    fd_filestat_get(fd: number, ptr: number): void {
      w.writeFilestat(ptr, sys.fstat(fds.get(fd, RIGHT.FD_FILESTAT_GET).kfd));
    },

    fd_filestat_set_size(fd: number, size: bigint): void {
      sys.ftruncate(fds.get(fd, RIGHT.FD_FILESTAT_SET_SIZE).kfd, Number(size));
    },

    fd_filestat_set_times(fd: number, atim: bigint, mtim: bigint, fst: number): void {
      const f = fds.get(fd, RIGHT.FD_FILESTAT_SET_TIMES);
      const [a, m] = timesFor(fst, atim, mtim, () => sys.fstat(f.kfd));
      sys.raw.call('futimes', f.kfd, a, m);
    },

    fd_pread(fd: number, iovs: number, n: number, offset: bigint, out: number): void {
      const f = fds.get(fd, RIGHT.FD_READ | RIGHT.FD_SEEK);
      mem.setU32(out, readInto(f, mem.iovecs(iovs, n), Number(offset)));
    },

    fd_pwrite(fd: number, iovs: number, n: number, offset: bigint, out: number): void {
      const f = fds.get(fd, RIGHT.FD_WRITE | RIGHT.FD_SEEK);
      mem.setU32(out, writeFrom(f, mem.iovecs(iovs, n), Number(offset)));
    },

    fd_read(fd: number, iovs: number, n: number, out: number): void {
      mem.setU32(out, readInto(fds.get(fd, RIGHT.FD_READ), mem.iovecs(iovs, n)));
    },

    fd_write(fd: number, iovs: number, n: number, out: number): void {
      mem.setU32(out, writeFrom(fds.get(fd, RIGHT.FD_WRITE), mem.iovecs(iovs, n)));
    },

    fd_prestat_get(fd: number, ptr: number): void {
      const f = fds.get(fd);
      if (f.preopen === undefined) throw new WasiError(WasiErrno.BADF);
      mem.setU32(ptr, PREOPENTYPE_DIR);
      mem.setU32(ptr + 4, Memory.encode(f.preopen).byteLength);
    },

    fd_prestat_dir_name(fd: number, ptr: number, len: number): void {
      const f = fds.get(fd);
      if (f.preopen === undefined) throw new WasiError(WasiErrno.BADF);
      const name = Memory.encode(f.preopen);
      if (len < name.byteLength) throw new WasiError(WasiErrno.NAMETOOLONG);
      mem.slice(ptr, name.byteLength).set(name);
    },

    /**
     * The kernel's directory offset is an entry index, so a cookie is one:
     * seek there and take as many entries as can fit. An entry cut short by
     * the end of the buffer fills it, which tells libc to retry with a bigger one.
     */
    fd_readdir(fd: number, buf: number, len: number, cookie: bigint, out: number): void {
      const f = fds.get(fd, RIGHT.FD_READDIR);
      const start = Number(cookie);
      sys.lseek(f.kfd, start, SEEK_SET);
      const batch = sys.raw.call('getdents', f.kfd, Math.floor(len / DIRENT_SIZE) + 1) as [string, number, number][];
      let used = 0;
      for (let i = 0; i < batch.length && used < len; i++) {
        const [name, ino, dt] = batch[i];
        const nameBytes = Memory.encode(name);
        const rec = new Uint8Array(DIRENT_SIZE + nameBytes.byteLength);
        const dv = new DataView(rec.buffer);
        dv.setBigUint64(0, BigInt(start + i + 1), true);
        dv.setBigUint64(8, BigInt(ino), true);
        dv.setUint32(16, nameBytes.byteLength, true);
        dv.setUint8(20, DT_TO_FILETYPE[dt] ?? Filetype.UNKNOWN);
        rec.set(nameBytes, DIRENT_SIZE);
        const n = Math.min(rec.byteLength, len - used);
        mem.slice(buf + used, n).set(rec.subarray(0, n));
        used += n;
      }
      mem.setU32(out, used);
    },

    fd_renumber(from: number, to: number): void {
      fds.renumber(from, to);
    },

    fd_seek(fd: number, offset: bigint, whence: number, out: number): void {
      const tellOnly = whence === SEEK_CUR && offset === 0n;
      const f = fds.get(fd, tellOnly ? RIGHT.FD_TELL : RIGHT.FD_SEEK);
      if (whence > 2) throw new WasiError(WasiErrno.INVAL);
      mem.setU64(out, sys.lseek(f.kfd, Number(offset), whence));
    },

    fd_tell(fd: number, out: number): void {
      mem.setU64(out, sys.lseek(fds.get(fd, RIGHT.FD_TELL).kfd, 0, SEEK_CUR));
    },
  };
}
