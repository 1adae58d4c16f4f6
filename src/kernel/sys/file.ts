// Syscalls on file descriptors: open/close/read/write/seek, dup, fcntl, pipe, poll.

import { IO_CHUNK } from '../../abi/channel.js';
import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import {
  AT_FDCWD, F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_GETFL, F_SETFD, F_SETFL, FD_CLOEXEC, O_CLOEXEC, O_NONBLOCK,
  O_APPEND, O_RDONLY, O_SETFL_MASK, O_WRONLY,
} from '../../abi/fcntl.js';
import { SIGPIPE } from '../../abi/signal.js';
import { isFifo, isReg, major } from '../../abi/stat.js';
import { OpenFile } from '../file.js';
import { openPipeEnd, Pipe, POLLIN, POLLOUT } from '../pipe.js';
import { sendSignal } from '../signal.js';
import type { Handler } from '../syscall.js';
import { WaitQueue } from '../waitqueue.js';
import { longTimeout } from '../../abi/long-timeout.js';
import { arg, baseDir, bytes, int, msOrNow, str } from './args.js';

const POLLNVAL = 32;
/** Character-device majors that are terminals (tty, console/ptmx, pts). */
const TTY_MAJORS = new Set([4, 5, 136]);

export const open: Handler<'open'> = (k, p, a, call) => {
  const path = str(a, 0);
  const flags = int(a, 1, O_RDONLY);
  const mode = int(a, 2, 0o666);
  let f = call.state.file as OpenFile | undefined;
  if (!f) {
    const r = k.vfs.open(p.cred, baseDir(p, int(a, 3, AT_FDCWD)), path, flags, mode);
    if (r instanceof WaitQueue) return r;
    f = r;
  }
  // A FIFO opened for only one direction waits for the other end (fifo(7)).
  if (isFifo(f.inode.mode) && !(flags & O_NONBLOCK) && f.inode.fs !== k.pipefs) {
    const pipe = k.fifos.pipeOf(f.inode);
    const acc = flags & 3;
    if (call.state.file === undefined) {
      const file = f;
      call.state.file = file;
      call.state.seen = acc === O_RDONLY ? pipe.everWriters : pipe.everReaders;
      call.state.cleanup = () => file.unref();
    }
    const ready =
      acc === O_RDONLY
        ? pipe.writers > 0 || pipe.everWriters !== call.state.seen
        : acc === O_WRONLY
          ? pipe.readers > 0 || pipe.everReaders !== call.state.seen
          : true;
    if (!ready) return pipe.queue;
    call.state.cleanup = undefined;
  }
  const fd = p.fds.alloc(f, (flags & O_CLOEXEC) !== 0);
  if (f.writable && isReg(f.inode.mode)) k.policy.wrote(p, f.path);
  return fd;
};

export const close: Handler<'close'> = (_k, p, a) => {
  p.fds.close(int(a, 0));
  return 0;
};

function readable(f: OpenFile): OpenFile {
  if (!f.readable) throw new SysError(Errno.EBADF);
  return f;
}

function writable(f: OpenFile): OpenFile {
  if (!f.writable) throw new SysError(Errno.EBADF);
  return f;
}

/**
 * read(fd, len, more): `more` marks the next piece of one read(2) larger than
 * the channel (user/sys.ts): it takes what is there and never waits, so a
 * pipe or terminal read still returns what it had, as on Linux.
 */
export const read: Handler<'read'> = (_k, p, a) => {
  const f = readable(p.fds.get(int(a, 0)));
  const len = Math.min(int(a, 1), IO_CHUNK);
  if (len < 0) throw new SysError(Errno.EINVAL);
  const r = f.ops.read(f, len);
  return r instanceof WaitQueue && int(a, 2, 0) ? new Uint8Array(0) : r;
};

export const pread: Handler<'pread'> = (_k, p, a) => {
  const f = readable(p.fds.get(int(a, 0)));
  const len = Math.min(int(a, 1), IO_CHUNK);
  const pos = int(a, 2);
  if (len < 0 || pos < 0) throw new SysError(Errno.EINVAL);
  if (!f.ops.seek) throw new SysError(Errno.ESPIPE);
  return f.ops.read(f, len, pos);
};

