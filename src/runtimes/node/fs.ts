// The `fs` module over the kernel's syscalls: every operation is a synchronous
// syscall, so the callback and promise forms are the sync form delivered on the
// next tick. Errors are Node's (`ENOENT: no such file or directory, open '/x'`).

import { Buffer } from 'buffer';
import { decodeBytes, encodeBytes } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import * as F from '../../abi/fcntl.js';
import { DT_CHR, DT_DIR, DT_FIFO, DT_LNK, DT_REG, DT_SOCK, S_IFMT, S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFREG, S_IFSOCK, type Stat } from '../../abi/stat.js';
import { nodeError, uv, uvError } from './errors.js';
import type { Rt } from './rt.js';
import { Readable, Writable } from './stream.js';

type Opts = Record<string, unknown>;
type Cb = (err: Error | null, ...v: unknown[]) => void;
type AnyFn = (...a: unknown[]) => unknown;

export const constants = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: F.O_RDONLY, O_WRONLY: F.O_WRONLY, O_RDWR: F.O_RDWR, O_CREAT: F.O_CREAT, O_EXCL: F.O_EXCL, O_NOCTTY: F.O_NOCTTY,
  O_TRUNC: F.O_TRUNC, O_APPEND: F.O_APPEND, O_DIRECTORY: F.O_DIRECTORY, O_NOFOLLOW: F.O_NOFOLLOW, O_NONBLOCK: F.O_NONBLOCK,
  O_SYNC: 0o4010000, O_DSYNC: 0o10000,
  S_IFMT, S_IFREG, S_IFDIR, S_IFCHR, S_IFBLK, S_IFIFO, S_IFLNK, S_IFSOCK,
  S_IRWXU: 0o700, S_IRUSR: 0o400, S_IWUSR: 0o200, S_IXUSR: 0o100, S_IRWXG: 0o70, S_IRGRP: 0o40, S_IWGRP: 0o20, S_IXGRP: 0o10,
  S_IRWXO: 0o7, S_IROTH: 0o4, S_IWOTH: 0o2, S_IXOTH: 0o1, UV_FS_COPYFILE_EXCL: 1,
};

const FLAGS: Record<string, number> = {
  r: F.O_RDONLY, rs: F.O_RDONLY, sr: F.O_RDONLY, 'r+': F.O_RDWR, 'rs+': F.O_RDWR, 'sr+': F.O_RDWR,
  w: F.O_TRUNC | F.O_CREAT | F.O_WRONLY, wx: F.O_TRUNC | F.O_CREAT | F.O_WRONLY | F.O_EXCL, xw: F.O_TRUNC | F.O_CREAT | F.O_WRONLY | F.O_EXCL,
  'w+': F.O_TRUNC | F.O_CREAT | F.O_RDWR, 'wx+': F.O_TRUNC | F.O_CREAT | F.O_RDWR | F.O_EXCL, 'xw+': F.O_TRUNC | F.O_CREAT | F.O_RDWR | F.O_EXCL,
  a: F.O_APPEND | F.O_CREAT | F.O_WRONLY, ax: F.O_APPEND | F.O_CREAT | F.O_WRONLY | F.O_EXCL, xa: F.O_APPEND | F.O_CREAT | F.O_WRONLY | F.O_EXCL,
  as: F.O_APPEND | F.O_CREAT | F.O_WRONLY, sa: F.O_APPEND | F.O_CREAT | F.O_WRONLY,
  'a+': F.O_APPEND | F.O_CREAT | F.O_RDWR, 'ax+': F.O_APPEND | F.O_CREAT | F.O_RDWR | F.O_EXCL, 'xa+': F.O_APPEND | F.O_CREAT | F.O_RDWR | F.O_EXCL,
  'as+': F.O_APPEND | F.O_CREAT | F.O_RDWR, 'sa+': F.O_APPEND | F.O_CREAT | F.O_RDWR,
};

