// The overlay's writable layer: a plain MemFs plus the metadata conventions
// that let the merged view be rebuilt from that tree alone (so persisting the
// upper MemFs as an ordinary directory tree, hard links included, is enough):
//
//  - whiteout: a character device with rdev 0 at the removed name (Linux's
//    convention). Any mode; we create them 0000, owned by root.
//  - opaque directory: contains an entry named `.wh..wh..opq` (an empty regular
//    file, mode 0000: the OCI image-layer convention). Lower entries under
//    that directory's path are not merged in.
//  - copy-up origin of a non-directory: `/.wh..wh.ovl/index/<lower ino>`
//    (decimal) is a hard link to the upper copy of that lower inode, so st_ino
//    stays the lower one's. The index link is not counted in st_nlink.
//  - origin of a directory copied out of the lower tree (renamed, so opaque):
//    a symlink `.wh..wh..origin` inside it whose target is the lower ino. A
//    merged directory needs none: its lower twin is at the same path.
//  - `/.wh..wh.ovl/work/` holds copies being assembled before they are renamed
//    into place; it is empty between operations.
//
// Every name starting with `.wh..wh.` is reserved: hidden in both layers and
// refused (EPERM) as a new name. Stale index entries (an upper copy whose last
// name went while it was open) and work leftovers are dropped at construction.

import { Errno, SysError } from '../../../abi/errno.js';
import { S_IFCHR, S_IFDIR, S_IFREG, isChr, isDir, isLnk } from '../../../abi/stat.js';
import type { MemFs, MemInode } from '../memfs.js';
import type { Cred, Inode } from '../../vfs/types.js';

export const RESERVED_PREFIX = '.wh..wh.';
export const OPAQUE_MARKER = '.wh..wh..opq';
export const META_DIR = '.wh..wh.ovl';
export const DIR_ORIGIN = '.wh..wh..origin';

/** The overlay's own metadata writes are the kernel's, not the caller's. */
export const KERNEL_CRED: Readonly<Cred> = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };

export const isReserved = (name: string): boolean => name.startsWith(RESERVED_PREFIX);
export const isWhiteout = (node: Inode): boolean => isChr(node.mode) && node.rdev === 0;

export class UpperLayer {
  /** Upper copies of lower inodes (those linked in the index) → the lower ino. */
  private readonly origins = new Map<MemInode, number>();
  private seq = 0;

  constructor(readonly fs: MemFs) {
    if (!fs.readonly) this.recover();
  }

  lookup(dir: MemInode, name: string): MemInode | null {
    return this.fs.lookup(dir, name);
  }

  isOpaque(dir: MemInode): boolean {
    return this.fs.lookup(dir, OPAQUE_MARKER) !== null;
  }

  markOpaque(dir: MemInode): void {
    if (!this.isOpaque(dir)) this.fs.create(dir, OPAQUE_MARKER, S_IFREG, 0, KERNEL_CRED);
  }

  /** A whiteout at the free name `name`. */
  whiteout(dir: MemInode, name: string): void {
    this.fs.create(dir, name, S_IFCHR, 0, KERNEL_CRED);
  }

  /** Replace the non-directory entry `name` by a whiteout in one step (no moment without either). */
  coverWithWhiteout(dir: MemInode, name: string): void {
    const work = this.metaDir('work');
    const tmp = this.tmpName();
    this.fs.create(work, tmp, S_IFCHR, 0, KERNEL_CRED);
    this.fs.rename(work, tmp, dir, name);
  }

  /** The lower ino a directory was copied from, if recorded. */
  dirOrigin(dir: MemInode): number | undefined {
    const rec = this.fs.lookup(dir, DIR_ORIGIN);
    const ino = rec && isLnk(rec.mode) ? Number(this.fs.readlink(rec)) : NaN;
    return Number.isSafeInteger(ino) ? ino : undefined;
  }