/** write(2): pipes may take the data in several pieces; the caller sees one call. */
export const write: Handler<'write'> = (k, p, a, call) => {
  const f = writable(p.fds.get(int(a, 0)));
  let data = bytes(a, 1);
  // RLIMIT_FSIZE-like: only what fits below the policy's file size limit is written.
  const fit = k.policy.limits.fileSize(p, f.inode, f.path, f.flags & O_APPEND ? f.inode.size : f.pos, data.byteLength);
  if (fit < data.byteLength) data = data.subarray(0, fit);
  let off = (call.state.off as number | undefined) ?? 0;
  while (off < data.byteLength) {
    let r: number | WaitQueue;
    try {
      r = f.ops.write(f, off ? data.subarray(off) : data);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EPIPE) sendSignal(k, p, SIGPIPE);
      if (e instanceof SysError && e.errno === Errno.ENOSPC) k.policy.limits.noSpace(p, f.path);
      if (off > 0 && e instanceof SysError && (e.errno === Errno.EAGAIN || e.errno === Errno.EPIPE)) return off;
      throw e;
    }
    if (r instanceof WaitQueue) {
      call.state.off = off;
      if (off > 0) call.state.partial = off;
      return r;
    }
    off += r;
    if (r === 0) break;
  }
  return off;
};

export const pwrite: Handler<'pwrite'> = (k, p, a) => {
  const f = writable(p.fds.get(int(a, 0)));
  const pos = int(a, 2);
  if (pos < 0) throw new SysError(Errno.EINVAL);
  if (!f.ops.seek) throw new SysError(Errno.ESPIPE);
  const data = bytes(a, 1);
  const fit = k.policy.limits.fileSize(p, f.inode, f.path, f.flags & O_APPEND ? f.inode.size : pos, data.byteLength);
  const r = f.ops.write(f, data.subarray(0, fit), pos);
  return r;
};

export const lseek: Handler<'lseek'> = (_k, p, a) => {
  const f = p.fds.get(int(a, 0));
  if (!f.ops.seek) throw new SysError(Errno.ESPIPE);
  return f.ops.seek(f, int(a, 1), int(a, 2));
};

export const fstat: Handler<'fstat'> = (k, p, a) => k.vfs.fstat(p.fds.get(int(a, 0)).inode);

/** getdents: the next batch of [name, ino, d_type] entries; [] at the end. */
export const getdents: Handler<'getdents'> = (k, p, a) => {
  const f = p.fds.get(int(a, 0));
  const max = int(a, 1, 1024);
  const entries = k.vfs.readdirOf(f, p.cred);
  const batch = entries.slice(f.pos, f.pos + max);
  f.pos += batch.length;
  return batch.map((e) => [e.name, e.ino, e.type]);
};

export const fchmod: Handler<'fchmod'> = (k, p, a) => {
  k.vfs.fchmod(p.cred, p.fds.get(int(a, 0)).inode, int(a, 1));
  return 0;
};

export const fchown: Handler<'fchown'> = (k, p, a) => {
  k.vfs.fchown(p.cred, p.fds.get(int(a, 0)).inode, int(a, 1), int(a, 2));
  return 0;
};

/** futimes(fd, atimeMs|null, mtimeMs|null): utimes on an open file; null means now. */
export const futimes: Handler<'futimes'> = (k, p, a) => {
  k.vfs.futimes(p.cred, p.fds.get(int(a, 0)).inode, msOrNow(a, 1), msOrNow(a, 2));
  return 0;
};

export const ftruncate: Handler<'ftruncate'> = (k, p, a) => {
  const f = p.fds.get(int(a, 0));
  if (!f.writable) throw new SysError(Errno.EINVAL);
  k.policy.limits.fileSize(p, f.inode, f.path, int(a, 1), 0);
  k.vfs.ftruncate(p.cred, f, int(a, 1));
  return 0;
};

export const dup: Handler<'dup'> = (_k, p, a) => p.fds.alloc(p.fds.get(int(a, 0)).ref());

/** dup2(old, new[, O_CLOEXEC]) — dup3 when flags are given. */
export const dup2: Handler<'dup2'> = (_k, p, a) => {
  const oldfd = int(a, 0);
  const newfd = int(a, 1);
  const flags = int(a, 2, 0);
  const f = p.fds.get(oldfd);
  if (oldfd === newfd) {
    if (flags) throw new SysError(Errno.EINVAL);
    return newfd;
  }
  p.fds.set(newfd, f.ref(), (flags & O_CLOEXEC) !== 0);
  return newfd;
};

