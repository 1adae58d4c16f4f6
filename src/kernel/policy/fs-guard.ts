// Filesystem rules (policy.fs) enforced in path resolution, for every runtime.
//
// A rule names a path, but it is enforced on the objects the path named when
// the VM booted: the inodes of the subtree (directories and files alike) are
// marked, so every way of reaching one — "..", symlinks, /proc/<pid>/cwd,
// /proc/<pid>/fd/N, /proc/self/root, a hard link made before boot — lands on
// a marked inode. Nothing can be created inside a hidden or read-only
// subtree, so the marks stay complete; objects the host adds are marked as
// they are created. A rule whose path does not exist yet is matched by path
// when something would be created there, and marked once it exists.
//
// A rule is resolved by path again whenever the VM boots, restores a snapshot
// or is forked, so the objects its path runs through (ancestors, and symlinks
// on the way with their targets' ancestors) are pinned: removing or renaming
// one is EBUSY, as for a mount point. Otherwise a guest could move a hidden
// file's parent away and find the file in the open after the next restore.
//
// The host (pid 1) and the kernel itself (pid 0) are not subject to the rules.

import { Errno, SysError, errnoName } from '../../abi/errno.js';
import { isDir, isLnk } from '../../abi/stat.js';
import type { Cred, FileSystem, Inode } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import type { Approvals } from './approval.js';
import type { AuditLog } from './audit.js';
import type { FsPolicy } from '../../api/policy.js';

const KERNEL: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };
/** Bound on the inodes marked at boot (a rule on "/" over a huge tree). */
const MAX_MARKED = 1_000_000;

/** A set of inodes by identity (filesystem, inode number): survives copy-up and renames. */
class InodeSet {
  private readonly byFs = new Map<FileSystem, Set<number>>();
  size = 0;

  add(inode: Inode): void {
    let s = this.byFs.get(inode.fs);
    if (!s) this.byFs.set(inode.fs, (s = new Set()));
    if (!s.has(inode.ino)) this.size++;
    s.add(inode.ino);
  }

  has(inode: Inode): boolean {
    return this.byFs.get(inode.fs)?.has(inode.ino) ?? false;
  }

  hasIno(fs: FileSystem, ino: number): boolean {
    return this.byFs.get(fs)?.has(ino) ?? false;
  }
}

type Kind = 'hidden' | 'readOnly' | 'ask';

interface Rule {
  kind: Kind;
  path: string;
  marks: InodeSet;
  /** The path did not exist at boot: matched by name until it does. */
  pending: boolean;
}

export class FsGuard {
  private readonly rules: Rule[] = [];
  private readonly hidden = new InodeSet();
  private readonly readOnly = new InodeSet();
  /** Objects a rule's path runs through (see the header). */
  private readonly pinned = new InodeSet();

