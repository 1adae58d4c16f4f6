// overlayfs: a read-only lower filesystem (the base image) merged with a
// writable upper MemFs holding every change since boot, like Linux overlayfs
// with one lower layer. The lower is never written; the overlay's metadata
// (whiteouts, opaque dirs, copy-up origins) lives in the upper tree itself,
// see overlay/upper.ts. Path walking and POSIX checks stay the VFS's.
//
// Inode numbers: a lower inode's number n shows as 2n (kept after copy-up,
// through the origin index), an upper-only inode's m as 2m+1, so they never
// collide.
//
// Where this differs from Linux overlayfs:
//  - renaming a directory that exists in the lower works (Linux without
//    redirect_dir says EXDEV): its whole subtree is copied up (data included)
//    and made opaque, then renamed in the upper;
//  - a file open before its copy-up sees the copy (one merged inode per file;
//    Linux may keep reading the lower data through such an fd);
//  - merged directories report st_nlink = 2 + visible subdirectories (Linux: 1);
//  - a lower file whose other hard links were removed reports the reduced
//    count while the overlay is mounted (Linux reports the lower's count);
//  - as in Linux without index=on, copy-up breaks lower hard links: the other
//    names keep the lower data and, like on Linux, the copy's st_ino (so a
//    rename between them is the VFS's same-file no-op).
// As in Linux, creating a 0:0 character device (a whiteout) is EPERM; names
// starting with `.wh..wh.` are reserved for the overlay (hidden, EPERM).

import { Errno, SysError } from '../../abi/errno.js';
import { O_ACCMODE, O_RDONLY, O_TRUNC } from '../../abi/fcntl.js';
import type { DirEntry, StatFs } from '../../abi/stat.js';
import { DT_DIR, S_IFCHR, S_IFMT, isDir, isReg } from '../../abi/stat.js';
import type { MemFs, MemInode } from './memfs.js';
import type { Cred, FileOps, FileSystem, Inode, SetAttr } from '../vfs/types.js';
import { copyUp, copyUpDir, materialize } from './overlay/copyup.js';
import { OvlInode } from './overlay/inode.js';
import { KERNEL_CRED, UpperLayer, isReserved, isWhiteout } from './overlay/upper.js';

const fromLower = (ino: number): number => ino * 2;
const fromUpper = (ino: number): number => ino * 2 + 1;

export class OverlayFs implements FileSystem {
  readonly type = 'overlay';
  dev = 0;
  /** The upper MemFs with its metadata conventions (internal to overlay/). */
  readonly top: UpperLayer;
  private readonly rootNode: OvlInode;
  /** Merged files that have an upper inode. */
  private readonly byUpper = new WeakMap<MemInode, OvlInode>();
  /** Lower-only files by lower ino, while anything holds them. */
  private readonly byLower = new Map<number, WeakRef<OvlInode>>();
  private readonly reaper = new FinalizationRegistry<number>((ino) => {
    if (this.byLower.get(ino)?.deref() === undefined) this.byLower.delete(ino);
  });
  /** Lower-only files that lost some names: their reduced link count must outlive the VFS's references. */
  private readonly pinned = new Set<OvlInode>();

  constructor(readonly lower: FileSystem, readonly upper: MemFs) {
    this.top = new UpperLayer(upper);
    const lroot = lower.root();
    const uroot = upper.root();
    // A fresh upper takes the lower root's attributes, as a copy-up would.
    if (!upper.readonly && upper.readdir(uroot).length === 0) {
      upper.setattr(uroot, { mode: lroot.mode & 0o7777, uid: lroot.uid, gid: lroot.gid, atimeMs: lroot.atimeMs, mtimeMs: lroot.mtimeMs });
    }
    this.rootNode = new OvlInode(this, fromLower(lroot.ino), this.top.isOpaque(uroot) ? null : lroot, uroot, null, '');
    this.rootNode.parent = this.rootNode;
    this.byUpper.set(uroot, this.rootNode);
  }

  get readonly(): boolean {
    return this.upper.readonly;
  }

  root(): OvlInode {
    return this.rootNode;
  }

  lookup(dir: Inode, name: string, cred: Cred): OvlInode | null {
    const d = this.dir(dir);
    if (name === '..') return d.parent!;
    if (name === '.') return d;
    if (isReserved(name)) return null;
    return this.child(d, name, cred);
  }

  dirName(dir: Inode, child: Inode): string | null {
    const c = this.own(child);
    return c.parent === dir && c !== this.rootNode && isDir(c.mode) && !c.removed ? c.name : null;
  }