export const fcntl: Handler<'fcntl'> = (_k, p, a) => {
  const fd = int(a, 0);
  const cmd = int(a, 1);
  const f = p.fds.get(fd);
  switch (cmd) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
      return p.fds.alloc(f.ref(), cmd === F_DUPFD_CLOEXEC, int(a, 2, 0));
    case F_GETFD:
      return p.fds.getCloexec(fd) ? FD_CLOEXEC : 0;
    case F_SETFD:
      p.fds.setCloexec(fd, (int(a, 2) & FD_CLOEXEC) !== 0);
      return 0;
    case F_GETFL:
      return f.flags;
    case F_SETFL:
      f.flags = (f.flags & ~O_SETFL_MASK) | (int(a, 2) & O_SETFL_MASK);
      return 0;
    default:
      throw new SysError(Errno.EINVAL, `fcntl cmd ${cmd}`);
  }
};

/** flock(fd, operation): LOCK_SH / LOCK_EX (| LOCK_NB) / LOCK_UN on the fd's open file description. */
export const flock: Handler<'flock'> = (k, p, a) => k.flocks.lock(p.fds.get(int(a, 0)), int(a, 1));

/** pipe2(flags) → [readFd, writeFd] */
export const pipe: Handler<'pipe'> = (k, p, a) => {
  const flags = int(a, 0, 0);
  const inode = k.pipefs.newPipeInode(p.uid, p.gid);
  const pipeObj: Pipe = k.fifos.pipeOf(inode);
  const name = `pipe:[${inode.ino}]`;
  const nb = flags & O_NONBLOCK;
  const r = new OpenFile(inode, O_RDONLY | nb, openPipeEnd(pipeObj, 'r'), name);
  const w = new OpenFile(inode, O_WRONLY | nb, openPipeEnd(pipeObj, 'w'), name);
  const cloexec = (flags & O_CLOEXEC) !== 0;
  const rfd = p.fds.alloc(r, cloexec);
  let wfd: number;
  try {
    wfd = p.fds.alloc(w, cloexec);
  } catch (e) {
    p.fds.close(rfd);
    throw e;
  }
  return [rfd, wfd];
};

export const isatty: Handler<'isatty'> = (_k, p, a) => {
  const f = p.fds.get(int(a, 0));
  return (f.inode.mode & 0o170000) === 0o020000 && TTY_MAJORS.has(major(f.inode.rdev));
};

export const ioctl: Handler<'ioctl'> = (_k, p, a) => {
  const f = p.fds.get(int(a, 0));
  if (!f.ops.ioctl) throw new SysError(Errno.ENOTTY);
  return f.ops.ioctl(f, int(a, 1), arg(a, 2)) as Value;
};

/** poll([[fd, events], ...], timeoutMs) → [[fd, revents], ...] for ready fds. */
export const poll: Handler<'poll'> = (_k, p, a, call) => {
  const list = arg(a, 0);
  if (!Array.isArray(list)) throw new SysError(Errno.EFAULT);
  const timeout = int(a, 1, -1);
  const ready: [number, number][] = [];
  const queues: WaitQueue[] = [];
  for (const item of list) {
    if (!Array.isArray(item) || typeof item[0] !== 'number' || typeof item[1] !== 'number') throw new SysError(Errno.EFAULT, 'poll: items must be [fd, events]');
    const [fd, events] = item as [number, number];
    if (!p.fds.has(fd)) {
      ready.push([fd, POLLNVAL]);
      continue;
    }
    const f = p.fds.get(fd);
    const rev = (f.ops.poll ? f.ops.poll(f) : POLLIN | POLLOUT) & (events | 0x18);
    if (rev) ready.push([fd, rev]);
    const q = f.ops.waitQueue?.(f);
    if (q) queues.push(q);
  }
  if (ready.length || timeout === 0 || call.state.timedOut) return ready;
  // Sleep on every fd's queue and the timeout at once, through one private queue.
  // One waker per call: re-adding it on a retry is a no-op on queues that did not
  // fire, so wakers do not pile up on quiet fds while a busy one keeps waking us.
  let st = call.state.poll as PollSleep | undefined;
  if (!st) {
    const any = new WaitQueue();
    const offs = new Map<WaitQueue, () => void>();
    const timer = timeout > 0 ? longTimeout(() => ((call.state.timedOut = true), any.wake()), timeout) : null;
    st = { any, wake: () => any.wake(), offs };
    call.state.poll = st;
    call.state.cleanup = () => {
      offs.forEach((off) => off());
      timer?.clear();
    };
  }
  for (const q of queues) st.offs.set(q, q.add(st.wake));
  return st.any;
};

interface PollSleep {
  any: WaitQueue;
  wake: () => void;
  offs: Map<WaitQueue, () => void>;
}