  recordDirOrigin(dir: MemInode, lowerIno: number): void {
    if (!this.fs.lookup(dir, DIR_ORIGIN)) this.fs.symlink(dir, DIR_ORIGIN, String(lowerIno), KERNEL_CRED);
  }

  /** Drop whiteouts (and, with `all`, the reserved entries: opaque marker, origin) from a directory. */
  clearMeta(dir: MemInode, all = true): void {
    for (const e of this.fs.readdir(dir)) {
      const node = this.fs.lookup(dir, e.name)!;
      if ((all && isReserved(e.name)) || isWhiteout(node)) this.fs.unlink(dir, e.name);
    }
  }

  originOf(node: MemInode): number | undefined {
    return this.origins.get(node);
  }

  /** Link `node` into the index as the copy of lower inode `lowerIno` (unless another copy holds that slot). */
  recordOrigin(node: MemInode, lowerIno: number): void {
    const index = this.metaDir('index');
    const name = String(lowerIno);
    if (this.fs.lookup(index, name)) return;
    this.fs.link(index, name, node);
    this.origins.set(node, lowerIno);
  }

  /** Remove `node`'s index link (its last visible name and last open file are gone). */
  forget(node: MemInode): void {
    const ino = this.origins.get(node);
    if (ino === undefined) return;
    this.origins.delete(node);
    const index = this.metaDir('index');
    if (this.fs.lookup(index, String(ino)) === node) this.fs.unlink(index, String(ino));
  }

  /** Directory where new copies are assembled, and a fresh name in it. */
  workSlot(): [MemInode, string] {
    return [this.metaDir('work'), this.tmpName()];
  }

  /** Run `fn`, then put `dir`'s atime/mtime back: copy-up is not a change of the directory. */
  keepTimes<T>(dir: MemInode, fn: () => T): T {
    const { atimeMs, mtimeMs } = dir;
    try {
      return fn();
    } finally {
      this.fs.setattr(dir, { atimeMs, mtimeMs });
    }
  }

  private tmpName(): string {
    return `tmp${this.seq++}`;
  }

  /** `/.wh..wh.ovl/<sub>`, created on first use (without touching the root's times). */
  private metaDir(sub: 'index' | 'work'): MemInode {
    const root = this.fs.root();
    let meta = this.fs.lookup(root, META_DIR);
    if (!meta) meta = this.keepTimes(root, () => this.fs.create(root, META_DIR, S_IFDIR | 0o700, 0, KERNEL_CRED));
    const dir = this.fs.lookup(meta, sub) ?? this.fs.create(meta, sub, S_IFDIR | 0o700, 0, KERNEL_CRED);
    if (!isDir(dir.mode)) throw new SysError(Errno.EIO, `overlay: ${META_DIR}/${sub} is not a directory`);
    return dir;
  }

  /** Rebuild the origin map from the index; drop stale index entries and work leftovers. */
  private recover(): void {
    const meta = this.fs.lookup(this.fs.root(), META_DIR);
    if (!meta || !isDir(meta.mode)) return;
    const index = this.fs.lookup(meta, 'index');
    if (index && isDir(index.mode)) {
      for (const e of this.fs.readdir(index)) {
        const node = this.fs.lookup(index, e.name)!;
        const ino = Number(e.name);
        // nlink 1 = only the index link: the file was unlinked while open.
        if (isDir(node.mode) || node.nlink <= 1 || !Number.isSafeInteger(ino)) this.removeTree(index, e.name);
        else this.origins.set(node, ino);
      }
    }
    const work = this.fs.lookup(meta, 'work');
    if (work && isDir(work.mode)) for (const e of this.fs.readdir(work)) this.removeTree(work, e.name);
  }

  private removeTree(dir: MemInode, name: string): void {
    const node = this.fs.lookup(dir, name)!;
    if (!isDir(node.mode)) {
      this.fs.unlink(dir, name);
      this.fs.evict(node);
      return;
    }
    for (const e of this.fs.readdir(node)) this.removeTree(node, e.name);
    this.fs.rmdir(dir, name);
    this.fs.evict(node);
  }
}
