// The working tree as git sees it: tracked files with their current mode and
// (lazily) object id, using the index's stat data to avoid re-hashing files
// that have not changed; untracked files, collapsed to `dir/` when a whole
// directory is untracked (git's default), and ignored ones on request.

import { SysError } from '../../../../abi/errno.js';
import { DT_DIR, S_IFLNK, S_IFMT, S_IFREG, type Stat } from '../../../../abi/stat.js';
import type { Ctx } from './ctx.js';
import { Ignores } from './ignore.js';
import { secNs, type GitIndex, type IndexEntry } from './index-file.js';
import { hashBlob } from './objects.js';
import { comparePaths, joinRel } from './path.js';

export const MODE_FILE = 0o100644;
export const MODE_EXEC = 0o100755;
export const MODE_LINK = 0o120000;
export const MODE_GITLINK = 0o160000;

/** The git mode of a file from its stat; null for what git cannot track (devices, fifos). */
export function gitMode(st: Stat): number | null {
  const t = st.mode & S_IFMT;
  if (t === S_IFLNK) return MODE_LINK;
  if (t === S_IFREG) return st.mode & 0o100 ? MODE_EXEC : MODE_FILE;
  return null;
}

/**
 * A file's bytes (a symlink's target), reading `size` bytes in one call when
 * the size is known: one syscall fewer per file than read-to-EOF, and a file
 * that changed size since its stat shows up as modified at the next status.
 */
export function readContent(ctx: Ctx, abs: string, mode: number, size: number): Uint8Array {
  if (mode === MODE_LINK) return enc.encode(ctx.sys.readlink(abs));
  if (size > 4 * 1024 * 1024) return ctx.sys.readFile(abs);
  const fd = ctx.sys.open(abs);
  try {
    const parts: Uint8Array[] = [];
    let got = 0;
    while (got < size) {
      const b = ctx.sys.read(fd, size - got);
      if (b.byteLength === 0) break;
      parts.push(b);
      got += b.byteLength;
    }
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(got);
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.byteLength;
    }
    return out;
  } finally {
    ctx.sys.close(fd);
  }
}

export interface WorkFile {
  path: string;
  mode: number;
  st: Stat;
}

export type Untracked = 'no' | 'normal' | 'all';

export interface ScanOptions {
  untracked: Untracked;
  ignored?: boolean;
}

const enc = new TextEncoder();

export class Worktree {
  /** Tracked paths present in the working tree. */
  readonly files = new Map<string, WorkFile>();
  readonly untracked: string[] = [];
  /** Stat data of the untracked files seen (reused when they are added). */
  readonly untrackedStats = new Map<string, Stat>();
  readonly ignoredPaths: string[] = [];
  readonly ignores: Ignores;
  private readonly trackedDirs = new Set<string>();
  private readonly oids = new Map<string, string>();
  private readonly indexMtime: number;
  private readonly filemode: boolean;

  constructor(
    private readonly ctx: Ctx,
    readonly top: string,
    readonly index: GitIndex,
  ) {
    this.ignores = new Ignores(ctx, top);
    for (const e of index.entries) {
      for (let i = e.path.indexOf('/'); i >= 0; i = e.path.indexOf('/', i + 1)) this.trackedDirs.add(e.path.slice(0, i));
    }
    let m = 0;
    try {
      m = ctx.sys.stat(`${ctx.repo().gitdir}/index`).mtimeMs;
    } catch {
      // no index yet
    }
    this.indexMtime = m;
    this.filemode = ctx.configBool('core.filemode', true);
  }

  private tracked(path: string): boolean {
    return this.index.byPath.has(path) || this.index.unmerged.has(path);
  }