function flagsOf(f: unknown, dflt: string): number {
  if (f === undefined || f === null) f = dflt;
  if (typeof f === 'number') return f;
  const v = FLAGS[String(f)];
  if (v === undefined) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'flags' is invalid. Received '${String(f)}'`);
  return v;
}

/** A path argument as the kernel takes it: a Buffer's bytes kept as they are (abi/bytestr.ts); no NUL, as in Node. */
export function toPath(p: unknown, name = 'path'): string {
  let path: string | null = null;
  if (typeof p === 'string') path = p;
  else if (p instanceof Uint8Array) path = decodeBytes(p.slice());
  else if (p instanceof URL) {
    if (p.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
    path = decodeURIComponent(p.pathname);
  }
  if (path !== null) {
    if (!path.includes('\0')) return path;
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument '${name}' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(path)}`);
  }
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be of type string or an instance of Buffer or URL. Received ${p === null ? 'null' : typeof p === 'object' ? 'an instance of ' + (p.constructor?.name ?? 'Object') : `type ${typeof p} (${String(p)})`}`);
}

/** A time as fs.utimes takes it (a Date, or seconds) → milliseconds. */
const timeMs = (t: number | Date): number => (t instanceof Date ? t.getTime() : Number(t) * 1000);
const opt = (o: unknown): Opts => (typeof o === 'string' ? { encoding: o } : ((o ?? {}) as Opts));
const encode = (b: Uint8Array, enc: unknown): Buffer | string => {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return enc && enc !== 'buffer' ? buf.toString(enc as BufferEncoding) : buf;
};
const bytes = (d: unknown, enc?: unknown): Uint8Array => {
  if (typeof d === 'string') return Buffer.from(d, (enc as BufferEncoding) || 'utf8');
  if (d instanceof Uint8Array) return d;
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${d === null ? 'null' : typeof d}`);
};

export class Stats {
  dev!: number; ino!: number; mode!: number; nlink!: number; uid!: number; gid!: number; rdev!: number; size!: number;
  blksize!: number; blocks!: number; atimeMs!: number; mtimeMs!: number; ctimeMs!: number; birthtimeMs!: number;
  atime!: Date; mtime!: Date; ctime!: Date; birthtime!: Date;
  constructor(s: Stat) {
    Object.assign(this, { dev: s.dev, mode: s.mode, nlink: s.nlink, uid: s.uid, gid: s.gid, rdev: s.rdev, blksize: s.blksize, ino: s.ino,
      size: s.size, blocks: s.blocks, atimeMs: s.atimeMs, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, birthtimeMs: s.ctimeMs,
      atime: new Date(s.atimeMs), mtime: new Date(s.mtimeMs), ctime: new Date(s.ctimeMs), birthtime: new Date(s.ctimeMs) });
  }
  private t(): number { return this.mode & S_IFMT; }
  isFile(): boolean { return this.t() === S_IFREG; }
  isDirectory(): boolean { return this.t() === S_IFDIR; }
  isSymbolicLink(): boolean { return this.t() === S_IFLNK; }
  isFIFO(): boolean { return this.t() === S_IFIFO; }
  isCharacterDevice(): boolean { return this.t() === S_IFCHR; }
  isBlockDevice(): boolean { return this.t() === S_IFBLK; }
  isSocket(): boolean { return this.t() === S_IFSOCK; }
}

export class Dirent {
  constructor(readonly name: string, private type: number, readonly parentPath: string) {}
  get path(): string { return this.parentPath; }
  isFile(): boolean { return this.type === DT_REG; }
  isDirectory(): boolean { return this.type === DT_DIR; }
  isSymbolicLink(): boolean { return this.type === DT_LNK; }
  isFIFO(): boolean { return this.type === DT_FIFO; }
  isCharacterDevice(): boolean { return this.type === DT_CHR; }
  isBlockDevice(): boolean { return this.type === 6; }
  isSocket(): boolean { return this.type === DT_SOCK; }
}

