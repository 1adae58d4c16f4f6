// procfs inodes are made afresh on every lookup from a Node (entry + pid + fd),
// so attributes track the process; the inode number stays the same.

import type { Process } from '../../process.js';
import type { Cred, FileSystem, Inode } from '../../vfs/types.js';
import type { Node } from './entry.js';

/** What the inode asks its filesystem for its link count. */
export interface LinkCounter extends FileSystem {
  linkCount(inode: ProcInode): number;
}

export class ProcInode implements Inode {
  readonly size = 0; // like Linux: the length of generated content is unknown until read
  readonly rdev = 0;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;

  constructor(
    readonly fs: LinkCounter,
    readonly node: Node,
    /** The process this entry belongs to, pinned so a reused pid does not inherit it. */
    readonly proc: Process | null,
    /** Directory it was looked up in, for ".."; null for the root. */
    readonly parent: ProcInode | null,
    /** Who looked it up: readlink has no cred argument, and /proc/self needs one. */
    readonly cred: Cred,
    public mode: number,
    public uid: number,
    public gid: number,
    timeMs: number,
  ) {
    this.atimeMs = this.mtimeMs = this.ctimeMs = timeMs;
  }

  get ino(): number {
    return this.node.ino;
  }

  /** 0 once the owning process is gone, so the VFS treats the directory as removed. */
  get nlink(): number {
    return this.fs.linkCount(this);
  }
}
