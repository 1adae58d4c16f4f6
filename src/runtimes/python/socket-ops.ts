// The bridge's socket operations, for `_agentos_socket` (socket-module.ts):
// Python's socket calls, one kernel socket syscall each (decision 0071).
// Sockets are Emscripten fds over kernel fds, like pipes, so os.read/write,
// close, select and subprocess see them. A socket with a timeout is
// non-blocking in the kernel; its calls wait here in poll for at most the
// timeout (CPython's own way), and one that runs out is ETIMEDOUT, which the
// module raises as socket.timeout. Sends never raise SIGPIPE: CPython ignores
// it, so a peer that went away is BrokenPipeError.

import { Errno, SysError } from '../../abi/errno.js';
import { F_DUPFD_CLOEXEC, F_GETFL, F_SETFL, O_NONBLOCK, O_RDWR } from '../../abi/fcntl.js';
import {
  MSG_NOSIGNAL, SO_DOMAIN, SO_ERROR, SO_PROTOCOL, SO_TYPE, SOCK_CLOEXEC, SOCK_NONBLOCK, SOL_SOCKET, type SockAddr,
} from '../../abi/socket.js';
import { S_IFMT, S_IFSOCK } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import type { EmFS, Kfs } from './kfs.js';
import { kernelFd, wrapFd } from './mount.js';

const POLLIN = 1;
const POLLOUT = 4;
const TYPE_MASK = 0xf;

/** A reply with bytes: the bridge sends `value` as JSON and `data` raw after it. */
export class Binary {
  constructor(readonly value: unknown, readonly data: Uint8Array) {}
}

type Op = (...args: never[]) => unknown;

export function socketOps(sys: Sys, FS: EmFS, kfs: Kfs): Record<string, Op> {
  function kfdOf(fd: number): number {
    const k = kernelFd(FS, fd);
    if (k === undefined) throw new SysError(Errno.ENOTSOCK, `fd ${fd}`);
    return k;
  }
  /** An Emscripten fd for a new kernel socket (closed again if there is no room). */
  function wrap(kfd: number, nonblock: boolean): number {
    try {
      return wrapFd(FS, kfs, kfd, O_RDWR | (nonblock ? O_NONBLOCK : 0));
    } catch (e) {
      sys.close(kfd);
      throw e;
    }
  }
  /**
   * `attempt` as a blocking call (timeoutMs < 0: the kernel waits), a
   * non-blocking one (0), or retried as `events` allow for timeoutMs.
   */
  function waiting<T>(kfd: number, events: number, timeoutMs: number, attempt: () => T): T {
    if (timeoutMs <= 0) return attempt();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return attempt();
      } catch (e) {
        if (!(e instanceof SysError) || (e.errno !== Errno.EAGAIN && e.errno !== Errno.EINPROGRESS)) throw e;
      }
      const left = deadline - Date.now();
      if (left <= 0 || sys.poll([[kfd, events]], left).length === 0) throw new SysError(Errno.ETIMEDOUT, 'timed out');
    }
  }

  return {
    sock_socket: (family: number, type: number) =>
      wrap(sys.socket(family, (type & (TYPE_MASK | SOCK_NONBLOCK)) | SOCK_CLOEXEC), (type & SOCK_NONBLOCK) !== 0),
    sock_socketpair: (family: number, type: number) => {
      const [a, b] = sys.socketpair(family, (type & (TYPE_MASK | SOCK_NONBLOCK)) | SOCK_CLOEXEC);
      const nonblock = (type & SOCK_NONBLOCK) !== 0;
      let fa: number;
      try {
        fa = wrap(a, nonblock);
      } catch (e) {
        sys.close(b);
        throw e;
      }
      return [fa, wrap(b, nonblock)];
    },
    /** O_NONBLOCK on the kernel fd: a socket with a timeout or none (settimeout/setblocking). */
    sock_nonblock: (fd: number, on: boolean) => {
      const kfd = kfdOf(fd);
      const flags = sys.fcntl(kfd, F_GETFL);
      sys.fcntl(kfd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
      const s = FS.streams[fd];
      s.flags = on ? s.flags | O_NONBLOCK : s.flags & ~O_NONBLOCK;
      return 0;
    },
    sock_bind: (fd: number, addr: SockAddr) => sys.bind(kfdOf(fd), addr),
    sock_listen: (fd: number, backlog: number) => sys.listen(kfdOf(fd), backlog),
    sock_accept: (fd: number, timeoutMs: number) => {
      const kfd = kfdOf(fd);
      const [conn, peer] = waiting(kfd, POLLIN, timeoutMs, () => sys.accept(kfd, SOCK_CLOEXEC));
      return [wrap(conn, false), peer];
    },
    sock_connect: (fd: number, addr: SockAddr, timeoutMs: number) => {
      const kfd = kfdOf(fd);
      try {
        sys.connect(kfd, addr);
      } catch (e) {
        if (!(timeoutMs > 0 && e instanceof SysError && e.errno === Errno.EINPROGRESS)) throw e;
        if (sys.poll([[kfd, POLLOUT]], timeoutMs).length === 0) throw new SysError(Errno.ETIMEDOUT, 'timed out');
        const err = sys.getsockopt(kfd, SOL_SOCKET, SO_ERROR);
        if (err) throw new SysError(err);
      }
      return 0;
    },
    sock_send: (fd: number, flags: number, addr: SockAddr | null, timeoutMs: number, data: Uint8Array) => {
      const kfd = kfdOf(fd);
      return waiting(kfd, POLLOUT, timeoutMs, () => sys.sendto(kfd, data, flags | MSG_NOSIGNAL, addr));
    },
    sock_recv: (fd: number, len: number, flags: number, timeoutMs: number) => {
      const kfd = kfdOf(fd);
      const [data, from] = waiting(kfd, POLLIN, timeoutMs, () => sys.recvfrom(kfd, len, flags));
      return new Binary(from, data);
    },
    sock_shutdown: (fd: number, how: number) => sys.shutdown(kfdOf(fd), how),
    sock_name: (fd: number) => sys.getsockname(kfdOf(fd)),
    sock_peer: (fd: number) => sys.getpeername(kfdOf(fd)),
    sock_setopt: (fd: number, level: number, name: number, value: number) => sys.setsockopt(kfdOf(fd), level, name, value),
    sock_getopt: (fd: number, level: number, name: number) => sys.getsockopt(kfdOf(fd), level, name),
    /** socket(fileno=fd): whether fd is a socket, and its family, type and protocol. */
    sock_probe: (fd: number) => {
      const kfd = kfdOf(fd);
      const st = sys.fstat(kfd);
      if ((st.mode & S_IFMT) !== S_IFSOCK) throw new SysError(Errno.ENOTSOCK);
      const nonblock = (sys.fcntl(kfd, F_GETFL) & O_NONBLOCK) !== 0;
      const opt = (name: number) => sys.getsockopt(kfd, SOL_SOCKET, name);
      return [opt(SO_DOMAIN), opt(SO_TYPE), opt(SO_PROTOCOL), nonblock];
    },
    sock_hostname: () => sys.uname().nodename,
    /** socket.dup(): a new Emscripten fd over a kernel dup (close-on-exec, as Python's are). */
    sock_dup: (fd: number) => {
      const kfd = kfdOf(fd);
      return wrap(sys.fcntl(kfd, F_DUPFD_CLOEXEC, 0), (FS.streams[fd].flags & O_NONBLOCK) !== 0);
    },
  };
}

