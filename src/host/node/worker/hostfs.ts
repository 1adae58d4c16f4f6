// A host directory mounted into the VM (Node host): live two-way
// access through node:fs, run inside the kernel worker.
//
// Escape protection: the VFS walks paths one name at a time and resolves
// every symlink itself, inside the VM's namespace, so a host symlink never
// leads the guest out. HostFs only ever touches `root + path of names it
// looked up`, opens final components with O_NOFOLLOW, and before each use
// checks that the parent directory's real path is exactly the expected one
// (no symlink swapped into an intermediate component, whoever did it).
//
// Ownership: every file shows as owned by the mount's uid/gid (the VM user by
// user), as a FUSE mount with uid=/gid= does; the host's permission bits
// are kept. Devices, FIFOs and sockets show their type but never open.

import * as fs from 'node:fs';
import { Errno, SysError, errnoFromName } from '../../../abi/errno.js';
import { NAME_MAX } from '../../../abi/fcntl.js';
import type { DirEntry, StatFs } from '../../../abi/stat.js';
import { DT_DIR, DT_FIFO, DT_LNK, DT_REG, DT_UNKNOWN, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, isDir, isLnk } from '../../../abi/stat.js';
import type { FileSystem, Inode, SetAttr } from '../../../kernel/vfs/types.js';

class HostInode implements Inode {
  mode = 0;
  uid: number;
  gid: number;
  nlink = 1;
  size = 0;
  rdev = 0;
  atimeMs = 0;
  mtimeMs = 0;
  ctimeMs = 0;

  /** Path relative to the mount root ('' for the root), kept current across renames. */
  constructor(readonly fs: HostFs, readonly ino: number, public path: string) {
    this.uid = fs.uid;
    this.gid = fs.gid;
  }

  refresh(st: fs.Stats): this {
    // Anything but a file, directory or symlink is listed with its type and
    // rdev 0, so opening it can only fail (ENXIO) instead of reaching the host.
    this.mode = st.mode;
    this.nlink = st.nlink;
    this.size = st.size;
    this.atimeMs = st.atimeMs;
    this.mtimeMs = st.mtimeMs;
    this.ctimeMs = st.ctimeMs;
    return this;
  }
}

/** Host fds kept open per inode (reads and writes reuse them); least recently used closed first. */
const MAX_FDS = 64;

export class HostFs implements FileSystem {
  readonly type = 'hostfs';
  dev = 0;
  readonly readonly: boolean;
  /** Owner shown for every file: the VM user. */
  readonly uid = 1000;
  readonly gid = 1000;
  /** The host directory's real path: every path HostFs touches starts with it. */
  private readonly base: string;
  private readonly inodes = new Map<string, HostInode>(); // host dev:ino → inode
  private readonly rootInode: HostInode;
  private nextIno = 1;
  private readonly fds = new Map<HostInode, { fd: number; writable: boolean }>();

  constructor(host: string, readOnly: boolean) {
    this.readonly = readOnly;
    let st: fs.Stats;
    try {
      this.base = fs.realpathSync.native(host);
      st = fs.statSync(this.base);
    } catch (e) {
      throw new Error(`mount ${host}: ${(e as Error).message}`);
    }
    if (!st.isDirectory()) throw new Error(`mount ${host}: not a directory`);
    this.rootInode = this.inodeFor(st, '');
  }

  root(): Inode {
    return this.rootInode;
  }

  lookup(dir: Inode, name: string): Inode | null {
    const d = this.own(dir);
    if (name === '..') {
      if (d === this.rootInode) return d;
      const parent = d.path.includes('/') ? d.path.slice(0, d.path.lastIndexOf('/')) : '';
      return this.stat(parent);
    }
    return this.stat(join(d.path, name));
  }

  readdir(dir: Inode): DirEntry[] {
    const d = this.own(dir);
    const out: DirEntry[] = [];
    for (const e of host(() => fs.readdirSync(this.hostPath(d.path), { withFileTypes: true }))) {
      const child = this.stat(join(d.path, e.name));
      if (child) out.push({ name: e.name, ino: child.ino, type: dtype(child.mode) });
    }
    return out;
  }

  create(dir: Inode, name: string, mode: number): Inode {
    this.writable();
    const path = join(this.own(dir).path, name);
    const p = this.hostPath(path);
    switch (mode & S_IFMT) {
      case S_IFREG:
        host(() => fs.closeSync(fs.openSync(p, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, mode & 0o7777)));
        break;
      case S_IFDIR:
        host(() => fs.mkdirSync(p, mode & 0o7777));
        break;
      default:
        // node:fs cannot make FIFOs or device nodes on the host.
        throw new SysError(Errno.EPERM, 'hostfs: only files, directories and symlinks can be created');
    }
    return this.mustStat(path);
  }

