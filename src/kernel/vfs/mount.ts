// The mount table: which filesystem covers which directory, and back again
// (a mounted root's mountpoint, for ".." walking up out of a mount).

import { Errno, SysError } from '../../abi/errno.js';
import { isDir } from '../../abi/stat.js';
import type { FileSystem, Inode } from './types.js';

export interface Mount {
  readonly fs: FileSystem;
  /** The directory this fs covers; null for the root mount. */
  readonly mountpoint: Inode | null;
  readonly parent: Mount | null;
}

const key = (inode: Inode): string => `${inode.fs.dev}:${inode.ino}`;

export const sameInode = (a: Inode, b: Inode): boolean => a === b || (a.fs === b.fs && a.ino === b.ino);

export class MountTable {
  private readonly byMountpoint = new Map<string, Mount>();
  private readonly byFs = new Map<FileSystem, Mount>();
  private nextDev = 1;
  rootMount: Mount;

  constructor(rootFs: FileSystem) {
    rootFs.dev = this.nextDev++;
    this.rootMount = { fs: rootFs, mountpoint: null, parent: null };
    this.byFs.set(rootFs, this.rootMount);
  }

  /** The root directory of the whole tree. */
  root(): Inode {
    return this.rootMount.fs.root();
  }

  /** Mount `fs` on directory `at`, giving it a fresh dev number. */
  mount(fs: FileSystem, at: Inode): Mount {
    if (!isDir(at.mode)) throw new SysError(Errno.ENOTDIR, 'mountpoint');
    if (this.byFs.has(fs)) throw new SysError(Errno.EBUSY, 'already mounted');
    if (this.byMountpoint.has(key(at))) throw new SysError(Errno.EBUSY, 'mountpoint in use');
    const parent = this.byFs.get(at.fs);
    if (!parent) throw new SysError(Errno.EINVAL, 'mountpoint not in the tree');
    fs.dev = this.nextDev++;
    const m: Mount = { fs, mountpoint: at, parent };
    this.byMountpoint.set(key(at), m);
    this.byFs.set(fs, m);
    return m;
  }

  /** Detach `fs`. `busy` reports open files on it (the VFS knows those). */
  umount(fs: FileSystem, busy: boolean): void {
    const m = this.byFs.get(fs);
    if (!m) throw new SysError(Errno.EINVAL, 'not mounted');
    if (!m.mountpoint || busy) throw new SysError(Errno.EBUSY);
    for (const other of this.byFs.values()) if (other.parent === m) throw new SysError(Errno.EBUSY, 'has submounts');
    this.byMountpoint.delete(key(m.mountpoint));
    this.byFs.delete(fs);
  }

  /** The filesystem mounted on `dir`, if any. */
  mountedOn(dir: Inode): FileSystem | null {
    return this.byMountpoint.get(key(dir))?.fs ?? null;
  }

  isMountpoint(dir: Inode): boolean {
    return this.byMountpoint.has(key(dir));
  }

  /** Follow mounts downward: the root of whatever is (recursively) mounted on `inode`. */
  cross(inode: Inode): Inode {
    let cur = inode;
    for (let fs = this.mountedOn(cur); fs; fs = this.mountedOn(cur)) cur = fs.root();
    return cur;
  }

  /** The directory a filesystem root is mounted on; null for the tree root or an unmounted fs. */
  mountpointOf(fs: FileSystem): Inode | null {
    return this.byFs.get(fs)?.mountpoint ?? null;
  }

  isMounted(fs: FileSystem): boolean {
    return this.byFs.has(fs);
  }

  /**
   * Swap the root filesystem (a snapshot restore), keeping its dev number and
   * every mount: each mountpoint is re-found in the new tree by `remap`; a
   * mount whose mountpoint the new tree lacks (null) is dropped with its submounts.
   */
  replaceRoot(fs: FileSystem, remap: (mountpoint: Inode) => Inode | null): void {
    const old = this.list();
    fs.dev = this.rootMount.fs.dev;
    this.byFs.clear();
    this.byMountpoint.clear();
    const renewed = new Map<Mount, Mount>();
    this.rootMount = { fs, mountpoint: null, parent: null };
    renewed.set(old[0], this.rootMount);
    this.byFs.set(fs, this.rootMount);
    for (const m of old.slice(1)) {
      const parent = m.parent && renewed.get(m.parent);
      const at = parent && m.mountpoint && (parent === this.rootMount ? remap(m.mountpoint) : m.mountpoint);
      if (!parent || !at) continue;
      const n: Mount = { fs: m.fs, mountpoint: at, parent };
      renewed.set(m, n);
      this.byMountpoint.set(key(at), n);
      this.byFs.set(m.fs, n);
    }
  }

  /** Every mount, parents before children (for /proc/mounts). */
  list(): Mount[] {
    return [...this.byFs.values()];
  }
}
