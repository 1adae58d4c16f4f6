// A 9P2000.L server over agentOS's VFS, answering the raw messages of v86's virtio-9p device
// (its `filesystem.handle9p` hook). Every operation is a syscall of the calling `linux`
// process, so the VM's policy binds the guest exactly as it binds that process: a hidden path
// does not exist, a read-only one refuses writes, permissions are checked as the VM user.
// The guest's root is that user: every file is reported as owned by uid 0 and gid 0, and
// chown from the guest changes nothing.

import { Errno, SysError } from '../../abi/errno.js';
import { O_APPEND, O_CREAT, O_EXCL, O_TRUNC } from '../../abi/fcntl.js';
import { isDir, isLnk, type Stat } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import type { RootFs } from './rootfs.js';

/** Message types (T; the reply is T+1, Rlerror is 7). */
export const T = {
  statfs: 8, lopen: 12, lcreate: 14, symlink: 16, mknod: 18, rename: 20, readlink: 22, getattr: 24, setattr: 26,
  xattrwalk: 30, readdir: 40, fsync: 50, lock: 52, getlock: 54, link: 70, mkdir: 72, renameat: 74, unlinkat: 76,
  version: 100, attach: 104, flush: 108, walk: 110, read: 116, write: 118, clunk: 120, remove: 122,
} as const;
export const RLERROR = 7;
const AT_REMOVEDIR = 0x200;
/** Setattr's valid bits (P9_ATTR_*). */
const ATTR = { mode: 1, uid: 2, gid: 4, size: 8, atime: 16, mtime: 32, atimeSet: 128, mtimeSet: 256 } as const;
export const MSIZE = 128 * 1024;

interface Fid {
  path: string;
  /** Open for I/O (lopen/lcreate): its descriptor, opened again after a warm guest changes process. */
  fd?: number;
  flags?: number;
  entries?: { name: string; ino: number; type: number }[];
}

export class Reader {
  private at = 7;
  private view: DataView;
  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  u8(): number { return this.view.getUint8(this.at++); }
  u16(): number { const v = this.view.getUint16(this.at, true); this.at += 2; return v; }
  u32(): number { const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
  u64(): number { const v = Number(this.view.getBigUint64(this.at, true)); this.at += 8; return v; }
  str(): string { const n = this.u16(); const s = new TextDecoder().decode(this.buf.subarray(this.at, this.at + n)); this.at += n; return s; }
  bytes(n: number): Uint8Array { const b = this.buf.subarray(this.at, this.at + n); this.at += n; return b; }
}

export class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private at = 7;
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): this { this.room(1); this.view.setUint8(this.at++, v); return this; }
  u16(v: number): this { this.room(2); this.view.setUint16(this.at, v, true); this.at += 2; return this; }
  u32(v: number): this { this.room(4); this.view.setUint32(this.at, v >>> 0, true); this.at += 4; return this; }
  u64(v: number): this { this.room(8); this.view.setBigUint64(this.at, BigInt(Math.max(0, Math.floor(v))), true); this.at += 8; return this; }
  str(s: string): this { const b = new TextEncoder().encode(s); this.u16(b.length); return this.bytes(b); }
  bytes(b: Uint8Array): this { this.room(b.length); this.buf.set(b, this.at); this.at += b.length; return this; }
  qid(st: Stat): this {
    return this.u8(isDir(st.mode) ? 0x80 : isLnk(st.mode) ? 0x02 : 0).u32(Math.floor(st.mtimeMs)).u64(st.ino);
  }
  /** The whole message: size, type, tag, body. */
  done(type: number, tag: number): Uint8Array {
    this.view.setUint32(0, this.at, true);
    this.view.setUint8(4, type);
    this.view.setUint16(5, tag, true);
    return this.buf.slice(0, this.at);
  }
}

const join = (dir: string, name: string): string => (dir === '/' ? `/${name}` : `${dir}/${name}`);
const parent = (path: string): string => path.slice(0, path.lastIndexOf('/')) || '/';

/** Tgetlock's answer after its fid: F_UNLCK, no conflicting lock (advisory locks are the guest kernel's own business). */
export function noConflictingLock(r: Reader, w: Writer): void {
  r.u8();
  const start = r.u64();
  const length = r.u64();
  const proc = r.u32();
  w.u8(2).u64(start).u64(length).u32(proc).str(r.str());
}

export class P9Server {
  private fids = new Map<number, Fid>();
  /** The Debian root, when a caller asked for it: its fids are its own (rootfs.ts). */
  root: RootFs | null = null;

  /** `sys` is the process whose syscalls serve the guest; a warm guest's next caller replaces it. */
  constructor(public sys: Sys) {}

