// A request body too big for one syscall's arguments goes to the kernel as a file descriptor instead:
// the bytes are written to an unlinked temporary file, which the kernel streams and curl can rewind.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_RDWR, SEEK_SET } from '../../../abi/fcntl.js';
import type { Cmd } from '../../../userland/lib/index.js';
import { TransferError, EXIT } from './http.js';

/** Bodies up to this size travel inline; the syscall channel carries 256 KiB in all, headers included. */
export const INLINE_BODY_MAX = 64 * 1024;

/** Returns a readable fd positioned at 0 holding `bytes`, with no name left in the filesystem. */
export function spoolBody(c: Cmd, bytes: Uint8Array): number {
  const dir = (c.os.env.TMPDIR || '/tmp').replace(/\/+$/, '') || '/';
  for (let tries = 0; ; tries++) {
    const path = `${dir}/.curl-body-${Math.random().toString(36).slice(2, 10)}`;
    let fd: number;
    try {
      fd = c.sys.open(path, O_RDWR | O_CREAT | O_EXCL, 0o600);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EEXIST && tries < 8) continue;
      if (!(e instanceof SysError)) throw e;
      throw new TransferError(EXIT.READ_ERROR, `cannot hold a ${bytes.byteLength}-byte request body in ${dir}: ${strerror(e.errno)}`);
    }
    try {
      c.sys.unlink(path);
      c.sys.writeAll(fd, bytes);
      c.sys.lseek(fd, 0, SEEK_SET);
      return fd;
    } catch (e) {
      c.sys.close(fd);
      if (!(e instanceof SysError)) throw e;
      throw new TransferError(EXIT.READ_ERROR, `cannot hold a ${bytes.byteLength}-byte request body in ${dir}: ${strerror(e.errno)}`);
    }
  }
}

/** Rewinds a body fd for a redirect that resends it; a pipe cannot be rewound. */
export function rewindBody(c: Cmd, fd: number): void {
  try {
    c.sys.lseek(fd, 0, SEEK_SET);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new TransferError(EXIT.READ_ERROR, 'cannot rewind the upload for the redirect');
  }
}