  readdir(dir: Inode, cred: Cred): DirEntry[] {
    const d = this.dir(dir);
    if (d.removed) return [];
    const out: DirEntry[] = [];
    const lowers = d.lower ? new Map(this.lower.readdir(d.lower, cred).map((e) => [e.name, e])) : null;
    if (d.upper) {
      for (const e of this.upper.readdir(d.upper)) {
        // An upper entry, shown or not, hides the lower one of that name.
        const l = lowers?.get(e.name);
        lowers?.delete(e.name);
        const u = this.upper.lookup(d.upper, e.name)!;
        if (isReserved(e.name) || isWhiteout(u)) continue;
        out.push({ name: e.name, ino: this.entryIno(u, l), type: e.type });
      }
    }
    if (lowers) for (const e of lowers.values()) if (!isReserved(e.name)) out.push({ ...e, ino: fromLower(e.ino) });
    return out;
  }

  create(dir: Inode, name: string, mode: number, rdev: number, cred: Cred): OvlInode {
    const d = this.dir(dir);
    // Linux overlayfs refuses to create whiteouts too (ovl_mknod).
    if ((mode & S_IFMT) === S_IFCHR && rdev === 0) throw new SysError(Errno.EPERM, 'whiteout on overlay');
    const up = this.prepareNew(d, name);
    const u = this.placeNew(d, up, name, () => this.upper.create(up, name, mode, rdev, cred));
    return this.adoptNew(d, name, u);
  }

  symlink(dir: Inode, name: string, target: string, cred: Cred): OvlInode {
    const d = this.dir(dir);
    const up = this.prepareNew(d, name);
    return this.adoptNew(d, name, this.placeNew(d, up, name, () => this.upper.symlink(up, name, target, cred)));
  }

  link(dir: Inode, name: string, target: Inode): void {
    const d = this.dir(dir);
    const t = this.own(target);
    if (isDir(t.mode)) throw new SysError(Errno.EPERM, 'hard link to directory');
    if (isReserved(name)) throw new SysError(Errno.EPERM, name);
    const tu = copyUp(this, t); // a lower file is copied up first: links live in the upper
    const up = copyUpDir(this, d);
    this.placeNew(d, up, name, () => {
      this.upper.link(up, name, tu);
      return tu;
    });
  }

  unlink(dir: Inode, name: string): void {
    const d = this.dir(dir);
    const o = this.existing(d, name);
    if (isDir(o.mode)) throw new SysError(Errno.EISDIR, name);
    const up = copyUpDir(this, d);
    const covers = this.lowerHas(d, name);
    if (o.upper && this.upper.lookup(up, name) === o.upper) {
      if (covers) this.top.coverWithWhiteout(up, name);
      else this.upper.unlink(up, name);
    } else {
      this.top.whiteout(up, name);
      this.loseLowerName(o);
    }
  }

  rmdir(dir: Inode, name: string): void {
    const d = this.dir(dir);
    const o = this.existing(d, name);
    if (!isDir(o.mode)) throw new SysError(Errno.ENOTDIR, name);
    if (this.readdir(o, KERNEL_CRED).length > 0) throw new SysError(Errno.ENOTEMPTY, name);
    const up = copyUpDir(this, d);
    const covers = this.lowerHas(d, name);
    if (o.upper) {
      this.top.clearMeta(o.upper); // what is left is only whiteouts and the opaque marker
      this.upper.rmdir(up, name);
      if (covers) this.top.whiteout(up, name);
    } else {
      this.top.whiteout(up, name);
    }
    o.removed = true;
    this.countSubdir(d, -1);
  }

  rename(odir: Inode, oname: string, ndir: Inode, nname: string): void {
    const od = this.dir(odir);
    const nd = this.dir(ndir);
    if (isReserved(nname)) throw new SysError(Errno.EPERM, nname);
    const src = this.existing(od, oname);
    const dst = this.child(nd, nname, KERNEL_CRED);
    if (dst === src) return;
    const moveDir = isDir(src.mode);
    if (dst && isDir(dst.mode) !== moveDir) throw new SysError(moveDir ? Errno.ENOTDIR : Errno.EISDIR, nname);
    if (dst && moveDir && this.readdir(dst, KERNEL_CRED).length > 0) throw new SysError(Errno.ENOTEMPTY, nname);
    // Everything involved moves into the upper first; then it is one upper rename.
    if (moveDir) materialize(this, src);
    else copyUp(this, src);
    const su = src.upper!;
    const oup = copyUpDir(this, od);
    const nup = copyUpDir(this, nd);
    const at = this.upper.lookup(nup, nname);
    let removedWhiteout = false;
    if (at && isWhiteout(at) && moveDir) {
      this.upper.unlink(nup, nname); // MemFs cannot rename a directory over a device
      removedWhiteout = true;
    } else if (at && isDir(at.mode)) {
      this.top.clearMeta(at); // the target is empty in the merged view: only metadata is left
    }
    // Lower entries under the target path must stay hidden.
    if (moveDir && this.lowerHas(nd, nname)) this.top.markOpaque(su);
    try {
      this.upper.rename(oup, oname, nup, nname);
    } catch (e) {
      if (removedWhiteout) this.top.whiteout(nup, nname);
      throw e;
    }
    if (this.lowerHas(od, oname)) this.top.whiteout(oup, oname);
    if (dst) {
      if (isDir(dst.mode)) dst.removed = true;
      else if (!dst.upper) this.loseLowerName(dst);
    }
    if (moveDir) {
      src.parent = nd;
      src.name = nname;
      this.countSubdir(od, -1);
      this.countSubdir(nd, dst ? 0 : 1);
    }
  }

