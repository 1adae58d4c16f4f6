// The VFS: every path-taking syscall lands here. It resolves paths (namei),
// applies the POSIX rules and permission checks common to all filesystems,
// in the order Linux applies them (so the first failing check picks the
// errno), and delegates single-name storage operations to the FileSystem.

import { byteLength } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import {
  O_ACCMODE, O_CLOEXEC, O_CREAT, O_DIRECTORY, O_EXCL, O_NOCTTY, O_NOFOLLOW, O_RDONLY, O_TRUNC, O_WRONLY, PATH_MAX, W_OK,
} from '../../abi/fcntl.js';
import type { DirEntry, Stat, StatFs } from '../../abi/stat.js';
import {
  DT_DIR, S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK, S_ISGID, S_ISUID, S_ISVTX,
  isDir, isLnk, isReg,
} from '../../abi/stat.js';
import { OpenFile } from '../file.js';
import { WaitQueue } from '../waitqueue.js';
import { directoryOps, regularFileOps } from './fileops.js';
import { MountTable, sameInode } from './mount.js';
import { LinkBudget, Namei } from './namei.js';
import type { Found, Last } from './namei.js';
import { joinPath } from './path.js';
import { MAY_EXEC, MAY_READ, MAY_WRITE, allowed, checkPermission, inGroup, isOwner } from './perm.js';
import type { Cred, FileOps, FileSystem, Inode, IoResult, PathGuard } from './types.js';

/** Character-device drivers, keyed by the inode's rdev. */
export interface DeviceRegistry {
  open(inode: Inode, flags: number, cred: Cred): FileOps;
}

export interface VfsOptions {
  devices?: DeviceRegistry;
  /** FIFO rendezvous; a WaitQueue means "no peer yet": the caller retries the open. */
  openFifo?(inode: Inode, flags: number, cred: Cred): IoResult<FileOps>;
}

export interface MountInfo {
  target: string;
  type: string;
  dev: number;
  readonly: boolean;
  fs: FileSystem;
}

export const ROOT_CRED: Readonly<Cred> = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0o022 };

/** Flags that only matter while opening; the rest stay on the description. */
const OPEN_ONLY_FLAGS = O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC;

/** An OpenFile that tells the VFS when its last reference goes (for unlinked-file eviction). */
class TrackedFile extends OpenFile {
  private closed = false;

  constructor(inode: Inode, flags: number, ops: FileOps, path: string, private readonly onClose: (f: OpenFile) => void) {
    super(inode, flags, ops, path);
  }

  override unref(): void {
    try {
      super.unref();
    } finally {
      if (this.refCount <= 0 && !this.closed) {
        this.closed = true;
        this.onClose(this);
      }
    }
  }
}

export class Vfs {
  readonly mountTable: MountTable;
  readonly namei: Namei;
  /** Open descriptions per inode: an unlinked inode keeps its data until this drops to 0. */
  private readonly opens = new Map<Inode, number>();
  private readonly fsOpens = new Map<FileSystem, number>();
  /** The VM policy's filesystem rules; null when it has none (the usual case: no cost). */
  private guard: PathGuard | null = null;

  constructor(rootFs: FileSystem, private readonly opts: VfsOptions = {}) {
    this.mountTable = new MountTable(rootFs);
    this.namei = new Namei(this.mountTable);
  }

  root(): Inode {
    return this.mountTable.root();
  }

  /** Install the policy's filesystem rules: checked at every lookup and change from now on. */
  setGuard(guard: PathGuard): void {
    this.guard = guard;
    this.namei.guard = guard;
  }

  // ---------------------------------------------------------------- mounts

  /** Mount `fs` on the directory `path` (absolute, or relative to "/"). Root only. */
  mount(cred: Cred, path: string, fs: FileSystem): void {
    if (cred.uid !== 0) throw new SysError(Errno.EPERM, 'mount');
    const dir = this.namei.resolve(cred, this.root(), path).inode;
    this.guard?.mount(cred, dir, path);
    this.mountTable.mount(fs, dir);
  }

