// The JavaScript runtime's script, opened by the kernel as the new process
// would open it: a worker that has compiled that file already runs it without
// the open/fstat/close round trips of its own lookup (three thread hand-offs
// per program start, each a scheduler slice on a busy machine).

import { O_RDONLY } from '../abi/fcntl.js';
import { programKey } from '../abi/runtime.js';
import { isReg } from '../abi/stat.js';
import type { Image } from './process.js';
import type { Cred, Inode } from './vfs/types.js';
import type { Vfs } from './vfs/vfs.js';
import { WaitQueue } from './waitqueue.js';

/**
 * The identity of the `js` runtime's script (its argv[1], from `cwd`) if
 * `cred` may open it for reading now, with every check open(2) makes (the
 * policy's file rules, permissions); else undefined, and the runtime opens it
 * itself and reports why it cannot. Same turn of the kernel as the spawn: the
 * file cannot change in between.
 */
export function scriptKey(vfs: Vfs, cred: Cred, cwd: Inode, image: Image): string | undefined {
  const script = image.argv[1];
  if (image.runtime !== 'js' || script === undefined) return undefined;
  try {
    // A regular file only: opening a FIFO or a device has effects of its own.
    if (!isReg(vfs.resolve(cred, cwd, script, true).mode)) return undefined;
    const f = vfs.open(cred, cwd, script, O_RDONLY);
    if (f instanceof WaitQueue) return undefined;
    try {
      return programKey(vfs.fstat(f.inode));
    } finally {
      f.unref();
    }
  } catch {
    return undefined;
  }
}