  readlink(inode: Inode): string {
    const o = this.own(inode);
    return o.upper ? this.upper.readlink(o.upper) : this.lower.readlink(o.lower!);
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    const o = this.own(inode);
    return o.upper ? this.upper.read(o.upper, pos, len) : this.lower.read(o.lower!, pos, len);
  }

  write(inode: Inode, pos: number, data: Uint8Array): number {
    return this.upper.write(copyUp(this, this.own(inode)), pos, data);
  }

  truncate(inode: Inode, size: number): void {
    this.upper.truncate(copyUp(this, this.own(inode)), size);
  }

  setattr(inode: Inode, attr: SetAttr): void {
    const o = this.own(inode);
    this.upper.setattr(isDir(o.mode) ? copyUpDir(this, o) : copyUp(this, o), attr);
  }

  /** Opening a lower file for writing copies it up (as Linux does), so the open file writes the copy. */
  open(inode: Inode, flags: number): FileOps | null {
    const o = this.own(inode);
    if (isReg(o.mode) && !o.upper && ((flags & O_ACCMODE) !== O_RDONLY || flags & O_TRUNC)) copyUp(this, o);
    return null;
  }

  /** Writable opens copied the file up (see open), so the count is the upper copy's. */
  writeOpen(inode: Inode, delta: 1 | -1): void {
    const o = this.own(inode);
    if (o.upper) this.upper.writeOpen(o.upper, delta);
  }

  /** The upper's usage: that is where new data goes. */
  statfs(): StatFs {
    return { ...this.upper.statfs(), type: this.type };
  }

  evict(inode: Inode): void {
    const o = this.own(inode);
    if (this.linkCount(o) > 0) return;
    this.pinned.delete(o);
    if (!o.upper) return;
    if (!isDir(o.mode)) this.top.forget(o.upper);
    this.upper.evict(o.upper);
  }

  // --- internal to overlay/ ---

  /** st_nlink of a merged file. */
  linkCount(o: OvlInode): number {
    if (isDir(o.mode)) {
      if (o.removed) return 0;
      if (!o.upper || !o.lower) return o.real.nlink;
      // A merged directory: 2 + visible subdirectories, counted once, then kept up to date.
      o.subdirs ??= this.readdir(o, KERNEL_CRED).filter((e) => e.type === DT_DIR).length;
      return 2 + o.subdirs;
    }
    if (o.upper) return Math.max(0, o.upper.nlink - (this.top.originOf(o.upper) === undefined ? 0 : 1));
    return Math.max(0, o.lower!.nlink - o.lowerGone);
  }

  /** The visible entry `name` of `d`, as its merged inode. */
  child(d: OvlInode, name: string, cred: Cred): OvlInode | null {
    if (d.removed) return null;
    const u = d.upper ? this.upper.lookup(d.upper, name) : null;
    if (u) return isWhiteout(u) ? null : this.fromUpper(d, name, u, cred);
    const l = d.lower ? this.lower.lookup(d.lower, name, cred) : null;
    return l ? this.fromLower(d, name, l) : null;
  }

  /** `o` now has the upper inode `u` (after a copy-up). */
  adopt(o: OvlInode, u: MemInode): void {
    o.upper = u;
    this.byUpper.set(u, o);
    if (o.lower && this.byLower.get(o.lower.ino)?.deref() === o) this.byLower.delete(o.lower.ino);
    this.pinned.delete(o);
  }

  // --- helpers ---

