// A socket as an open file: read/write/poll/close on its fd reach the socket,
// so dup, fork inheritance, close-on-exec and poll work as for a pipe.

import { Errno, SysError } from '../../abi/errno.js';
import { O_NONBLOCK, O_RDWR } from '../../abi/fcntl.js';
import { SOCK_CLOEXEC, SOCK_NONBLOCK } from '../../abi/socket.js';
import { OpenFile } from '../file.js';
import { FIONREAD } from '../pipe.js';
import type { Process } from '../process.js';
import type { FileOps } from '../vfs/types.js';
import type { Socket } from './socket.js';

function socketOps(s: Socket): FileOps {
  return {
    read: (f, len) => s.read(len, (f.flags & O_NONBLOCK) !== 0, false),
    write: (f, data) => s.write(data, (f.flags & O_NONBLOCK) !== 0),
    seek() {
      throw new SysError(Errno.ESPIPE);
    },
    poll: () => s.poll(),
    waitQueue: () => s.queue,
    ioctl(_f, request) {
      if (request === FIONREAD) return s.available;
      throw new SysError(Errno.ENOTTY);
    },
    release: () => s.close(),
  };
}

/** Give `s` an fd in `p`; `flags` may hold SOCK_NONBLOCK and SOCK_CLOEXEC. */
export function installSocket(p: Process, s: Socket, flags: number): number {
  const f = new OpenFile(s.inode, O_RDWR | (flags & SOCK_NONBLOCK ? O_NONBLOCK : 0), socketOps(s), `socket:[${s.inode.ino}]`);
  return p.fds.alloc(f, (flags & SOCK_CLOEXEC) !== 0);
}