export function makeFs(rt: Rt) {
  const sys = rt.sys;
  /** Raw I/O on fds 0-2 must see (or come after) what console and process.stdout buffered. */
  const raw = (fd: number) => { if (fd <= 2) rt.stdio.flush(); };
  const fdOrOpen = (p: unknown, flags: number, mode: number, syscall = 'open'): [number, boolean] => {
    if (typeof p === 'number') {
      raw(p);
      return [p, false];
    }
    const path = toPath(p);
    return [uv(syscall, () => sys.open(path, flags, mode), path), true];
  };
  const isNoEnt = (e: unknown) => e instanceof SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR);

  const sync = {
    readFileSync(p: unknown, o?: unknown) {
      const { encoding, flag } = opt(o);
      const [fd, own] = fdOrOpen(p, flagsOf(flag, 'r'), 0o666);
      try {
        return encode(uv('read', () => sys.readAll(fd)), encoding);
      } finally {
        if (own) sys.close(fd);
      }
    },
    writeFileSync(p: unknown, data: unknown, o?: unknown) {
      const { encoding, mode, flag } = opt(o);
      const b = bytes(data, encoding);
      const [fd, own] = fdOrOpen(p, flagsOf(flag, 'w'), (mode as number) ?? 0o666);
      try {
        uv('write', () => sys.writeAll(fd, b));
      } finally {
        if (own) sys.close(fd);
      }
    },
    appendFileSync(p: unknown, data: unknown, o?: unknown) {
      const oo = opt(o);
      sync.writeFileSync(p, data, { ...oo, flag: oo.flag ?? 'a' });
    },
    existsSync(p: unknown) {
      try {
        sys.access(toPath(p), 0);
        return true;
      } catch {
        return false;
      }
    },
    accessSync(p: unknown, mode = 0) {
      const path = toPath(p);
      uv('access', () => sys.access(path, mode), path);
    },
    statSync(p: unknown, o?: Opts) {
      const path = toPath(p);
      try {
        return new Stats(sys.stat(path));
      } catch (e) {
        if (o?.throwIfNoEntry === false && isNoEnt(e)) return undefined;
        throw e instanceof SysError ? uvError(e.errno, 'stat', path) : e;
      }
    },
    lstatSync(p: unknown, o?: Opts) {
      const path = toPath(p);
      try {
        return new Stats(sys.lstat(path));
      } catch (e) {
        if (o?.throwIfNoEntry === false && isNoEnt(e)) return undefined;
        throw e instanceof SysError ? uvError(e.errno, 'lstat', path) : e;
      }
    },
    fstatSync: (fd: number) => new Stats(uv('fstat', () => sys.fstat(fd))),
    readdirSync(p: unknown, o?: unknown) {
      const path = toPath(p);
      const { withFileTypes, recursive, encoding } = opt(o);
      const list = (dir: string, rel: string): (string | Dirent)[] => {
        const ents = uv('scandir', () => sys.readdir(dir), dir).filter((e) => e.name !== '.' && e.name !== '..');
        const out: (string | Dirent)[] = [];
        for (const e of ents) {
          let type = e.type;
          if (type === 0) try { type = (sys.lstat(`${dir}/${e.name}`).mode & S_IFMT) >> 12; } catch { /* vanished */ }
          out.push(withFileTypes ? new Dirent(e.name, type, dir) : encoding === 'buffer' ? (Buffer.from(encodeBytes(rel + e.name)) as unknown as string) : rel + e.name);
          if (recursive && type === DT_DIR) out.push(...list(`${dir}/${e.name}`, `${rel}${e.name}/`));
        }
        return out;
      };
      return list(path, '');
    },
    mkdirSync(p: unknown, o?: unknown) {
      const path = rt.path.resolve(toPath(p));
      const { recursive, mode } = (typeof o === 'number' ? { mode: o } : (o ?? {})) as Opts;
      const m = (mode as number) ?? 0o777;
      if (!recursive) return void uv('mkdir', () => sys.mkdir(path, m), toPath(p));
      // The missing ancestors, outermost first; the first one created is the return value.
      const missing: string[] = [];
      for (let d = path; ; d = rt.path.dirname(d)) {
        let st: Stat;
        try {
          st = sys.stat(d);
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          if (e.errno !== Errno.ENOENT) throw uvError(e.errno, 'mkdir', toPath(p));
          missing.unshift(d);
          continue;
        }
        if ((st.mode & S_IFMT) !== S_IFDIR) throw uvError(d === path ? Errno.EEXIST : Errno.ENOTDIR, 'mkdir', toPath(p));
        break;
      }
      for (const d of missing) {
        try {
          sys.mkdir(d, m);
        } catch (e) {
          if (!(e instanceof SysError && e.errno === Errno.EEXIST)) throw e instanceof SysError ? uvError(e.errno, 'mkdir', toPath(p)) : e;
        }
      }
      return missing[0];
    },
    rmdirSync(p: unknown, o?: Opts) {
      const path = toPath(p);
      if (o?.recursive) return sync.rmSync(path, { recursive: true });
      uv('rmdir', () => sys.rmdir(path), path);
    },
    rmSync(p: unknown, o?: Opts) {
      const path = toPath(p);
      let st: Stat;
      try {
        st = sys.lstat(path);
      } catch (e) {
        if (o?.force && isNoEnt(e)) return;
        throw e instanceof SysError ? uvError(e.errno, 'lstat', path) : e;
      }
      if ((st.mode & S_IFMT) === S_IFDIR) {
        if (!o?.recursive) {
          const e = nodeError(Error, 'ERR_FS_EISDIR', `Path is a directory: rm returned EISDIR (is a directory) ${path}`) as unknown as Error & Opts;
          Object.assign(e, { errno: 21, syscall: 'rm', path });
          e.name = 'SystemError';
          throw e;
        }
        for (const e of sys.readdir(path)) if (e.name !== '.' && e.name !== '..') sync.rmSync(`${path}/${e.name}`, o);
        uv('rmdir', () => sys.rmdir(path), path);
      } else uv('unlink', () => sys.unlink(path), path);
    },
    unlinkSync(p: unknown) { const path = toPath(p); uv('unlink', () => sys.unlink(path), path); },
    renameSync(a: unknown, b: unknown) { const x = toPath(a, 'oldPath'); const y = toPath(b, 'newPath'); uv('rename', () => sys.rename(x, y), x, y); },
    copyFileSync(a: unknown, b: unknown, mode = 0) {
      const x = toPath(a, 'src');
      const y = toPath(b, 'dest');
      uv('copyfile', () => {
        const data = sys.readFile(x);
        const st = sys.stat(x);
        const fd = sys.open(y, F.O_WRONLY | F.O_CREAT | F.O_TRUNC | (mode & 1 ? F.O_EXCL : 0), st.mode & 0o777);
        try { sys.writeAll(fd, data); } finally { sys.close(fd); }
      }, x, y);
    },
    cpSync(a: unknown, b: unknown, o?: Opts) {
      const x = toPath(a, 'src');
      const y = toPath(b, 'dest');
      const st = uv('lstat', () => sys.lstat(x), x);
      if ((st.mode & S_IFMT) === S_IFDIR) {
        if (!o?.recursive) throw nodeError(Error, 'ERR_FS_EISDIR', `Recursive option is required to copy a directory: ${x}`);
        sync.mkdirSync(y, { recursive: true });
        for (const e of sys.readdir(x)) if (e.name !== '.' && e.name !== '..') sync.cpSync(`${x}/${e.name}`, `${y}/${e.name}`, o);
      } else if ((st.mode & S_IFMT) === S_IFLNK) sys.symlink(sys.readlink(x), y);
      else sync.copyFileSync(x, y, o?.errorOnExist && o.force === false ? 1 : 0);
    },
    symlinkSync(target: unknown, p: unknown) { const t = toPath(target, 'target'); const path = toPath(p); uv('symlink', () => sys.symlink(t, path), t, path); },
    linkSync(a: unknown, b: unknown) { const x = toPath(a, 'existingPath'); const y = toPath(b, 'newPath'); uv('link', () => sys.link(x, y), x, y); },
    readlinkSync(p: unknown, o?: unknown) { const path = toPath(p); const r = uv('readlink', () => sys.readlink(path), path); return opt(o).encoding === 'buffer' ? Buffer.from(encodeBytes(r)) : r; },
    realpathSync(p: unknown) { const path = toPath(p); return uv('realpath', () => sys.realpath(rt.path.resolve(path)), path); },
    chmodSync(p: unknown, mode: number | string) { const path = toPath(p); uv('chmod', () => sys.chmod(path, typeof mode === 'string' ? parseInt(mode, 8) : mode), path); },
    lchmodSync(p: unknown, mode: number) { sync.chmodSync(p, mode); },
    chownSync(p: unknown, uid: number, gid: number) { const path = toPath(p); uv('chown', () => sys.chown(path, uid, gid), path); },
    lchownSync(p: unknown, uid: number, gid: number) { const path = toPath(p); uv('lchown', () => sys.lchown(path, uid, gid), path); },
    utimesSync(p: unknown, at: number | Date, mt: number | Date) {
      const path = toPath(p);
      uv('utime', () => sys.utimes(path, timeMs(at), timeMs(mt)), path);
    },
    // The fd forms (node-tar sets each extracted file's times and mode through its open fd).
    futimesSync(fd: number, at: number | Date, mt: number | Date) { uv('futime', () => sys.futimes(fd, timeMs(at), timeMs(mt))); },
    fchmodSync(fd: number, mode: number | string) { uv('fchmod', () => sys.fchmod(fd, typeof mode === 'string' ? parseInt(mode, 8) : mode)); },
    fchownSync(fd: number, uid: number, gid: number) { uv('fchown', () => sys.fchown(fd, uid, gid)); },
    lutimesSync(p: unknown, at: number | Date, mt: number | Date) { sync.utimesSync(p, at, mt); },
    truncateSync(p: unknown, len = 0) { const path = toPath(p); uv('open', () => sys.truncate(path, len), path); },
    ftruncateSync(fd: number, len = 0) { uv('ftruncate', () => sys.ftruncate(fd, len)); },
    openSync(p: unknown, flags?: unknown, mode?: number) { const path = toPath(p); return uv('open', () => sys.open(path, flagsOf(flags, 'r'), mode ?? 0o666), path); },
    closeSync(fd: number) { uv('close', () => sys.close(fd)); },
    fsyncSync(fd: number) { uv('fsync', () => sys.fsync(fd)); },
    fdatasyncSync(fd: number) { uv('fdatasync', () => sys.fsync(fd)); },
    readSync(fd: number, buf: Uint8Array, off?: unknown, len?: number, pos?: number | bigint | null) {
      raw(fd);
      if (typeof off === 'object' && off !== null) ({ offset: off, length: len, position: pos } = off as { offset?: number; length?: number; position?: number });
      const offset = (off as number | undefined) ?? 0;
      const length = len ?? buf.byteLength - offset;
      const p = pos === null || pos === undefined || pos === -1 ? null : Number(pos);
      const data = uv('read', () => (p === null ? sys.read(fd, length) : sys.pread(fd, length, p)));
      buf.set(data, offset);
      return data.byteLength;
    },
    writeSync(fd: number, data: unknown, a?: unknown, b?: unknown, c?: unknown) {
      raw(fd);
      let chunk: Uint8Array;
      let pos: number | null = null;
      if (typeof data === 'string') {
        chunk = Buffer.from(data, (typeof b === 'string' ? b : 'utf8') as BufferEncoding);
        pos = typeof a === 'number' ? a : null;
      } else {
        const buf = bytes(data);
        const off = (a as number | undefined) ?? 0;
        const len = (b as number | undefined) ?? buf.byteLength - off;
        chunk = buf.subarray(off, off + len);
        pos = typeof c === 'number' ? c : null;
      }
      if (pos !== null) return uv('write', () => sys.pwrite(fd, chunk, pos!));
      uv('write', () => sys.writeAll(fd, chunk));
      return chunk.byteLength;
    },
    mkdtempSync(prefix: string) {
      const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
      for (;;) {
        let s = prefix;
        for (let i = 0; i < 6; i++) s += chars[Math.floor(Math.random() * chars.length)];
        try {
          sys.mkdir(s, 0o700);
          return s;
        } catch (e) {
          if (!(e instanceof SysError && e.errno === Errno.EEXIST)) throw e instanceof SysError ? uvError(e.errno, 'mkdtemp', `${prefix}XXXXXX`) : e;
        }
      }
    },
    opendirSync(p: unknown) {
      const path = toPath(p);
      const ents = sync.readdirSync(path, { withFileTypes: true }) as Dirent[];
      let i = 0;
      const dir = {
        path,
        readSync: () => ents[i++] ?? null,
        read: (cb?: Cb) => { const v = ents[i++] ?? null; if (cb) rt.loop.nextTick(cb as AnyFn, [null, v]); else return Promise.resolve(v); },
        closeSync: () => {},
        close: (cb?: Cb) => { if (cb) rt.loop.nextTick(cb as AnyFn, [null]); else return Promise.resolve(); },
        async *[Symbol.asyncIterator]() { while (i < ents.length) yield ents[i++]; },
      };
      return dir;
    },
  };

  const unsupported = (name: string) => () => {
    throw nodeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `fs.${name} is not supported by agentOS`);
  };

  const fs: Record<string, unknown> = { ...sync, constants, Stats, Dirent, F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };
  (fs.realpathSync as Opts).native = sync.realpathSync;

  // Callback forms: the sync call, its result delivered on the next tick.
  for (const [name, fn] of Object.entries(sync)) {
    const base = name.slice(0, -4);
    if (base === 'exists') continue;
    fs[base] = (...args: unknown[]) => {
      const cb = args.pop();
      if (typeof cb !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "cb" argument must be of type function. Received ${cb === undefined ? 'undefined' : typeof cb}`);
      let r: unknown;
      try {
        r = (fn as AnyFn)(...args);
      } catch (e) {
        rt.loop.nextTick(cb as AnyFn, [e]);
        return;
      }
      if (name === 'readSync' || name === 'writeSync') rt.loop.nextTick(cb as AnyFn, [null, r, args[1]]);
      else rt.loop.nextTick(cb as AnyFn, [null, r]);
    };
  }
  fs.exists = (p: unknown, cb: (b: boolean) => void) => rt.loop.nextTick(cb as AnyFn, [sync.existsSync(p)]);
  (fs.realpath as Opts).native = fs.realpath;
  fs.watch = unsupported('watch');
  fs.watchFile = unsupported('watchFile');
  fs.unwatchFile = () => {};
  fs.createReadStream = (p: unknown, o?: unknown) => createReadStream(rt, p, opt(o));
  fs.createWriteStream = (p: unknown, o?: unknown) => createWriteStream(rt, p, opt(o));
  fs.ReadStream = Readable;
  fs.WriteStream = Writable;
  fs.promises = makePromises(rt, sync);
  return fs;
}

type SyncFs = Record<string, AnyFn>;

function makePromises(rt: Rt, sync: object): Record<string, unknown> {
  const s = sync as SyncFs;
  const p: Record<string, unknown> = { constants };
  for (const [name, fn] of Object.entries(s)) {
    if (!name.endsWith('Sync') || ['existsSync', 'closeSync', 'readSync', 'writeSync', 'fsyncSync', 'fstatSync', 'ftruncateSync', 'fdatasyncSync', 'opendirSync',
      'futimesSync', 'fchmodSync', 'fchownSync'].includes(name)) continue;
    p[name.slice(0, -4)] = async (...a: unknown[]) => fn(...a);
  }
  p.opendir = async (...a: unknown[]) => s.opendirSync(...a);
  p.open = async (path: unknown, flags?: unknown, mode?: number) => new FileHandle(rt, s.openSync(path, flags, mode) as number, s);
  return p;
}

class FileHandle {
  constructor(private rt: Rt, readonly fd: number, private s: SyncFs) {}
  async read(buf?: Uint8Array | Opts, off?: number, len?: number, pos?: number | null) {
    if (!(buf instanceof Uint8Array)) {
      const o = (buf ?? {}) as Opts;
      buf = (o.buffer as Uint8Array) ?? Buffer.alloc(16384);
      off = o.offset as number;
      len = o.length as number;
      pos = o.position as number;
    }
    const bytesRead = this.s.readSync(this.fd, buf, off ?? 0, len ?? buf.byteLength - (off ?? 0), pos ?? null);
    return { bytesRead, buffer: buf };
  }
  async write(data: unknown, ...rest: unknown[]) {
    const bytesWritten = this.s.writeSync(this.fd, data, ...rest);
    return { bytesWritten, buffer: data };
  }
  async readFile(o?: unknown) { return this.s.readFileSync(this.fd, o); }
  async writeFile(d: unknown, o?: unknown) { return this.s.writeFileSync(this.fd, d, o); }
  async appendFile(d: unknown, o?: unknown) { return this.s.writeFileSync(this.fd, d, o); }
  async stat() { return this.s.fstatSync(this.fd); }
  async truncate(len = 0) { return this.s.ftruncateSync(this.fd, len); }
  async sync() { return this.s.fsyncSync(this.fd); }
  async datasync() { return this.s.fsyncSync(this.fd); }
  async chmod(mode: number) { void mode; }
  async close() { this.s.closeSync(this.fd); }
  async [Symbol.asyncDispose]() { await this.close(); }
  createReadStream(o?: Opts) { return createReadStream(this.rt, null, { ...o, fd: this.fd }); }
  createWriteStream(o?: Opts) { return createWriteStream(this.rt, null, { ...o, fd: this.fd }); }
  async *readLines() {
    const text = String(this.s.readFileSync(this.fd, 'utf8'));
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    yield* lines;
  }
}

/**
 * The file behind a read or write stream: the given fd, or `path` opened with
 * `flag` on the next tick (so 'open' listeners added after creation hear it)
 * or at first use; closed when the stream is destroyed unless autoClose is false.
 */
class StreamFile {
  fd: number;
  private stream: (Readable | Writable) | null = null;

  constructor(private readonly rt: Rt, readonly path: string | undefined, private readonly o: Opts, private readonly flag: string) {
    this.fd = (o.fd as number | undefined) ?? -1;
  }

  attach(stream: Readable | Writable): void {
    this.stream = stream;
    if (this.fd >= 0) return;
    this.rt.loop.setImmediate(() => {
      if (this.fd >= 0 || stream.destroyed) return;
      try {
        this.ensureOpen();
      } catch (e) {
        stream.destroy(e as Error);
      }
    }, []);
  }

  ensureOpen(): void {
    if (this.fd >= 0) return;
    try {
      this.fd = this.rt.sys.open(this.path!, flagsOf(this.o.flags, this.flag), (this.o.mode as number) ?? 0o666);
    } catch (e) {
      throw e instanceof SysError ? uvError(e.errno, 'open', this.path) : e;
    }
    this.stream?.emit('open', this.fd);
    this.stream?.emit('ready');
  }

  close(): void {
    if (this.fd >= 0 && this.o.autoClose !== false) try { this.rt.sys.close(this.fd); } catch { /* closed */ }
    this.fd = -1;
  }
}

function createReadStream(rt: Rt, p: unknown, o: Opts): Readable {
  const file = new StreamFile(rt, p === null ? undefined : toPath(p), o, 'r');
  let pos = (o.start as number | undefined) ?? 0;
  const end = (o.end as number | undefined) ?? Infinity;
  const hwm = (o.highWaterMark as number | undefined) ?? 65536;
  const r = new Readable({
    highWaterMark: hwm,
    encoding: o.encoding as string | undefined,
    read() {
      // Deferred so 'open' listeners attached after creation see the event first.
      rt.loop.setImmediate(() => {
        try {
          file.ensureOpen();
          const want = Math.min(hwm, end - pos + 1);
          if (want <= 0) return void r.push(null);
          const data = o.start !== undefined || pos > 0 ? rt.sys.pread(file.fd, want, pos) : rt.sys.read(file.fd, want);
          pos += data.byteLength;
          (r as unknown as Opts).bytesRead = pos - ((o.start as number) ?? 0);
          r.push(data.byteLength ? data : null);
        } catch (e) {
          r.destroy(e instanceof SysError ? uvError(e.errno, 'read') : (e as Error));
        }
      }, []);
    },
    destroy(err, cb) {
      file.close();
      cb(err);
    },
  });
  Object.assign(r, { path: file.path, bytesRead: 0, close: (cb?: Cb) => { r.destroy(); if (cb) r.once('close', cb as AnyFn); } });
  file.attach(r);
  return r;
}

function createWriteStream(rt: Rt, p: unknown, o: Opts): Writable {
  const file = new StreamFile(rt, p === null ? undefined : toPath(p), o, 'w');
  let pos = o.start as number | undefined;
  const w = new Writable({
    write(chunk, _enc, cb) {
      try {
        file.ensureOpen();
        const b = chunk as Uint8Array;
        if (pos !== undefined) { rt.sys.pwrite(file.fd, b, pos); pos += b.byteLength; }
        else rt.sys.writeAll(file.fd, b);
        (w as unknown as Opts).bytesWritten = ((w as unknown as Opts).bytesWritten as number) + b.byteLength;
        cb();
      } catch (e) {
        cb(e instanceof SysError ? uvError(e.errno, 'write') : (e as Error));
      }
    },
    final(cb) {
      try { file.ensureOpen(); cb(); } catch (e) { cb(e as Error); }
    },
    destroy(err, cb) {
      file.close();
      cb(err);
    },
  });
  Object.assign(w, { path: file.path, bytesWritten: 0, close: (cb?: Cb) => { w.end(); if (cb) w.once('close', cb as AnyFn); } });
  file.attach(w);
  return w;
}
