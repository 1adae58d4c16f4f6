// Runs one vfs-cases.ts case against a CaseTarget: anything that can perform
// the POSIX ops (the Vfs directly, or real syscalls from an agentOS process).
// The Linux oracle (oracle/linux-oracle.py) mirrors this logic in Python.

import { errnoName } from '../../src/abi/errno.js';
import * as fcntl from '../../src/abi/fcntl.js';
import { S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK } from '../../src/abi/stat.js';
import type { Arg, Expect, FileKind, Op, StatFields, Value, VfsCase } from './vfs-cases.js';
import { NOBODY } from './vfs-cases.js';

export interface CaseStat {
  mode: number;
  size: number;
  nlink: number;
  uid: number;
  gid: number;
  mtimeMs: number;
}

/**
 * One method per op. Methods throw on failure with something carrying the
 * errno: `.errno` (number) or `.code` (name like 'ENOENT').
 */
export interface CaseTarget {
  /** Absolute path of the case's scratch directory (the cwd when the case starts). */
  readonly scratch: string;
  open(path: string, flags: number, mode: number): number;
  close(fd: number): void;
  read(fd: number, len: number): Uint8Array;
  write(fd: number, data: Uint8Array): number;
  lseek(fd: number, offset: number, whence: number): number;
  dup(fd: number): number;
  pipe(): [number, number];
  fstat(fd: number): CaseStat;
  ftruncate(fd: number, len: number): void;
  stat(path: string): CaseStat;
  lstat(path: string): CaseStat;
  mkdir(path: string, mode: number): void;
  rmdir(path: string): void;
  unlink(path: string): void;
  rename(from: string, to: string): void;
  link(from: string, to: string): void;
  symlink(target: string, path: string): void;
  readlink(path: string): string;
  chmod(path: string, mode: number): void;
  chown(path: string, uid: number, gid: number): void;
  truncate(path: string, len: number): void;
  access(path: string, mode: number): void;
  mknod(path: string, mode: number, dev: number): void;
  /** null = now. */
  utimes(path: string, atimeMs: number | null, mtimeMs: number | null): void;
  chdir(path: string): void;
  getcwd(): string;
  /** Names in the directory, without "." and "..", any order. */
  readdir(path: string): string[];
  /** Switch the running credentials to uid/gid (no supplementary groups). */
  setUser(uid: number, gid: number): void;
  /** Mount a fresh empty filesystem (root dir 0755, owned by root) on the existing dir `path`. */
  mount(path: string): void;
}

export interface CaseResult {
  pass: boolean;
  /** What went wrong: which step, expected vs got. */
  detail: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const FLAG_NAMES: Record<string, number> = {
  O_RDONLY: fcntl.O_RDONLY, O_WRONLY: fcntl.O_WRONLY, O_RDWR: fcntl.O_RDWR, O_CREAT: fcntl.O_CREAT,
  O_EXCL: fcntl.O_EXCL, O_TRUNC: fcntl.O_TRUNC, O_APPEND: fcntl.O_APPEND, O_NONBLOCK: fcntl.O_NONBLOCK,
  O_DIRECTORY: fcntl.O_DIRECTORY, O_NOFOLLOW: fcntl.O_NOFOLLOW, O_CLOEXEC: fcntl.O_CLOEXEC,
  F_OK: fcntl.F_OK, R_OK: fcntl.R_OK, W_OK: fcntl.W_OK, X_OK: fcntl.X_OK,
  SEEK_SET: fcntl.SEEK_SET, SEEK_CUR: fcntl.SEEK_CUR, SEEK_END: fcntl.SEEK_END,
  S_IFREG, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK, S_IFDIR, S_IFMT,
};

/** 'O_WRONLY|O_CREAT' → number; numbers pass through. */
export function parseFlags(a: Arg): number {
  if (typeof a === 'number') return a;
  let n = 0;
  for (const part of a.split('|')) {
    const v = FLAG_NAMES[part.trim()];
    if (v === undefined) throw new Error(`unknown flag ${part}`);
    n |= v;
  }
  return n;
}

const KINDS: Record<number, FileKind> = {
  [S_IFREG]: 'file', [S_IFDIR]: 'dir', [S_IFLNK]: 'symlink', [S_IFIFO]: 'fifo',
  [S_IFCHR]: 'chr', [S_IFBLK]: 'blk', [S_IFSOCK]: 'sock',
};

function statFields(st: CaseStat): Required<StatFields> {
  return {
    type: KINDS[st.mode & S_IFMT], perm: st.mode & 0o7777, size: st.size, nlink: st.nlink,
    uid: st.uid, gid: st.gid, mtimeMs: st.mtimeMs,
  };
}

/** The errno name an error carries, or null if it is not an errno error (a harness bug). */
export function errorCode(e: unknown): string | null {
  if (e && typeof e === 'object') {
    const o = e as { code?: unknown; errno?: unknown };
    if (typeof o.code === 'string' && /^E[A-Z0-9]+$/.test(o.code)) return o.code;
    if (typeof o.errno === 'number') return errnoName(Math.abs(o.errno));
  }
  return null;
}

class Session {
  private fds = new Map<string, number>();

  constructor(private readonly t: CaseTarget) {}

  private fd(name: Arg): number {
    const fd = this.fds.get(String(name));
    // An fd name never opened (or closed) maps to a number no target has open.
    return fd ?? 1_000_000;
  }