  constructor(
    private readonly vfs: Vfs,
    fs: FsPolicy,
    private readonly audit: AuditLog,
    private readonly approvals: Approvals,
  ) {
    for (const kind of ['hidden', 'readOnly', 'ask'] as const) {
      for (const path of fs[kind] ?? []) {
        const marks = kind === 'hidden' ? this.hidden : kind === 'readOnly' ? this.readOnly : new InodeSet();
        this.rules.push({ kind, path: normalize(path), marks, pending: true });
      }
    }
    this.refresh();
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  // ---- hooks called by namei and the VFS --------------------------------------

  /** A lookup reached `inode`: hidden objects do not exist for the guest. */
  lookup(cred: Cred, inode: Inode, name: string): void {
    if (cred.pid > 1 && this.hidden.has(inode)) this.deny(cred, 'fs.hidden', Errno.ENOENT, name);
  }

  /** Directory listings leave hidden entries out. */
  listable(cred: Cred, dir: Inode, ino: number): boolean {
    return cred.pid <= 1 || !this.hidden.hasIno(dir.fs, ino);
  }

  /** `name` is about to be created in `dir` (open O_CREAT, mkdir, mknod, symlink, link, rename target). */
  create(cred: Cred, dir: Inode, name: string): void {
    if (cred.pid <= 1) return;
    if (this.readOnly.has(dir)) this.deny(cred, 'fs.readOnly', Errno.EROFS, name);
    for (const r of this.rules) {
      if (r.pending) {
        const path = this.pathIn(dir, name);
        if (path !== null && (path === r.path || path.startsWith(r.path + '/'))) this.apply(cred, r, path, 'create');
      } else if (r.kind === 'ask' && r.marks.has(dir)) {
        this.apply(cred, r, name, 'create');
      }
    }
  }

  /** `victim`, named `name` in `dir`, is about to be removed or renamed away. */
  remove(cred: Cred, dir: Inode, victim: Inode, name: string): void {
    if (cred.pid <= 1) return;
    if (this.readOnly.has(dir) || this.readOnly.has(victim)) this.deny(cred, 'fs.readOnly', Errno.EROFS, name);
    if (this.pinned.has(victim)) this.deny(cred, 'fs.path', Errno.EBUSY, name);
    for (const r of this.rules) if (r.kind === 'ask' && r.marks.has(victim)) this.apply(cred, r, name, 'remove');
  }

  /** `inode`'s data or attributes are about to change (write open, truncate, chmod, chown, utimes). */
  modify(cred: Cred, inode: Inode, what: string, ask = true): void {
    if (cred.pid <= 1) return;
    if (this.readOnly.has(inode)) this.deny(cred, 'fs.readOnly', Errno.EROFS, what);
    if (ask) for (const r of this.rules) if (r.kind === 'ask' && r.marks.has(inode)) this.apply(cred, r, what, 'modify');
  }

  /**
   * A filesystem is about to be mounted on `dir` (by a root guest): not over
   * what a rule marks or a rule's path runs through, or the path would name
   * something else (a writable tmpfs over a read-only tree, or an allowed command).
   */
  mount(cred: Cred, dir: Inode, path: string): void {
    if (cred.pid <= 1) return;
    if (this.readOnly.has(dir) || this.rules.some((r) => r.kind === 'ask' && r.marks.has(dir))) this.deny(cred, 'fs.readOnly', Errno.EROFS, path);
    if (this.pinned.has(dir)) this.deny(cred, 'fs.path', Errno.EBUSY, path);
  }

  /** `inode` is being opened for reading: only `ask` rules care. */
  read(cred: Cred, inode: Inode, path: string): void {
    if (cred.pid <= 1) return;
    for (const r of this.rules) if (r.kind === 'ask' && r.marks.has(inode)) this.apply(cred, r, path, 'read');
  }

  /** Whether `inode` is hidden (for views the kernel builds for the guest, such as its snapshot export). */
  hides(inode: Inode): boolean {
    return this.hidden.has(inode);
  }

  /** The `ask` rules `inode` is under, as approval rule names. */
  asking(inode: Inode): string[] {
    return this.rules.filter((r) => r.kind === 'ask' && r.marks.has(inode)).map((r) => `fs.ask:${r.path}`);
  }

  /** `inode` was created in `dir` (by anyone): it belongs to the subtrees `dir` belongs to. */
  created(dir: Inode, inode: Inode): void {
    for (const r of this.rules) if (!r.pending && r.marks.has(dir)) r.marks.add(inode);
    // A file the host creates at a pending rule's path (open, mknod, link) is marked now, like a directory.
    this.changed();
  }

  /** The namespace changed (mkdir, rename, symlink): pending rules may now name something. */
  changed(): void {
    if (this.rules.some((r) => r.pending)) this.refresh();
  }

  // ---- internals ----------------------------------------------------------------

  private apply(cred: Cred, r: Rule, what: string, op: string): void {
    if (r.kind === 'hidden') this.deny(cred, 'fs.hidden', Errno.ENOENT, what);
    if (r.kind === 'readOnly') this.deny(cred, 'fs.readOnly', Errno.EROFS, what);
    this.approvals.require(`fs.ask:${r.path}`, `${op} ${what} (pid ${cred.pid})`, cred.pid);
  }

  private deny(cred: Cred, rule: string, errno: number, what: string): never {
    this.audit.record('policy', cred.pid, { decision: 'deny', rule, errno: errnoName(errno), path: what });
    // ENOENT for hidden paths carries no hint that anything is there.
    throw new SysError(errno, errno === Errno.ENOENT ? what
      : errno === Errno.EBUSY ? `${what}: a path of the VM's policy runs through it`
        : `${what}: read-only by the VM's policy (${rule})`);
  }

  private pathIn(dir: Inode, name: string): string | null {
    try {
      const d = this.vfs.pathOf(dir);
      return normalize(d === '/' ? `/${name}` : `${d}/${name}`);
    } catch {
      return null;
    }
  }

  /** Mark the subtrees of rules whose paths exist now. */
  private refresh(): void {
    for (const r of this.rules) {
      if (!r.pending) continue;
      const inode = this.resolve(r.path, false);
      if (!inode) continue;
      r.pending = false;
      this.mark(inode, r.marks);
      this.pin(r.path);
    }
  }

  /** Pin what `path`'s ancestors name: each as spelt (a symlink itself) and, for a symlink, its target's ancestry. */
  private pin(path: string): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const prefix = '/' + parts.slice(0, i).join('/');
      const named = this.resolve(prefix, false);
      if (!named) return;
      this.pinned.add(named);
      if (!isLnk(named.mode)) continue;
      const real = this.resolve(prefix, true);
      if (!real) return;
      // A canonical path has no symlinks: its prefixes are the real ancestors.
      const canonical = this.vfs.pathOf(real).split('/').filter(Boolean);
      for (let j = 1; j <= canonical.length; j++) {
        const at = this.resolve('/' + canonical.slice(0, j).join('/'), false);
        if (at) this.pinned.add(at);
      }
    }
  }

  private resolve(path: string, follow: boolean): Inode | null {
    try {
      return this.vfs.namei.resolve(KERNEL, this.vfs.root(), path, follow).inode;
    } catch {
      return null;
    }
  }

  private mark(top: Inode, set: InodeSet): void {
    const stack = [top];
    while (stack.length && set.size < MAX_MARKED) {
      const inode = stack.pop()!;
      if (set.has(inode) && inode !== top) continue;
      set.add(inode);
      // procfs and devices are generated, not stored: nothing below to mark.
      if (!isDir(inode.mode) || inode.fs.type === 'proc') continue;
      for (const e of inode.fs.readdir(inode, KERNEL)) {
        const child = inode.fs.lookup(inode, e.name, KERNEL);
        if (child) stack.push(this.vfs.mountTable.cross(child));
      }
    }
  }
}

/** "/a//b/./c/" → "/a/b/c" (lexical; ".." is resolved against the text, as the rule was written). */
function normalize(path: string): string {
  const out: string[] = [];
  for (const c of path.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') out.pop();
    else out.push(c);
  }
  return '/' + out.join('/');
}
