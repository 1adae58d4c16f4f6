// isomorphic-git's promise `fs` over the kernel's syscalls. Each call is one
// synchronous syscall wrapped in a promise; errors stay SysErrors, whose
// `code` ('ENOENT', 'EEXIST', 'ENOTDIR', ...) is what isomorphic-git tests.
// Stats carry what its index stores: mode, size, dev, ino, uid, gid and the
// times in milliseconds (it derives seconds and nanoseconds itself).

import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, type Stat } from '../../../../abi/stat.js';
import type { Sys } from '../../../../libc/sys.js';

export class Stats {
  readonly dev: number;
  readonly ino: number;
  mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly atimeMs: number;

  constructor(st: Stat) {
    this.dev = st.dev;
    this.ino = st.ino;
    this.mode = st.mode;
    this.nlink = st.nlink;
    this.uid = st.uid;
    this.gid = st.gid;
    this.size = st.size;
    this.mtimeMs = st.mtimeMs;
    this.ctimeMs = st.ctimeMs;
    this.atimeMs = st.atimeMs;
  }

  isFile(): boolean {
    return (this.mode & S_IFMT) === S_IFREG;
  }
  isDirectory(): boolean {
    return (this.mode & S_IFMT) === S_IFDIR;
  }
  isSymbolicLink(): boolean {
    return (this.mode & S_IFMT) === S_IFLNK;
  }
}

type Encoding = string | { encoding?: string; mode?: number } | undefined;
const encodingOf = (o: Encoding): string | undefined => (typeof o === 'string' ? o : o?.encoding);
const dec = new TextDecoder();

/** The promise API isomorphic-git calls (its `fs` plugin contract). */
export interface PromiseFs {
  readFile(path: string, opts?: Encoding): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, opts?: Encoding): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, opts?: { mode?: number } | number): Promise<void>;
  rmdir(path: string): Promise<void>;
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readlink(path: string, opts?: Encoding): Promise<string | Uint8Array>;
  symlink(target: string, path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

export function makeFs(sys: Sys): { promises: PromiseFs } {
  const promises: PromiseFs = {
    async readFile(path, opts) {
      // isomorphic-git probes the API by calling readFile() with no path
      if (typeof path !== 'string') throw new TypeError('readFile: path must be a string');
      const bytes = sys.readFile(path);
      return encodingOf(opts) === 'utf8' ? dec.decode(bytes) : bytes;
    },
    async writeFile(path, data, opts) {
      const mode = typeof opts === 'object' && opts.mode !== undefined ? opts.mode : 0o666;
      sys.writeFile(path, data, mode);
    },
    async unlink(path) {
      sys.unlink(path);
    },
    async readdir(path) {
      return sys
        .readdir(path)
        .map((e) => e.name)
        .filter((n) => n !== '.' && n !== '..');
    },
    async mkdir(path, opts) {
      sys.mkdir(path, typeof opts === 'number' ? opts : (opts?.mode ?? 0o777));
    },
    async rmdir(path) {
      sys.rmdir(path);
    },
    async stat(path) {
      return new Stats(sys.stat(path));
    },
    async lstat(path) {
      return new Stats(sys.lstat(path));
    },
    async readlink(path, opts) {
      const target = sys.readlink(path);
      return encodingOf(opts) === 'buffer' ? new TextEncoder().encode(target) : target;
    },
    async symlink(target, path) {
      sys.symlink(target, path);
    },
    async chmod(path, mode) {
      sys.chmod(path, mode);
    },
  };
  return { promises };
}
