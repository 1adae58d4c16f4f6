// /dev/tty (5,0): the caller's controlling terminal. Linux fails
// open("/dev/tty") with ENXIO for a process without one. The kernel's pty
// driver (tty/pty.ts) serves the node; this stand-in answers where there is
// no kernel (a bare VFS), where nobody can have a terminal.

import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Tty } from '../tty/tty.js';
import type { Cred } from '../vfs/types.js';
import type { CharDevice } from './device.js';

export const ttyDevice: CharDevice = {
  open() {
    throw new SysError(Errno.ENXIO, 'no controlling terminal');
  },
};

/** The controlling terminal of the process behind `cred`, or ENXIO. */
export function cttyOf(k: Kernel, cred: Cred): Tty {
  const tty = k.procs.get(cred.pid)?.ctty;
  if (!tty || tty.hungUp) throw new SysError(Errno.ENXIO, 'no controlling terminal');
  return tty;
}