  /** Unmount the filesystem whose root `path` names; EBUSY while files on it are open or it has submounts. */
  umount(cred: Cred, path: string): void {
    if (cred.uid !== 0) throw new SysError(Errno.EPERM, 'umount');
    const inode = this.namei.resolve(cred, this.root(), path).inode;
    if (!sameInode(inode, inode.fs.root())) throw new SysError(Errno.EINVAL, 'not a mount root');
    this.mountTable.umount(inode.fs, (this.fsOpens.get(inode.fs) ?? 0) > 0);
  }

  /** Replace the root filesystem, keeping the mounts on it (see MountTable.replaceRoot). */
  replaceRoot(fs: FileSystem): void {
    const paths = new Map<Inode, string>();
    for (const m of this.mountTable.list()) if (m.mountpoint) paths.set(m.mountpoint, this.pathOf(m.mountpoint));
    this.mountTable.replaceRoot(fs, (mp) => {
      const path = paths.get(mp);
      if (path === undefined) return null;
      try {
        const at = this.namei.resolve(ROOT_CRED, fs.root(), path, false).inode;
        return isDir(at.mode) ? at : null;
      } catch {
        return null;
      }
    });
  }

  /** The mounts, parents first, for /proc/mounts and df. */
  mounts(): MountInfo[] {
    return this.mountTable.list().map((m) => {
      let target = '/';
      if (m.mountpoint) {
        try {
          target = this.pathOf(m.mountpoint);
        } catch {
          target = '?';
        }
      }
      return { target, type: m.fs.type, dev: m.fs.dev, readonly: m.fs.readonly, fs: m.fs };
    });
  }

  // ---------------------------------------------------------------- lookup

  /** The inode a path names (following a final symlink unless `follow` is false). */
  resolve(cred: Cred, base: Inode, path: string, follow = true): Inode {
    return this.namei.resolve(cred, base, path, follow).inode;
  }

  /** New working directory for chdir: a searchable directory. */
  chdir(cred: Cred, base: Inode, path: string): Inode {
    const inode = this.resolve(cred, base, path);
    if (!isDir(inode.mode)) throw new SysError(Errno.ENOTDIR, path);
    checkPermission(cred, inode, MAY_EXEC);
    return inode;
  }

  // ---------------------------------------------------------------- open