  private lstat(path: string): Stat | null {
    try {
      return this.ctx.sys.lstat(`${this.top}/${path}`);
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  }

  private list(dir: string): { name: string; type: number }[] {
    try {
      return this.ctx.sys
        .readdir(dir === '' ? this.top : `${this.top}/${dir}`)
        .filter((e) => e.name !== '.' && e.name !== '..')
        .sort((a, b) => comparePaths(a.name, b.name));
    } catch (e) {
      if (e instanceof SysError) return [];
      throw e;
    }
  }

  /** Walk the whole tree. */
  scan(opts: ScanOptions): this {
    this.walk('', opts);
    // tracked files the walk could not reach (under an ignored or replaced directory)
    for (const e of this.index.entries) {
      if (this.files.has(e.path)) continue;
      const st = this.lstat(e.path);
      const mode = st && gitMode(st);
      if (st && mode !== null) this.files.set(e.path, { path: e.path, mode, st });
    }
    this.untracked.sort(comparePaths);
    this.ignoredPaths.sort(comparePaths);
    return this;
  }

  /** Look only at the tracked files (no directory walk): enough for `diff` and `commit -a`. */
  trackedOnly(): this {
    for (const e of this.index.entries) {
      if (this.files.has(e.path)) continue;
      const st = this.lstat(e.path);
      const mode = st && gitMode(st);
      if (st && mode !== null) this.files.set(e.path, { path: e.path, mode, st });
    }
    return this;
  }

  private walk(dir: string, opts: ScanOptions): void {
    for (const { name, type } of this.list(dir)) {
      if (name === '.git') continue;
      const path = joinRel(dir, name);
      if (type === DT_DIR) {
        if (this.tracked(path)) continue; // a file replaced by a directory: reported as deleted
        if (this.trackedDirs.has(path)) {
          this.walk(path, opts);
          continue;
        }
        if (this.ignores.ignored(path, true)) {
          if (opts.ignored) this.ignoredDir(path, opts);
          continue;
        }
        if (opts.untracked === 'no') continue;
        if (this.isNestedRepo(path)) {
          this.untracked.push(`${path}/`);
          continue;
        }
        if (opts.untracked === 'normal') {
          if (this.hasUntracked(path, opts)) this.untracked.push(`${path}/`);
        } else this.walk(path, opts);
        continue;
      }
      const st = this.lstat(path);
      if (!st) continue;
      const mode = gitMode(st);
      if (mode === null) continue;
      if (this.tracked(path)) {
        this.files.set(path, { path, mode, st });
        continue;
      }
      if (this.ignores.ignored(path, false)) {
        if (opts.ignored) this.ignoredPaths.push(path);
        continue;
      }
      if (opts.untracked !== 'no') {
        this.untracked.push(path);
        this.untrackedStats.set(path, st);
      }
    }
  }

  private isNestedRepo(path: string): boolean {
    return this.lstat(`${path}/.git`) !== null;
  }

  /** An ignored directory: `dir/`, or with -uall every file in it. */
  private ignoredDir(dir: string, opts: ScanOptions): void {
    if (opts.untracked !== 'all') {
      this.ignoredPaths.push(`${dir}/`);
      return;
    }
    for (const { name, type } of this.list(dir)) {
      const path = joinRel(dir, name);
      if (type === DT_DIR) this.ignoredDir(path, opts);
      else this.ignoredPaths.push(path);
    }
  }

  /**
   * Does an untracked directory hold anything not ignored? Stops at the
   * first such file unless ignored paths are wanted, which are collected on
   * the way (git lists ignored paths inside untracked directories too).
   */
  private hasUntracked(dir: string, opts: ScanOptions): boolean {
    let found = false;
    for (const { name, type } of this.list(dir)) {
      const path = joinRel(dir, name);
      const isDir = type === DT_DIR;
      if (this.ignores.ignored(path, isDir)) {
        if (opts.ignored) {
          if (isDir) this.ignoredDir(path, opts);
          else this.ignoredPaths.push(path);
        }
        continue;
      }
      if (isDir ? this.isNestedRepo(path) || this.hasUntracked(path, opts) : (() => {
        const st = this.lstat(path);
        return !!st && gitMode(st) !== null;
      })()) {
        found = true;
        if (!opts.ignored) return true;
      }
    }
    return found;
  }

  /** Can the index's stat data vouch for this file's content? */
  private statClean(e: IndexEntry, f: WorkFile): boolean {
    const [ms, mn] = secNs(f.st.mtimeMs);
    const [cs, cn] = secNs(f.st.ctimeMs);
    if (e.size !== f.st.size % 2 ** 32 || e.mtimeS !== ms || e.mtimeNs !== mn || e.ctimeS !== cs || e.ctimeNs !== cn) return false;
    if (e.ino !== f.st.ino % 2 ** 32 || e.uid !== f.st.uid || e.gid !== f.st.gid) return false;
    if ((e.mode & S_IFMT) !== (f.mode & S_IFMT)) return false;
    // racily clean: written in the same instant as the index, so a later change may hide
    return f.st.mtimeMs < this.indexMtime;
  }

  /** The mode git would record for a tracked file (core.filemode=false keeps the index's). */
  modeOf(f: WorkFile): number {
    const e = this.index.byPath.get(f.path);
    if (!this.filemode && e && f.mode !== MODE_LINK && (e.mode === MODE_FILE || e.mode === MODE_EXEC)) return e.mode;
    return f.mode;
  }

  /** The object id of a working-tree file's content (from the index when stat data says unchanged). */
  async oidOf(f: WorkFile): Promise<string> {
    const hit = this.oids.get(f.path);
    if (hit) return hit;
    const e = this.index.byPath.get(f.path);
    let oid: string;
    if (e && this.statClean(e, f)) oid = e.oid;
    else oid = await hashBlob(this.content(f));
    this.oids.set(f.path, oid);
    return oid;
  }

  /** The bytes git would store for a working-tree file (a symlink's target for links). */
  content(f: WorkFile): Uint8Array {
    return readContent(this.ctx, `${this.top}/${f.path}`, f.mode, f.st.size);
  }
}