  handle(req: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const r = new Reader(req);
    const type = req[4];
    const tag = req[5] | (req[6] << 8);
    if (this.root?.claims(req, (fid) => this.fids.get(fid)?.path === '/')) return this.root.handle(req);
    const w = new Writer();
    try {
      this.dispatch(type, r, w);
      return w.done(type + 1, tag);
    } catch (e) {
      const errno = e instanceof SysError ? e.errno : Errno.EIO;
      return new Writer().u32(errno).done(RLERROR, tag);
    }
  }

  private fid(n: number): Fid {
    const f = this.fids.get(n);
    if (!f) throw new SysError(Errno.EBADF);
    return f;
  }

  /** The fid's descriptor in the current process. */
  private fdOf(f: Fid): number {
    if (f.flags === undefined) throw new SysError(Errno.EBADF);
    f.fd ??= this.sys.open(f.path, f.flags & ~(O_TRUNC | O_CREAT | O_EXCL));
    return f.fd;
  }

  private closeFid(f: Fid): void {
    if (f.fd !== undefined) this.sys.close(f.fd);
    f.fd = undefined;
  }

  private dispatch(type: number, r: Reader, w: Writer): void {
    const sys = this.sys;
    switch (type) {
      case T.version: {
        const msize = r.u32();
        r.str();
        for (const f of this.fids.values()) this.closeFid(f);
        this.fids.clear();
        this.root?.reset();
        w.u32(Math.min(msize, MSIZE)).str('9P2000.L');
        return;
      }
      case T.attach: {
        const fid = r.u32();
        this.fids.set(fid, { path: '/' });
        w.qid(sys.stat('/'));
        return;
      }
      case T.flush: return;
      case T.walk: {
        const from = this.fid(r.u32());
        const newfid = r.u32();
        const n = r.u16();
        const names = Array.from({ length: n }, () => r.str());
        let path = from.path;
        const qids: Stat[] = [];
        for (const name of names) {
          const next = name === '..' ? parent(path) : name === '.' ? path : join(path, name);
          try {
            qids.push(sys.lstat(next));
          } catch (e) {
            if (qids.length === 0) throw e;
            break;
          }
          path = next;
        }
        if (qids.length === n) this.fids.set(newfid, { path });
        w.u16(qids.length);
        for (const q of qids) w.qid(q);
        return;
      }
      case T.lopen: {
        const f = this.fid(r.u32());
        const flags = r.u32();
        const st = sys.stat(f.path);
        this.closeFid(f);
        if (isDir(st.mode)) f.entries = undefined;
        else {
          f.flags = (flags & 3) | (flags & (O_TRUNC | O_APPEND));
          f.fd = sys.open(f.path, f.flags);
        }
        w.qid(st).u32(MSIZE - 24);
        return;
      }
      case T.lcreate: {
        const f = this.fid(r.u32());
        const name = r.str();
        const flags = r.u32();
        const mode = r.u32();
        r.u32();
        const path = join(f.path, name);
        const how = (flags & 3) | O_CREAT | (flags & (O_EXCL | O_TRUNC | O_APPEND));
        const fd = sys.open(path, how, mode & 0o7777);
        this.closeFid(f);
        f.path = path;
        f.fd = fd;
        f.flags = how;
        w.qid(sys.fstat(fd)).u32(MSIZE - 24);
        return;
      }
      case T.symlink: {
        const f = this.fid(r.u32());
        const path = join(f.path, r.str());
        sys.symlink(r.str(), path);
        w.qid(sys.lstat(path));
        return;
      }
      case T.mknod: {
        const f = this.fid(r.u32());
        const path = join(f.path, r.str());
        const mode = r.u32();
        const major = r.u32();
        const minor = r.u32();
        sys.mknod(path, mode, (major << 8) | minor);
        w.qid(sys.lstat(path));
        return;
      }
      case T.rename: {
        const f = this.fid(r.u32());
        const dir = this.fid(r.u32());
        const to = join(dir.path, r.str());
        sys.rename(f.path, to);
        f.path = to;
        return;
      }
      case T.readlink: w.str(sys.readlink(this.fid(r.u32()).path)); return;
      case T.getattr: {
        const st = sys.lstat(this.fid(r.u32()).path);
        const sec = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.floor((ms % 1000) * 1e6)];
        w.u64(0x7ff).qid(st).u32(st.mode).u32(0).u32(0).u64(st.nlink).u64(st.rdev).u64(st.size).u64(st.blksize || 4096).u64(st.blocks);
        for (const t of [st.atimeMs, st.mtimeMs, st.ctimeMs, 0]) { const [s, ns] = sec(t); w.u64(s).u64(ns); }
        w.u64(0).u64(0);
        return;
      }
      case T.setattr: {
        const f = this.fid(r.u32());
        const valid = r.u32();
        const mode = r.u32();
        r.u32(); r.u32(); // uid, gid: the guest's root is the VM user, whom chown cannot change
        const size = r.u64();
        const atime = r.u64() * 1000 + r.u64() / 1e6;
        const mtime = r.u64() * 1000 + r.u64() / 1e6;
        if (valid & ATTR.mode) sys.chmod(f.path, mode & 0o7777);
        if (valid & ATTR.size) {
          if (f.flags !== undefined && f.flags & 3) sys.ftruncate(this.fdOf(f), size);
          else sys.truncate(f.path, size);
        }
        if (valid & (ATTR.atime | ATTR.mtime)) {
          const now = Date.now();
          const a = valid & ATTR.atime ? (valid & ATTR.atimeSet ? atime : now) : null;
          const m = valid & ATTR.mtime ? (valid & ATTR.mtimeSet ? mtime : now) : null;
          sys.utimes(f.path, a, m);
        }
        return;
      }
      case T.xattrwalk: throw new SysError(Errno.ENOTSUP);
      case T.readdir: {
        const f = this.fid(r.u32());
        const offset = r.u64();
        const count = r.u32();
        if (!f.entries || offset === 0) f.entries = sys.readdir(f.path); // with . and .., as getdents has them
        const body = new Writer();
        let n = 0;
        for (let i = offset; i < f.entries.length; i++) {
          const e = f.entries[i];
          const name = new TextEncoder().encode(e.name);
          const size = 13 + 8 + 1 + 2 + name.length;
          if (n + size > count) break;
          body.u8(e.type === 4 ? 0x80 : e.type === 10 ? 0x02 : 0).u32(0).u64(e.ino).u64(i + 1).u8(e.type).u16(name.length).bytes(name);
          n += size;
        }
        const data = body.done(0, 0).subarray(7);
        w.u32(data.length).bytes(data);
        return;
      }
      case T.fsync: {
        const f = this.fid(r.u32());
        if (f.flags !== undefined) sys.fsync(this.fdOf(f));
        return;
      }
      case T.lock: w.u8(0); return; // advisory locks are the guest kernel's own business
      case T.getlock: {
        this.fid(r.u32());
        return noConflictingLock(r, w);
      }
      case T.link: {
        const dir = this.fid(r.u32());
        const f = this.fid(r.u32());
        sys.link(f.path, join(dir.path, r.str()));
        return;
      }
      case T.mkdir: {
        const dir = this.fid(r.u32());
        const path = join(dir.path, r.str());
        sys.mkdir(path, r.u32() & 0o7777);
        w.qid(sys.lstat(path));
        return;
      }
      case T.renameat: {
        const from = join(this.fid(r.u32()).path, r.str());
        sys.rename(from, join(this.fid(r.u32()).path, r.str()));
        return;
      }
      case T.unlinkat: {
        const path = join(this.fid(r.u32()).path, r.str());
        if (r.u32() & AT_REMOVEDIR) sys.rmdir(path);
        else sys.unlink(path);
        return;
      }
      case T.statfs: {
        const st = sys.statfs(this.fid(r.u32()).path);
        w.u32(0x01021997).u32(st.bsize).u64(st.blocks).u64(st.bfree).u64(st.bavail).u64(st.files).u64(st.ffree).u64(0).u32(255);
        return;
      }
      case T.read: {
        const f = this.fid(r.u32());
        const offset = r.u64();
        const count = Math.min(r.u32(), MSIZE - 24);
        const data = sys.pread(this.fdOf(f), count, offset);
        w.u32(data.length).bytes(data);
        return;
      }
      case T.write: {
        const f = this.fid(r.u32());
        const offset = r.u64();
        const data = r.bytes(r.u32());
        w.u32(sys.pwrite(this.fdOf(f), data, offset));
        return;
      }
      case T.clunk: {
        const n = r.u32();
        const f = this.fid(n);
        this.fids.delete(n);
        this.closeFid(f);
        return;
      }
      case T.remove: {
        const n = r.u32();
        const f = this.fid(n);
        this.fids.delete(n);
        this.closeFid(f);
        if (isDir(sys.lstat(f.path).mode)) sys.rmdir(f.path);
        else sys.unlink(f.path);
        return;
      }
      default: throw new SysError(Errno.ENOTSUP);
    }
  }

  /**
   * The process ends but a warm guest's fids live on: close their descriptors while they are
   * still this process's; the next caller's syscalls open them again on use.
   */
  release(): void {
    for (const f of this.fids.values()) {
      try {
        this.closeFid(f);
      } catch {
        f.fd = undefined;
      }
    }
  }
}

