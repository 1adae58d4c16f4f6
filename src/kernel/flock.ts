// BSD file locks (flock(2)): shared or exclusive, held by an open file
// description (so dup'ed and inherited fds share one lock), released by
// LOCK_UN or when the description's last fd closes. A waiter sleeps on the
// file's queue and re-checks when any lock on the file is dropped.

import { Errno, SysError } from '../abi/errno.js';
import type { OpenFile } from './file.js';
import { WaitQueue } from './waitqueue.js';

export const LOCK_SH = 1;
export const LOCK_EX = 2;
export const LOCK_NB = 4;
export const LOCK_UN = 8;

interface FileLocks {
  exclusive: OpenFile | null;
  shared: Set<OpenFile>;
  queue: WaitQueue;
}

export class FlockTable {
  private readonly files = new Map<string, FileLocks>();

  private keyOf(f: OpenFile): string {
    return `${f.inode.fs.dev}:${f.inode.ino}`;
  }

  /** flock(fd, op): 0 when done, the queue to sleep on when it must wait. */
  lock(f: OpenFile, op: number): 0 | WaitQueue {
    const kind = op & ~LOCK_NB;
    if (kind === LOCK_UN) {
      this.release(f);
      return 0;
    }
    if (kind !== LOCK_SH && kind !== LOCK_EX) throw new SysError(Errno.EINVAL, 'flock operation');
    const key = this.keyOf(f);
    const l = this.entry(key);
    const others = kind === LOCK_EX
      ? (l.exclusive !== null && l.exclusive !== f) || [...l.shared].some((o) => o !== f)
      : l.exclusive !== null && l.exclusive !== f;
    if (others) {
      // A conversion that has to wait gives up the lock it holds first, as Linux does.
      if (l.exclusive === f || l.shared.has(f)) this.release(f);
      if (op & LOCK_NB) throw new SysError(Errno.EAGAIN, 'flock');
      return this.entry(key).queue;
    }
    if (kind === LOCK_EX) {
      l.shared.delete(f);
      l.exclusive = f;
    } else {
      if (l.exclusive === f) {
        l.exclusive = null;
        l.queue.wake();
      }
      l.shared.add(f);
    }
    f.onRelease = () => this.release(f);
    return 0;
  }

  private entry(key: string): FileLocks {
    let l = this.files.get(key);
    if (!l) {
      l = { exclusive: null, shared: new Set(), queue: new WaitQueue() };
      this.files.set(key, l);
    }
    return l;
  }

  /** Drop whatever lock `f` holds on its file and wake the file's waiters. */
  release(f: OpenFile): void {
    const key = this.keyOf(f);
    const l = this.files.get(key);
    if (!l) return;
    if (l.exclusive === f) l.exclusive = null;
    l.shared.delete(f);
    f.onRelease = null;
    l.queue.wake();
    if (l.exclusive === null && l.shared.size === 0 && l.queue.size === 0) this.files.delete(key);
  }
}