  symlink(dir: Inode, name: string, target: string): Inode {
    this.writable();
    const path = join(this.own(dir).path, name);
    try {
      fs.symlinkSync(target, this.hostPath(path));
    } catch (e) {
      // Node's permission model (isolation 'process') refuses every symlink, since it
      // would follow one out of the granted paths: a filesystem without symlinks (EPERM).
      if ((e as NodeJS.ErrnoException).code === 'ERR_ACCESS_DENIED') throw new SysError(Errno.EPERM, 'hostfs: no symlinks under the VM process\'s permissions');
      throw toSysError(e);
    }
    return this.mustStat(path);
  }

  link(dir: Inode, name: string, target: Inode): void {
    this.writable();
    const t = this.own(target);
    host(() => fs.linkSync(this.hostPath(t.path), this.hostPath(join(this.own(dir).path, name))));
    this.mustStat(t.path);
  }

  unlink(dir: Inode, name: string): void {
    this.writable();
    const path = join(this.own(dir).path, name);
    const victim = this.stat(path);
    host(() => fs.unlinkSync(this.hostPath(path)));
    if (victim) victim.nlink = Math.max(0, victim.nlink - 1);
  }

  rmdir(dir: Inode, name: string): void {
    this.writable();
    const path = join(this.own(dir).path, name);
    const victim = this.stat(path);
    host(() => fs.rmdirSync(this.hostPath(path)));
    if (victim) victim.nlink = 0;
  }

  rename(odir: Inode, oname: string, ndir: Inode, nname: string): void {
    this.writable();
    const from = join(this.own(odir).path, oname);
    const to = join(this.own(ndir).path, nname);
    const replaced = this.stat(to);
    host(() => fs.renameSync(this.hostPath(from), this.hostPath(to)));
    if (replaced) replaced.nlink = isDir(replaced.mode) ? 0 : Math.max(0, replaced.nlink - 1);
    // Every cached path under the old name moves with it, so no stale path can
    // later resolve through whatever takes the old name's place.
    for (const inode of this.inodes.values()) {
      if (inode.path === from) inode.path = to;
      else if (inode.path.startsWith(from + '/')) inode.path = to + inode.path.slice(from.length);
    }
  }

  readlink(inode: Inode): string {
    return host(() => fs.readlinkSync(this.hostPath(this.own(inode).path), 'utf8'));
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    const i = this.own(inode);
    const buf = Buffer.allocUnsafe(len);
    const n = host(() => fs.readSync(this.fd(i, false), buf, 0, len, pos));
    return buf.subarray(0, n);
  }

  write(inode: Inode, pos: number, data: Uint8Array): number {
    this.writable();
    const i = this.own(inode);
    const n = host(() => fs.writeSync(this.fd(i, true), data, 0, data.length, pos));
    i.size = Math.max(i.size, pos + n);
    i.mtimeMs = i.ctimeMs = Date.now();
    return n;
  }

  truncate(inode: Inode, size: number): void {
    this.writable();
    const i = this.own(inode);
    host(() => fs.ftruncateSync(this.fd(i, true), size));
    i.size = size;
    i.mtimeMs = i.ctimeMs = Date.now();
  }

  setattr(inode: Inode, attr: SetAttr): void {
    this.writable();
    const i = this.own(inode);
    // Ownership is the mount's; it cannot be given away.
    if ((attr.uid !== undefined && attr.uid !== this.uid) || (attr.gid !== undefined && attr.gid !== this.gid)) {
      throw new SysError(Errno.EPERM, 'hostfs: files belong to the mount owner');
    }
    const p = this.hostPath(i.path);
    if (attr.mode !== undefined && !isLnk(i.mode)) host(() => fs.chmodSync(p, attr.mode! & 0o7777));
    if (attr.atimeMs !== undefined || attr.mtimeMs !== undefined) {
      const a = (attr.atimeMs ?? i.atimeMs) / 1000;
      const m = (attr.mtimeMs ?? i.mtimeMs) / 1000;
      host(() => fs.lutimesSync(p, a, m));
    }
    this.mustStat(i.path);
  }

  statfs(): StatFs {
    const s = host(() => fs.statfsSync(this.base));
    return { type: this.type, bsize: s.bsize, blocks: s.blocks, bfree: s.bfree, bavail: s.bavail, files: s.files, ffree: s.ffree, namelen: NAME_MAX };
  }

