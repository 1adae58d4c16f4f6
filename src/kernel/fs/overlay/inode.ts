// One merged file of an overlay: the same object for as long as anything holds
// it (open files, cwds, the VFS), whatever happens to its layers underneath.
// Attributes come from the upper copy once there is one, else from the lower.

import type { MemInode } from '../memfs.js';
import type { Inode } from '../../vfs/types.js';
import type { OverlayFs } from '../overlayfs.js';

export class OvlInode implements Inode {
  /** Merged directories: count of visible subdirectories (for st_nlink); null = not counted yet. */
  subdirs: number | null = null;
  /** Lower-only non-directories: names of it removed in the merged view. */
  lowerGone = 0;
  /** Directories: removed (rmdir, or replaced by a rename). */
  removed = false;

  constructor(
    readonly fs: OverlayFs,
    /** Fixed at creation: the lower inode's number when there is one (kept across copy-up). */
    readonly ino: number,
    /** The lower inode; for directories null when the upper is opaque or there is none. */
    public lower: Inode | null,
    public upper: MemInode | null,
    /**
     * Directories: the parent (the root's is itself) and the name there.
     * Non-directories: where it was last looked up, which is where copy-up puts it.
     */
    public parent: OvlInode | null,
    public name: string,
  ) {}

  /** The layer that answers for the attributes. */
  get real(): Inode {
    return this.upper ?? this.lower!;
  }

  get mode(): number { return this.real.mode; }
  get uid(): number { return this.real.uid; }
  get gid(): number { return this.real.gid; }
  get size(): number { return this.real.size; }
  get rdev(): number { return this.real.rdev; }
  get mtimeMs(): number { return this.real.mtimeMs; }
  get ctimeMs(): number { return this.real.ctimeMs; }
  get nlink(): number { return this.fs.linkCount(this); }
  get atimeMs(): number { return this.real.atimeMs; }
  /** Reads refresh atime directly (relatime); the lower layer is immutable, so only a copy records it. */
  set atimeMs(t: number) {
    if (this.upper) this.upper.atimeMs = t;
  }
}
