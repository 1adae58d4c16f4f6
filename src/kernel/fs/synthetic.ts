// What every generated filesystem (procfs, aosfs) answers alike: its tree
// comes from kernel state, so nothing is linked, removed or renamed in it
// (EPERM), data is never written through the inode (EINVAL), and it has no
// blocks to count.

import { Errno, SysError } from '../../abi/errno.js';
import { NAME_MAX } from '../../abi/fcntl.js';
import type { StatFs } from '../../abi/stat.js';
import type { Inode } from '../vfs/types.js';

export abstract class SyntheticFs {
  abstract readonly type: string;
  dev = 0;
  /** Mounted read-write: refusals come from each operation, not EROFS. */
  readonly readonly = false;

  write(): number {
    throw new SysError(Errno.EINVAL);
  }

  symlink(): Inode {
    throw new SysError(Errno.EPERM);
  }

  link(): void {
    throw new SysError(Errno.EPERM);
  }

  unlink(): void {
    throw new SysError(Errno.EPERM);
  }

  rmdir(): void {
    throw new SysError(Errno.EPERM);
  }

  rename(): void {
    throw new SysError(Errno.EPERM);
  }

  statfs(): StatFs {
    return { type: this.type, bsize: 4096, blocks: 0, bfree: 0, bavail: 0, files: 0, ffree: 0, namelen: NAME_MAX };
  }
}
