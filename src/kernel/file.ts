// An open file description (Linux `struct file`): shared by dup'ed fds and by
// children that inherit them, so the offset and status flags are shared too.

import { O_ACCMODE, O_RDONLY, O_WRONLY } from '../abi/fcntl.js';
import type { FileOps, Inode } from './vfs/types.js';

export class OpenFile {
  pos = 0;
  private refs = 1;
  /** Set while the description holds a flock(2) lock: dropping the last reference releases it. */
  onRelease: (() => void) | null = null;

  constructor(
    readonly inode: Inode,
    /** Access mode and status flags (O_APPEND, O_NONBLOCK, ...). */
    public flags: number,
    readonly ops: FileOps,
    /** Path it was opened by, for /proc/<pid>/fd links and error messages. */
    readonly path: string,
  ) {}

  get readable(): boolean {
    return (this.flags & O_ACCMODE) !== O_WRONLY;
  }

  get writable(): boolean {
    return (this.flags & O_ACCMODE) !== O_RDONLY;
  }

  ref(): this {
    this.refs++;
    return this;
  }

  /** Drop one reference; the last one releases the description. */
  unref(): void {
    if (--this.refs > 0) return;
    this.onRelease?.();
    this.ops.release?.(this);
  }

  get refCount(): number {
    return this.refs;
  }
}