  open(cred: Cred, base: Inode, path: string, flags: number, mode = 0): IoResult<OpenFile> {
    if ((flags & (O_CREAT | O_DIRECTORY)) === (O_CREAT | O_DIRECTORY)) throw new SysError(Errno.EINVAL);
    const links = new LinkBudget();
    if (!(flags & O_CREAT)) {
      const found = this.namei.resolve(cred, base, path, !(flags & O_NOFOLLOW), links);
      return this.openExisting(cred, found.inode, flags, this.describe(found, path));
    }
    let last = this.namei.parent(cred, base, path, links);
    for (;;) {
      if (last.kind !== 'normal') throw new SysError(flags & O_EXCL ? Errno.EEXIST : Errno.EISDIR, path);
      if (last.slash) throw new SysError(Errno.EISDIR, path);
      if (last.dir.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
      const child = this.namei.child(cred, last);
      if (!child) {
        if (last.dir.fs.readonly) throw new SysError(Errno.EROFS, path);
        this.guard?.create(cred, last.dir, last.name);
        this.mayCreate(cred, last.dir);
        const inode = last.dir.fs.create(last.dir, last.name, S_IFREG | (mode & 0o7777 & ~cred.umask), 0, cred);
        this.guard?.created(last.dir, inode);
        // A file we just created opens whatever its mode says.
        return this.finishOpen(cred, inode, flags, this.describe({ inode, dir: last.dir, name: last.name }, path));
      }
      if (flags & O_EXCL) throw new SysError(Errno.EEXIST, path);
      if (!isLnk(child.mode)) {
        return this.openExisting(cred, child, flags, this.describe({ inode: child, dir: last.dir, name: last.name }, path));
      }
      // O_CREAT through a symlink creates the link's target if it is missing.
      if (flags & O_NOFOLLOW) throw new SysError(Errno.ELOOP, path);
      links.spend();
      const magic = child.fs.followLink?.(child, cred);
      if (magic) {
        this.guard?.lookup(cred, magic, path);
        return this.openExisting(cred, magic, flags, path);
      }
      const target = child.fs.readlink(child);
      if (target === '') throw new SysError(Errno.ENOENT, 'empty symlink');
      last = this.namei.parent(cred, last.dir, target, links);
    }
  }

  /** Open an inode already in hand (after the lookup), with open(2)'s checks. */
  openExisting(cred: Cred, inode: Inode, flags: number, path: string): IoResult<OpenFile> {
    const acc = flags & O_ACCMODE;
    const wantRead = acc !== O_WRONLY;
    const wantWrite = acc !== O_RDONLY || (flags & O_TRUNC) !== 0; // O_TRUNC needs write permission
    const dir = isDir(inode.mode);
    if (flags & O_CREAT && dir) throw new SysError(Errno.EISDIR, path);
    if (flags & O_DIRECTORY && !dir) throw new SysError(Errno.ENOTDIR, path);
    if (isLnk(inode.mode)) throw new SysError(Errno.ELOOP, path);
    if (dir && wantWrite) throw new SysError(Errno.EISDIR, path);
    if (wantWrite && ((inode.fs.readonly && this.onDisk(inode)) || inode.fs.readOnlyFile?.(inode))) throw new SysError(Errno.EROFS, path);
    // The policy's read-only rule acts like a read-only mount: EROFS before EACCES.
    if (this.guard && this.onDisk(inode)) {
      if (wantWrite) this.guard.modify(cred, inode, path);
      else this.guard.read(cred, inode, path);
    }
    checkPermission(cred, inode, (wantRead ? MAY_READ : 0) | (wantWrite ? MAY_WRITE : 0));
    return this.finishOpen(cred, inode, flags, path, (flags & O_TRUNC) !== 0 && isReg(inode.mode));
  }

  /** `truncate`: O_TRUNC on an existing file, done once the file counts as open for writing (the journal's last-close version is the one before it). */
  private finishOpen(cred: Cred, inode: Inode, flags: number, path: string, truncate = false): IoResult<OpenFile> {
    let ops: FileOps;
    switch (inode.mode & S_IFMT) {
      case S_IFCHR:
        if (!this.opts.devices) throw new SysError(Errno.ENXIO, path);
        ops = this.opts.devices.open(inode, flags, cred);
        break;
      case S_IFIFO: {
        if (!this.opts.openFifo) throw new SysError(Errno.ENXIO, path);
        const r = this.opts.openFifo(inode, flags, cred);
        if (r instanceof WaitQueue) return r;
        ops = r;
        break;
      }
      default: {
        const own = inode.fs.open?.(inode, flags, cred) ?? null;
        if (own) ops = own;
        else if (isReg(inode.mode)) ops = regularFileOps;
        else if (isDir(inode.mode)) ops = directoryOps;
        else throw new SysError(Errno.ENXIO, path);
      }
    }
    this.opens.set(inode, (this.opens.get(inode) ?? 0) + 1);
    this.fsOpens.set(inode.fs, (this.fsOpens.get(inode.fs) ?? 0) + 1);
    const file = new TrackedFile(inode, flags & ~OPEN_ONLY_FLAGS, ops, path, (f) => this.closed(f));
    if (file.writable && isReg(inode.mode)) inode.fs.writeOpen?.(inode, 1);
    if (truncate) {
      try {
        inode.fs.truncate(inode, 0);
      } catch (e) {
        file.unref();
        throw e;
      }
    }
    return file;
  }

  private closed(file: OpenFile): void {
    const inode = file.inode;
    if (file.writable && isReg(inode.mode)) inode.fs.writeOpen?.(inode, -1);
    const n = (this.opens.get(inode) ?? 1) - 1;
    if (n > 0) this.opens.set(inode, n);
    else this.opens.delete(inode);
    const m = (this.fsOpens.get(inode.fs) ?? 1) - 1;
    if (m > 0) this.fsOpens.set(inode.fs, m);
    else this.fsOpens.delete(inode.fs);
    this.maybeEvict(inode);
  }

  /** Number of open descriptions of `inode`. */
  openCount(inode: Inode): number {
    return this.opens.get(inode) ?? 0;
  }

  private maybeEvict(inode: Inode): void {
    if (inode.nlink === 0 && !this.opens.has(inode)) inode.fs.evict?.(inode);
  }

  /** Regular files, directories and symlinks live on the fs (EROFS applies); devices and FIFOs don't. */
  private onDisk(inode: Inode): boolean {
    const t = inode.mode & S_IFMT;
    return t === S_IFREG || t === S_IFDIR || t === S_IFLNK;
  }

  /** Absolute path for /proc/<pid>/fd and /proc/<pid>/exe; falls back to the path as given. */
  describe(found: Found, path: string): string {
    try {
      if (isDir(found.inode.mode) || !found.dir) return this.pathOf(found.inode);
      return joinPath(this.pathOf(found.dir), found.name);
    } catch {
      return path;
    }
  }

  // ---------------------------------------------------------------- directories

  /** All entries of an open directory, "." and ".." first, in a stable order. */
  readdirOf(file: OpenFile, cred: Cred = ROOT_CRED): DirEntry[] {
    const dir = file.inode;
    if (!isDir(dir.mode)) throw new SysError(Errno.ENOTDIR);
    if (dir.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
    const up = this.namei.dotdot(ROOT_CRED, dir);
    const guard = this.guard;
    let entries = dir.fs.readdir(dir, ROOT_CRED);
    if (guard) entries = entries.filter((e) => guard.listable(cred, dir, e.ino));
    return [
      { name: '.', ino: dir.ino, type: DT_DIR },
      { name: '..', ino: up.ino, type: DT_DIR },
      ...entries,
    ];
  }

  /** getdents: up to `max` entries from the description's position (an entry index). */
  getdents(file: OpenFile, max = Infinity): DirEntry[] {
    const out = this.readdirOf(file).slice(file.pos, file.pos + max);
    file.pos += out.length;
    return out;
  }

  mkdir(cred: Cred, base: Inode, path: string, mode: number): void {
    const last = this.createLast(cred, base, path, true);
    this.mayCreate(cred, last.dir);
    const inode = last.dir.fs.create(last.dir, last.name, S_IFDIR | (mode & 0o1777 & ~cred.umask), 0, cred);
    this.guard?.created(last.dir, inode);
    this.guard?.changed();
  }

  rmdir(cred: Cred, base: Inode, path: string): void {
    const last = this.namei.parent(cred, base, path);
    if (last.kind === 'dotdot') throw new SysError(Errno.ENOTEMPTY, path);
    if (last.kind === 'dot') throw new SysError(Errno.EINVAL, path);
    if (last.kind === 'root') throw new SysError(Errno.EBUSY, path);
    if (last.dir.fs.readonly) throw new SysError(Errno.EROFS, path);
    const victim = this.namei.child(cred, last, false);
    if (!victim) throw new SysError(Errno.ENOENT, path);
    this.guard?.remove(cred, last.dir, victim, path);
    this.mayDelete(cred, last.dir, victim, true);
    if (this.mountTable.isMountpoint(victim)) throw new SysError(Errno.EBUSY, path);
    if (victim.fs.readdir(victim, cred).length > 0) throw new SysError(Errno.ENOTEMPTY, path);
    last.dir.fs.rmdir(last.dir, last.name);
    this.maybeEvict(victim);
  }

  // ---------------------------------------------------------------- names

  /** mknod: S_IFREG (or 0), S_IFIFO, S_IFSOCK, and for root S_IFCHR/S_IFBLK. */
  mknod(cred: Cred, base: Inode, path: string, mode: number, rdev = 0): void {
    const type = mode & S_IFMT || S_IFREG;
    if (type === S_IFDIR) throw new SysError(Errno.EPERM, 'mknod of a directory');
    if (![S_IFREG, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK].includes(type)) throw new SysError(Errno.EINVAL, 'mknod type');
    const last = this.createLast(cred, base, path, false);
    this.mayCreate(cred, last.dir);
    // Devices need privilege, except a 0:0 char device (an overlayfs whiteout).
    const device = type === S_IFBLK || (type === S_IFCHR && rdev !== 0);
    if (device && cred.uid !== 0) throw new SysError(Errno.EPERM, 'mknod device');
    const inode = last.dir.fs.create(last.dir, last.name, type | (mode & 0o7777 & ~cred.umask), rdev, cred);
    this.guard?.created(last.dir, inode);
  }

  symlink(cred: Cred, base: Inode, target: string, path: string): void {
    if (target === '') throw new SysError(Errno.ENOENT, 'empty symlink target');
    if (target.includes('\0')) throw new SysError(Errno.EINVAL, 'NUL byte in symlink target');
    if (byteLength(target) >= PATH_MAX) throw new SysError(Errno.ENAMETOOLONG, 'symlink target');
    const last = this.createLast(cred, base, path, false);
    this.mayCreate(cred, last.dir);
    const inode = last.dir.fs.symlink(last.dir, last.name, target, cred);
    this.guard?.created(last.dir, inode);
    this.guard?.changed();
  }

  readlink(cred: Cred, base: Inode, path: string): string {
    const inode = this.resolve(cred, base, path, false);
    if (!isLnk(inode.mode)) throw new SysError(Errno.EINVAL, path);
    return inode.fs.readlink(inode);
  }

  /** link(2); `follow` is linkat's AT_SYMLINK_FOLLOW. */
  link(cred: Cred, obase: Inode, opath: string, nbase: Inode, npath: string, follow = false): void {
    const src = this.resolve(cred, obase, opath, follow);
    const last = this.createLast(cred, nbase, npath, false);
    if (last.dir.fs !== src.fs) throw new SysError(Errno.EXDEV, npath);
    if (!this.safeHardlink(cred, src)) throw new SysError(Errno.EPERM, 'protected_hardlinks');
    this.mayCreate(cred, last.dir);
    if (isDir(src.mode)) throw new SysError(Errno.EPERM, 'hard link to directory');
    if (src.nlink === 0) throw new SysError(Errno.ENOENT, opath);
    last.dir.fs.link(last.dir, last.name, src);
    this.guard?.created(last.dir, src);
  }

  unlink(cred: Cred, base: Inode, path: string): void {
    const last = this.namei.parent(cred, base, path);
    if (last.kind !== 'normal') throw new SysError(Errno.EISDIR, path);
    if (last.dir.fs.readonly) throw new SysError(Errno.EROFS, path);
    const victim = this.namei.child(cred, last, false);
    if (last.slash) throw new SysError(!victim ? Errno.ENOENT : isDir(victim.mode) ? Errno.EISDIR : Errno.ENOTDIR, path);
    if (!victim) throw new SysError(Errno.ENOENT, path);
    this.guard?.remove(cred, last.dir, victim, path);
    this.mayDelete(cred, last.dir, victim, false);
    last.dir.fs.unlink(last.dir, last.name);
    this.maybeEvict(victim);
  }

  rename(cred: Cred, obase: Inode, opath: string, nbase: Inode, npath: string): void {
    const o = this.namei.parent(cred, obase, opath);
    const n = this.namei.parent(cred, nbase, npath);
    n.dir.fs.renameTarget?.();
    if (o.dir.fs !== n.dir.fs) throw new SysError(Errno.EXDEV, npath);
    if (o.kind !== 'normal' || n.kind !== 'normal') throw new SysError(Errno.EBUSY);
    if (o.dir.fs.readonly) throw new SysError(Errno.EROFS, opath);
    const src = this.namei.child(cred, o, false);
    if (!src) throw new SysError(Errno.ENOENT, opath);
    const dst = this.namei.child(cred, n, false);
    const srcDir = isDir(src.mode);
    if (!srcDir && (o.slash || n.slash)) throw new SysError(Errno.ENOTDIR);
    if (!sameInode(o.dir, n.dir)) {
      // A directory may not move under itself; the target may not be an ancestor of the source.
      if (this.isWithin(n.dir, src)) throw new SysError(Errno.EINVAL, 'rename into own subtree');
      if (dst && this.isWithin(o.dir, dst)) throw new SysError(Errno.ENOTEMPTY, npath);
    }
    if (dst && sameInode(src, dst)) return; // hard links to one inode: nothing to do
    if (this.guard) {
      this.guard.remove(cred, o.dir, src, opath);
      if (dst) this.guard.remove(cred, n.dir, dst, npath);
      else this.guard.create(cred, n.dir, n.name);
    }
    this.mayDelete(cred, o.dir, src, srcDir);
    if (!dst) this.mayCreate(cred, n.dir);
    else this.mayDelete(cred, n.dir, dst, srcDir);
    // Moving a directory rewrites its "..": needs write permission on it.
    if (srcDir && !sameInode(o.dir, n.dir)) checkPermission(cred, src, MAY_WRITE);
    if (this.mountTable.isMountpoint(src) || (dst && this.mountTable.isMountpoint(dst))) throw new SysError(Errno.EBUSY);
    if (dst && isDir(dst.mode) && dst.fs.readdir(dst, cred).length > 0) throw new SysError(Errno.ENOTEMPTY, npath);
    o.dir.fs.rename(o.dir, o.name, n.dir, n.name);
    if (this.guard) {
      this.guard.created(n.dir, src);
      this.guard.changed();
    }
    if (dst) this.maybeEvict(dst);
  }

  // ---------------------------------------------------------------- attributes

  stat(cred: Cred, base: Inode, path: string, follow = true): Stat {
    return this.fstat(this.resolve(cred, base, path, follow));
  }

  fstat(inode: Inode): Stat {
    return {
      dev: inode.fs.dev,
      ino: inode.ino,
      mode: inode.mode,
      nlink: inode.nlink,
      uid: inode.uid,
      gid: inode.gid,
      rdev: inode.rdev,
      size: inode.size,
      blksize: 4096,
      // Whole pages of 512-byte blocks, as tmpfs reports for regular files.
      blocks: isReg(inode.mode) ? Math.ceil(inode.size / 4096) * 8 : 0,
      atimeMs: inode.atimeMs,
      mtimeMs: inode.mtimeMs,
      ctimeMs: inode.ctimeMs,
    };
  }

  chmod(cred: Cred, base: Inode, path: string, mode: number, follow = true): void {
    this.fchmod(cred, this.resolve(cred, base, path, follow), mode);
  }

  fchmod(cred: Cred, inode: Inode, mode: number): void {
    if (isLnk(inode.mode)) throw new SysError(Errno.ENOTSUP, 'symlink mode');
    if (inode.fs.readonly) throw new SysError(Errno.EROFS);
    this.guard?.modify(cred, inode, 'chmod');
    if (!isOwner(cred, inode)) throw new SysError(Errno.EPERM);
    let perm = mode & 0o7777;
    // Outsiders to the file's group cannot hand it setgid.
    if (cred.uid !== 0 && !inGroup(cred, inode.gid)) perm &= ~S_ISGID;
    inode.fs.setattr(inode, { mode: perm });
  }

  /** chown; -1 leaves an id unchanged. */
  chown(cred: Cred, base: Inode, path: string, uid: number, gid: number, follow = true): void {
    this.fchown(cred, this.resolve(cred, base, path, follow), uid, gid);
  }

  fchown(cred: Cred, inode: Inode, uid: number, gid: number): void {
    if (inode.fs.readonly) throw new SysError(Errno.EROFS);
    this.guard?.modify(cred, inode, 'chown');
    if (cred.uid !== 0) {
      const owner = cred.uid === inode.uid;
      if (uid !== -1 && !(owner && uid === inode.uid)) throw new SysError(Errno.EPERM);
      if (gid !== -1 && !(owner && (gid === inode.gid || inGroup(cred, gid)))) throw new SysError(Errno.EPERM);
    }
    const attr: { uid?: number; gid?: number; mode?: number } = {};
    if (uid !== -1) attr.uid = uid;
    if (gid !== -1) attr.gid = gid;
    if (!isDir(inode.mode) && !isLnk(inode.mode)) {
      // A change of owner drops setuid, and setgid when it means something (group exec).
      let perm = inode.mode & 0o7777 & ~S_ISUID;
      if ((perm & (S_ISGID | 0o010)) === (S_ISGID | 0o010)) perm &= ~S_ISGID;
      if (perm !== (inode.mode & 0o7777)) attr.mode = perm;
    }
    inode.fs.setattr(inode, attr);
  }

  /** utimensat: null means "now" (which only needs write permission if both are now). */
  utimes(cred: Cred, base: Inode, path: string, atimeMs: number | null, mtimeMs: number | null, follow = true): void {
    this.futimes(cred, this.resolve(cred, base, path, follow), atimeMs, mtimeMs);
  }

  futimes(cred: Cred, inode: Inode, atimeMs: number | null, mtimeMs: number | null): void {
    if (inode.fs.readonly) throw new SysError(Errno.EROFS);
    this.guard?.modify(cred, inode, 'utimes');
    if (atimeMs === null && mtimeMs === null) {
      if (!isOwner(cred, inode) && !allowed(cred, inode, MAY_WRITE)) throw new SysError(Errno.EACCES);
    } else if (!isOwner(cred, inode)) {
      throw new SysError(Errno.EPERM);
    }
    const now = Date.now();
    inode.fs.setattr(inode, { atimeMs: atimeMs ?? now, mtimeMs: mtimeMs ?? now });
  }

  truncate(cred: Cred, base: Inode, path: string, length: number): void {
    if (length < 0) throw new SysError(Errno.EINVAL, 'negative length');
    const inode = this.resolve(cred, base, path);
    if (isDir(inode.mode)) throw new SysError(Errno.EISDIR, path);
    if (!isReg(inode.mode)) throw new SysError(Errno.EINVAL, path);
    if (inode.fs.readonly) throw new SysError(Errno.EROFS, path);
    this.guard?.modify(cred, inode, path);
    checkPermission(cred, inode, MAY_WRITE);
    inode.fs.truncate(inode, length);
  }

  ftruncate(_cred: Cred, file: OpenFile, length: number): void {
    if (length < 0) throw new SysError(Errno.EINVAL, 'negative length');
    if (!isReg(file.inode.mode) || !file.writable) throw new SysError(Errno.EINVAL);
    file.inode.fs.truncate(file.inode, length);
  }

  /** access(2): checks with the real uid/gid (Cred.ruid/rgid when set). */
  access(cred: Cred, base: Inode, path: string, mode: number, follow = true): void {
    if (mode & ~7) throw new SysError(Errno.EINVAL, 'access mode');
    const real: Cred = { ...cred, uid: cred.ruid ?? cred.uid, gid: cred.rgid ?? cred.gid };
    const inode = this.resolve(real, base, path, follow);
    if (mode & W_OK && inode.fs.readonly && this.onDisk(inode)) throw new SysError(Errno.EROFS, path);
    if (mode & W_OK && this.guard && this.onDisk(inode)) this.guard.modify(real, inode, path, false);
    if (mode) checkPermission(real, inode, mode);
  }

  statfs(cred: Cred, base: Inode, path: string): StatFs {
    return this.resolve(cred, base, path).fs.statfs();
  }

  fstatfs(inode: Inode): StatFs {
    return inode.fs.statfs();
  }

  // ---------------------------------------------------------------- paths

  /** Absolute path of a directory (getcwd): climb ".." and find each name in its parent. */
  pathOf(dir: Inode): string {
    const names: string[] = [];
    let cur = dir;
    for (let depth = 0; depth < PATH_MAX; depth++) {
      // Out of a mounted root, the name to look for is the mountpoint's.
      for (let mp = this.mountpointIfRoot(cur); mp; mp = this.mountpointIfRoot(cur)) cur = mp;
      if (sameInode(cur, this.root())) return '/' + names.reverse().join('/');
      if (cur.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
      const parent = cur.fs.lookup(cur, '..', ROOT_CRED);
      if (!parent || sameInode(parent, cur)) throw new SysError(Errno.ENOENT, 'detached');
      const name = cur.fs.dirName?.(parent, cur) ?? parent.fs.readdir(parent, ROOT_CRED).find((e) => e.ino === cur.ino)?.name;
      if (name === undefined) throw new SysError(Errno.ENOENT, 'name not found');
      names.push(name);
      cur = parent;
    }
    throw new SysError(Errno.ENAMETOOLONG);
  }

  /** realpath(3): canonical absolute path with every symlink resolved. */
  realpath(cred: Cred, base: Inode, path: string): string {
    const found = this.namei.resolve(cred, base, path, true);
    if (isDir(found.inode.mode)) return this.pathOf(found.inode);
    if (!found.dir) throw new SysError(Errno.ENOENT, path);
    return joinPath(this.pathOf(found.dir), found.name);
  }

  // ---------------------------------------------------------------- rule helpers

  /** Walk to the last component of a path that is to be created (Linux filename_create). */
  private createLast(cred: Cred, base: Inode, path: string, isDirOp: boolean): Last {
    const last = this.namei.parent(cred, base, path);
    if (last.kind !== 'normal') throw new SysError(Errno.EEXIST, path);
    if (last.dir.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
    if (this.namei.child(cred, last, false)) throw new SysError(Errno.EEXIST, path);
    // "name/" may only be created by mkdir.
    if (last.slash && !isDirOp) throw new SysError(Errno.ENOENT, path);
    if (last.dir.fs.readonly) throw new SysError(Errno.EROFS, path);
    this.guard?.create(cred, last.dir, last.name);
    return last;
  }

  private mayCreate(cred: Cred, dir: Inode): void {
    if (dir.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
    checkPermission(cred, dir, MAY_WRITE | MAY_EXEC);
  }

  /** Linux may_delete: write+search on the dir, the sticky rule, type agreement. */
  private mayDelete(cred: Cred, dir: Inode, victim: Inode, wantDir: boolean): void {
    checkPermission(cred, dir, MAY_WRITE | MAY_EXEC);
    if (dir.mode & S_ISVTX && cred.uid !== 0 && cred.uid !== victim.uid && cred.uid !== dir.uid) {
      throw new SysError(Errno.EPERM, 'sticky directory');
    }
    if (wantDir) {
      if (!isDir(victim.mode)) throw new SysError(Errno.ENOTDIR);
      if (sameInode(victim, victim.fs.root())) throw new SysError(Errno.EBUSY);
    } else if (isDir(victim.mode)) {
      throw new SysError(Errno.EISDIR);
    }
    if (dir.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
  }

  /** fs.protected_hardlinks=1: others' files may be linked only if regular, not set-id, and read+writable. */
  private safeHardlink(cred: Cred, src: Inode): boolean {
    if (cred.uid === 0 || cred.uid === src.uid) return true;
    if (!isReg(src.mode) || src.mode & S_ISUID) return false;
    if ((src.mode & (S_ISGID | 0o010)) === (S_ISGID | 0o010)) return false;
    return allowed(cred, src, MAY_READ | MAY_WRITE);
  }

  /** True if `inode` is `ancestor` or lies below it (same filesystem walk). */
  private isWithin(inode: Inode, ancestor: Inode): boolean {
    if (!isDir(ancestor.mode) || inode.fs !== ancestor.fs) return false;
    let cur = inode;
    for (let depth = 0; depth < PATH_MAX; depth++) {
      if (sameInode(cur, ancestor)) return true;
      const up = cur.fs.lookup(cur, '..', ROOT_CRED);
      if (!up || sameInode(up, cur)) return false;
      cur = up;
    }
    return false;
  }

  private mountpointIfRoot(inode: Inode): Inode | null {
    if (!sameInode(inode, inode.fs.root())) return null;
    return this.mountTable.mountpointOf(inode.fs);
  }
}