  dirName(dir: Inode, child: Inode): string | null {
    const c = this.own(child);
    const cut = c.path.lastIndexOf('/');
    return (cut < 0 ? '' : c.path.slice(0, cut)) === this.own(dir).path && c.path !== '' ? c.path.slice(cut + 1) : null;
  }

  evict(inode: Inode): void {
    this.closeFd(this.own(inode));
  }

  /** Close every host fd (the VM is stopping). */
  close(): void {
    for (const i of [...this.fds.keys()]) this.closeFd(i);
  }

  private own(inode: Inode): HostInode {
    if (!(inode instanceof HostInode) || inode.fs !== this) throw new SysError(Errno.EXDEV);
    return inode;
  }

  private writable(): void {
    if (this.readonly) throw new SysError(Errno.EROFS);
  }

  /**
   * The host path of `path`, after checking that its parent directory really
   * is where its names say: an intermediate symlink would make the real path
   * differ, and the operation is refused.
   */
  private hostPath(path: string): string {
    if (path === '') return this.base;
    const cut = path.lastIndexOf('/');
    if (cut >= 0) {
      const parent = this.base + '/' + path.slice(0, cut);
      if (host(() => fs.realpathSync.native(parent)) !== parent) throw new SysError(Errno.EACCES, 'hostfs: path leaves the mounted directory');
    }
    return this.base + '/' + path;
  }

  private stat(path: string): HostInode | null {
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(this.hostPath(path), { throwIfNoEntry: false });
    } catch (e) {
      const err = toSysError(e);
      if (err.errno === Errno.ENOENT) return null;
      throw err;
    }
    return st ? this.inodeFor(st, path) : null;
  }

  private mustStat(path: string): HostInode {
    const inode = this.stat(path);
    if (!inode) throw new SysError(Errno.ENOENT, path);
    return inode;
  }

  /** One inode object per host file, so the VFS's identity-keyed tables work. */
  private inodeFor(st: fs.Stats, path: string): HostInode {
    const key = `${st.dev}:${st.ino}`;
    let inode = this.inodes.get(key);
    if (!inode) {
      inode = new HostInode(this, this.nextIno++, path);
      this.inodes.set(key, inode);
    }
    inode.path = path;
    return inode.refresh(st);
  }

  private fd(i: HostInode, write: boolean): number {
    const open = this.fds.get(i);
    if (open && (open.writable || !write)) {
      this.fds.delete(i); // re-insert: most recently used last
      this.fds.set(i, open);
      return open.fd;
    }
    if (open) this.closeFd(i);
    const openAs = (mode: number): number => fs.openSync(this.hostPath(i.path), mode | fs.constants.O_NOFOLLOW);
    let entry: { fd: number; writable: boolean } | undefined;
    if (write || !this.readonly) {
      try {
        entry = { fd: openAs(fs.constants.O_RDWR), writable: true };
      } catch (e) {
        // A file the host lets us read but not write still reads.
        if (write || (e as NodeJS.ErrnoException).code !== 'EACCES') throw toSysError(e);
      }
    }
    entry ??= { fd: host(() => openAs(fs.constants.O_RDONLY)), writable: false };
    if (this.fds.size >= MAX_FDS) this.closeFd(this.fds.keys().next().value!);
    this.fds.set(i, entry);
    return entry.fd;
  }

  private closeFd(i: HostInode): void {
    const open = this.fds.get(i);
    if (!open) return;
    this.fds.delete(i);
    try {
      fs.closeSync(open.fd);
    } catch {
      // already gone
    }
  }
}

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

function dtype(mode: number): number {
  switch (mode & S_IFMT) {
    case S_IFDIR: return DT_DIR;
    case S_IFREG: return DT_REG;
    case S_IFLNK: return DT_LNK;
    case S_IFIFO: return DT_FIFO;
    default: return DT_UNKNOWN;
  }
}

/** Run a host call, turning Node's errors into the errno the guest sees. */
function host<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw toSysError(e);
  }
}

function toSysError(e: unknown): SysError {
  if (e instanceof SysError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new SysError(Errno.ELOOP); // O_NOFOLLOW on a symlink
  // Node's permission model (isolation 'process'; it refuses symlinks: see symlink()).
  if (code === 'ERR_ACCESS_DENIED') return new SysError(Errno.EACCES, 'hostfs: refused by the VM process\'s permissions');
  try {
    if (code) return new SysError(errnoFromName(code), 'hostfs');
  } catch {
    // an errno agentOS has no number for
  }
  return new SysError(Errno.EIO, `hostfs: ${(e as Error).message}`);
}