  private fromUpper(d: OvlInode, name: string, u: MemInode, cred: Cred): OvlInode {
    let o = this.byUpper.get(u);
    if (!o) {
      let lower: Inode | null = null;
      let ino = fromUpper(u.ino);
      if (isDir(u.mode)) {
        // A directory merges with a lower directory of the same name unless it is opaque.
        const l = d.lower && !this.top.isOpaque(u) ? this.lower.lookup(d.lower, name, cred) : null;
        if (l && isDir(l.mode)) {
          lower = l;
          ino = fromLower(l.ino);
        } else {
          const origin = this.top.dirOrigin(u);
          if (origin !== undefined) ino = fromLower(origin);
        }
      } else {
        const origin = this.top.originOf(u);
        if (origin !== undefined) ino = fromLower(origin);
      }
      o = new OvlInode(this, ino, lower, u, d, name);
      this.byUpper.set(u, o);
    }
    if (!isDir(u.mode)) this.seenAt(o, d, name);
    return o;
  }

  private fromLower(d: OvlInode, name: string, l: Inode): OvlInode {
    let o = this.byLower.get(l.ino)?.deref();
    if (!o) {
      o = new OvlInode(this, fromLower(l.ino), l, null, d, name);
      this.byLower.set(l.ino, new WeakRef(o));
      this.reaper.register(o, l.ino);
    }
    if (!isDir(l.mode)) this.seenAt(o, d, name);
    return o;
  }

  /** A non-directory's last lookup is where a later copy-up will put it. */
  private seenAt(o: OvlInode, d: OvlInode, name: string): void {
    o.parent = d;
    o.name = name;
  }

  /** st_ino of an upper directory entry, without building its merged inode. */
  private entryIno(u: MemInode, l: DirEntry | undefined): number {
    const o = this.byUpper.get(u);
    if (o) return o.ino;
    if (isDir(u.mode) && l && l.type === DT_DIR && !this.top.isOpaque(u)) return fromLower(l.ino);
    const origin = isDir(u.mode) ? this.top.dirOrigin(u) : this.top.originOf(u);
    return origin === undefined ? fromUpper(u.ino) : fromLower(origin);
  }

  /** True if the lower has an entry `name` under `d`'s path (visible or whited out). */
  private lowerHas(d: OvlInode, name: string): boolean {
    return d.lower !== null && this.lower.lookup(d.lower, name, KERNEL_CRED) !== null;
  }

  private existing(d: OvlInode, name: string): OvlInode {
    const o = this.child(d, name, KERNEL_CRED);
    if (!o) throw new SysError(Errno.ENOENT, name);
    return o;
  }

  /** Checks for a new name; the upper directory it goes in. */
  private prepareNew(d: OvlInode, name: string): MemInode {
    if (isReserved(name)) throw new SysError(Errno.EPERM, name);
    if (d.removed) throw new SysError(Errno.ENOENT, 'directory removed');
    return copyUpDir(this, d);
  }

  /**
   * Make a new upper entry `name` with `make`, over a whiteout if there is one.
   * A directory made over a whiteout is opaque: the lower one it replaces stays hidden.
   */
  private placeNew(d: OvlInode, up: MemInode, name: string, make: () => MemInode): MemInode {
    const at = this.upper.lookup(up, name);
    if (at && !isWhiteout(at)) throw new SysError(Errno.EEXIST, name);
    if (at) this.upper.unlink(up, name);
    let u: MemInode;
    try {
      u = make();
    } catch (e) {
      if (at) this.top.whiteout(up, name);
      throw e;
    }
    if (isDir(u.mode)) {
      if (at) this.top.markOpaque(u);
      this.countSubdir(d, 1);
    }
    return u;
  }

  private adoptNew(d: OvlInode, name: string, u: MemInode): OvlInode {
    const o = new OvlInode(this, fromUpper(u.ino), null, u, d, name);
    this.byUpper.set(u, o);
    return o;
  }

  /** Keep a merged directory's cached subdirectory count current (an O(n) recount otherwise). */
  private countSubdir(d: OvlInode, delta: number): void {
    if (d.subdirs !== null) d.subdirs += delta;
  }

  /** A lower-only file lost one of its names (unlink, or replaced by a rename). */
  private loseLowerName(o: OvlInode): void {
    o.lowerGone++;
    if (this.linkCount(o) > 0) this.pinned.add(o);
    else this.pinned.delete(o);
  }

  private own(inode: Inode): OvlInode {
    if (!(inode instanceof OvlInode) || inode.fs !== this) throw new SysError(Errno.EXDEV, 'inode of another fs');
    return inode;
  }

  private dir(inode: Inode): OvlInode {
    const o = this.own(inode);
    if (!isDir(o.mode)) throw new SysError(Errno.ENOTDIR);
    return o;
  }
}