  /** Perform one op; returns its value (undefined for plain success). */
  run(op: Op): Value | undefined {
    const t = this.t;
    const [name, ...a] = op;
    const s = (i: number): string => String(a[i]);
    const n = (i: number, dflt = 0): number => (a[i] === undefined ? dflt : parseFlags(a[i]));
    switch (name) {
      case 'open': this.fds.set(a[3] === undefined ? 'fd' : s(3), t.open(s(0), parseFlags(a[1]), n(2))); return undefined;
      case 'close': t.close(this.fd(a[0])); this.fds.delete(s(0)); return undefined;
      case 'read': return decoder.decode(t.read(this.fd(a[0]), n(1)));
      case 'write': return t.write(this.fd(a[0]), encoder.encode(s(1)));
      case 'lseek': return t.lseek(this.fd(a[0]), n(1), n(2));
      case 'dup': this.fds.set(s(1), t.dup(this.fd(a[0]))); return undefined;
      case 'pipe': {
        const [r, w] = t.pipe();
        this.fds.set(s(0), r);
        this.fds.set(s(1), w);
        return undefined;
      }
      case 'fstat': return statFields(t.fstat(this.fd(a[0])));
      case 'ftruncate': t.ftruncate(this.fd(a[0]), n(1)); return undefined;
      case 'stat': return statFields(t.stat(s(0)));
      case 'lstat': return statFields(t.lstat(s(0)));
      case 'mkdir': t.mkdir(s(0), n(1)); return undefined;
      case 'rmdir': t.rmdir(s(0)); return undefined;
      case 'unlink': t.unlink(s(0)); return undefined;
      case 'rename': t.rename(s(0), s(1)); return undefined;
      case 'link': t.link(s(0), s(1)); return undefined;
      case 'symlink': t.symlink(s(0), s(1)); return undefined;
      case 'readlink': return t.readlink(s(0));
      case 'chmod': t.chmod(s(0), n(1)); return undefined;
      case 'chown': t.chown(s(0), n(1), n(2)); return undefined;
      case 'truncate': t.truncate(s(0), n(1)); return undefined;
      case 'access': t.access(s(0), n(1)); return undefined;
      case 'mkfifo': t.mknod(s(0), S_IFIFO | n(1), 0); return undefined;
      case 'mknod': t.mknod(s(0), n(1) | n(2), n(3)); return undefined;
      case 'utimes': t.utimes(s(0), a[1] === undefined ? null : n(1), a[2] === undefined ? null : n(2)); return undefined;
      case 'chdir': t.chdir(s(0)); return undefined;
      case 'getcwd': return relativeToScratch(t.getcwd(), t.scratch);
      case 'readdir': return t.readdir(s(0)).filter((x) => x !== '.' && x !== '..').sort();
      case 'writefile': {
        const fd = t.open(s(0), fcntl.O_WRONLY | fcntl.O_CREAT | fcntl.O_TRUNC, 0o644);
        try {
          t.write(fd, encoder.encode(s(1)));
        } finally {
          t.close(fd);
        }
        return undefined;
      }
      case 'readfile': {
        const fd = t.open(s(0), fcntl.O_RDONLY, 0);
        try {
          const parts: Uint8Array[] = [];
          for (let chunk = t.read(fd, 65536); chunk.length > 0; chunk = t.read(fd, 65536)) parts.push(chunk.slice());
          return decoder.decode(concat(parts));
        } finally {
          t.close(fd);
        }
      }
      default: throw new Error(`unknown op ${name}`);
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function relativeToScratch(path: string, scratch: string): string {
  const root = scratch.replace(/\/+$/, '');
  if (path === root) return '.';
  if (path.startsWith(root + '/')) return path.slice(root.length + 1);
  return path;
}

const show = (x: unknown): string => JSON.stringify(x);

/** Compare an outcome with an expectation; null when they agree, else a description. */
export function compare(expect: Expect, outcome: { error: string } | { value: Value | undefined }): string | null {
  if ('error' in outcome) {
    return expect === outcome.error ? null : `expected ${show(expect)}, got ${outcome.error}`;
  }
  if (typeof expect === 'string') return expect === 'ok' ? null : `expected ${expect}, got success ${show(outcome.value)}`;
  const want = expect.value;
  const got = outcome.value;
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return `expected stat ${show(want)}, got ${show(got)}`;
    const g = got as StatFields;
    const bad = (Object.keys(want) as (keyof StatFields)[]).filter((k) => g[k] !== want[k]);
    return bad.length === 0 ? null : `stat ${bad.map((k) => `${k}: expected ${show(want[k])}, got ${show(g[k])}`).join(', ')}`;
  }
  return show(want) === show(got) ? null : `expected ${show(want)}, got ${show(got)}`;
}

function attempt(session: Session, op: Op): { error: string } | { value: Value | undefined } {
  try {
    return { value: session.run(op) };
  } catch (e) {
    const code = errorCode(e);
    if (code === null) throw e;
    return { error: code };
  }
}

/** Run one case (the target must be fresh, with cwd = scratch, root credentials). */
export function runCase(target: CaseTarget, c: VfsCase): CaseResult {
  const session = new Session(target);
  if (c.mount) {
    target.mkdir('mnt', 0o755);
    target.mount('mnt');
  }
  for (const op of c.setup ?? []) {
    const r = attempt(session, op);
    if ('error' in r) return { pass: false, detail: `setup ${show(op)} failed: ${r.error}` };
  }
  if (c.user === 'nobody') target.setUser(NOBODY, NOBODY);
  const checks: [Op, Expect][] = [[c.op, c.expect], ...(c.after ?? [])];
  for (const [op, expect] of checks) {
    const diff = compare(expect, attempt(session, op));
    if (diff) return { pass: false, detail: `${show(op)}: ${diff}` };
  }
  return { pass: true, detail: '' };
}
