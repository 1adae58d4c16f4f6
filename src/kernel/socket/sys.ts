// The socket syscalls: socket, socketpair, bind, listen, accept, connect,
// sendto, recvfrom, shutdown, getsockname, getpeername, setsockopt,
// getsockopt. Errors are Linux's; a call that would wait parks on the
// socket's queue and is run again when it changes (kernel/syscall.ts).

import { Errno, SysError } from '../../abi/errno.js';
import { AT_FDCWD, O_NONBLOCK } from '../../abi/fcntl.js';
import {
  AF_INET, AF_UNIX, IPPROTO_IPV6, IPPROTO_TCP, IPV6_V6ONLY, MSG_DONTWAIT, MSG_NOSIGNAL, MSG_PEEK, SO_ACCEPTCONN, SO_BROADCAST,
  SO_DOMAIN, SO_ERROR, SO_KEEPALIVE, SO_LINGER, SO_PROTOCOL, SO_RCVBUF, SO_REUSEADDR, SO_REUSEPORT, SO_SNDBUF, SO_TYPE, SOCK_CLOEXEC,
  SOCK_NONBLOCK, SOCK_STREAM, SOL_SOCKET, type SockAddr, TCP_NODELAY,
} from '../../abi/socket.js';
import { S_IFSOCK } from '../../abi/stat.js';
import { IO_CHUNK } from '../../abi/channel.js';
import type { Value } from '../../abi/codec.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { SIGPIPE } from '../../abi/signal.js';
import { sendSignal } from '../signal.js';
import type { Call, Handler } from '../syscall.js';
import { arg, baseDir, bytes, fields, int } from '../sys/args.js';
import type { OpenFile } from '../file.js';
import { WaitQueue } from '../waitqueue.js';
import { bindable, inetAddress, reachable, sockAddr } from './address.js';
import { DgramSocket } from './dgram.js';
import { installSocket } from './file.js';
import type { Socket } from './socket.js';
import { StreamSocket } from './stream.js';
import { SocketTable } from './table.js';

const TYPE_MASK = 0xf;
/** The longest sun_path (108 bytes, with its NUL). */
const UNIX_PATH_MAX = 107;

function fdSocket(k: Kernel, p: Process, fd: number): [Socket, OpenFile] {
  const f = p.fds.get(fd);
  return [k.sockets.of(f.inode), f];
}

/** An address argument: { family, address, port? }. */
function sockAddrOf(value: Value): SockAddr {
  const v = fields<SockAddr>(value, 'a socket address is { family, address, port }');
  const port = v.port ?? 0;
  if (typeof v.family !== 'number' || typeof v.address !== 'string' || typeof port !== 'number') {
    throw new SysError(Errno.EINVAL, 'a socket address is { family: number, address: string, port: number }');
  }
  return { family: v.family, address: v.address, port };
}

/** A unix name's key in the table: an abstract name, or the socket file `path` names. */
function unixTarget(k: Kernel, p: Process, a: SockAddr): string {
  const name = a.address;
  if (name.startsWith('\0')) return `@${name.slice(1)}`;
  if (name === '') throw new SysError(Errno.EINVAL, 'empty unix socket path');
  const inode = k.vfs.resolve(p.cred, baseDir(p, AT_FDCWD), name);
  // Linux: connecting needs write permission on the socket file.
  k.vfs.access(p.cred, baseDir(p, AT_FDCWD), name, 2);
  return SocketTable.fileKey(inode);
}

function checkUnixName(a: SockAddr): void {
  if (a.family !== AF_UNIX) throw new SysError(Errno.EINVAL, 'address family does not match the socket');
  if (new TextEncoder().encode(a.address).byteLength > UNIX_PATH_MAX) throw new SysError(Errno.EINVAL, 'unix socket path too long');
}

export const socket: Handler<'socket'> = (k, p, a) => {
  const type = int(a, 1);
  if (type & ~(TYPE_MASK | SOCK_NONBLOCK | SOCK_CLOEXEC)) throw new SysError(Errno.EINVAL, `socket: type ${type}`);
  const s = k.sockets.create(int(a, 0), type & TYPE_MASK, p.uid, p.gid);
  return installSocket(p, s, type);
};

export const socketpair: Handler<'socketpair'> = (k, p, a) => {
  const family = int(a, 0);
  const type = int(a, 1);
  if (family !== AF_UNIX) throw new SysError(Errno.ENOTSUP, 'socketpair: only AF_UNIX');
  const x = k.sockets.create(family, type & TYPE_MASK, p.uid, p.gid);
  const y = k.sockets.create(family, type & TYPE_MASK, p.uid, p.gid);
  if (x instanceof StreamSocket && y instanceof StreamSocket) StreamSocket.pair(x, y);
  else if (x instanceof DgramSocket && y instanceof DgramSocket) {
    x.peerSocket = y;
    y.peerSocket = x;
    x.peer = y.name();
    y.peer = x.name();
  }
  let fx: number;
  try {
    fx = installSocket(p, x, type);
  } catch (e) {
    y.close();
    throw e;
  }
  try {
    return [fx, installSocket(p, y, type)];
  } catch (e) {
    p.fds.close(fx);
    throw e;
  }
};

export const bind: Handler<'bind'> = (k, p, a) => {
  const [s] = fdSocket(k, p, int(a, 0));
  const addr = sockAddrOf(arg(a, 1));
  if (s.isInet) {
    const { ip, port } = inetAddress(s.family, addr);
    k.sockets.bindInet(s, bindable(ip), port, p.uid);
    return 0;
  }
  checkUnixName(addr);
  if (s.local) throw new SysError(Errno.EINVAL, 'bind: the socket is already bound');
  if (addr.address.startsWith('\0')) {
    k.sockets.bindUnix(s, `@${addr.address.slice(1)}`, { family: AF_UNIX, address: addr.address, port: 0 });
    return 0;
  }
  if (addr.address === '') throw new SysError(Errno.EINVAL, 'bind: empty unix socket path');
  // The socket file: made as mknod makes one, so the fs policy (hidden, read-only) rules it.
  try {
    k.vfs.mknod(p.cred, baseDir(p, AT_FDCWD), addr.address, S_IFSOCK | 0o777);
  } catch (e) {
    if (e instanceof SysError && e.errno === Errno.EEXIST) throw new SysError(Errno.EADDRINUSE, `bind: ${addr.address} exists`);
    throw e;
  }
  const inode = k.vfs.resolve(p.cred, baseDir(p, AT_FDCWD), addr.address, false);
  k.sockets.bindUnix(s, SocketTable.fileKey(inode), { family: AF_UNIX, address: addr.address, port: 0 });
  return 0;
};

export const listen: Handler<'listen'> = (k, p, a) => {
  const [s] = fdSocket(k, p, int(a, 0));
  if (!(s instanceof StreamSocket)) throw new SysError(Errno.ENOTSUP, 'listen: not a stream socket');
  if (!s.local) {
    if (!s.isInet) throw new SysError(Errno.EINVAL, 'listen: the socket is not bound');
    k.sockets.bindInet(s, s.family === AF_INET ? '0.0.0.0' : '::', 0, p.uid);
  }
  if (s.isInet && s.state !== 'listening') k.sockets.checkListen(s);
  s.listen(int(a, 1, 128));
  return 0;
};

export const accept: Handler<'accept'> = (k, p, a) => {
  const [s, f] = fdSocket(k, p, int(a, 0));
  const flags = int(a, 1, 0);
  if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) throw new SysError(Errno.EINVAL, 'accept4: flags');
  if (!(s instanceof StreamSocket)) throw new SysError(Errno.ENOTSUP, 'accept: not a stream socket');
  const r = s.accept((f.flags & O_NONBLOCK) !== 0);
  if (r instanceof WaitQueue) return r;
  const fd = installSocket(p, r, flags);
  return [fd, r.peerName() ?? { family: s.family, address: '', port: 0 }];
};

export const connect: Handler<'connect'> = (k, p, a) => {
  const [s, f] = fdSocket(k, p, int(a, 0));
  const addr = sockAddrOf(arg(a, 1));
  const nonblock = (f.flags & O_NONBLOCK) !== 0;
  if (s instanceof DgramSocket) return connectDgram(k, p, s, addr);
  const st = s as StreamSocket;
  if (st.state === 'listening') throw new SysError(Errno.EINVAL, 'connect: the socket is listening');
  if (st.state === 'connected') throw new SysError(Errno.EISCONN);
  // A refused non-blocking connect: the next connect() reports it.
  const pending = st.takeError();
  if (pending) throw new SysError(pending);
  let listener: StreamSocket | null;
  let serverName: SockAddr;
  let ip = '';
  if (st.isInet) {
    const target = inetAddress(st.family, addr);
    ip = reachable(target.ip);
    listener = k.sockets.listener(ip, target.port);
    serverName = sockAddr(st.family, ip, target.port);
    if (!listener && nonblock) {
      // Linux answers a non-blocking TCP connect with EINPROGRESS; the refusal comes through poll and SO_ERROR.
      st.error = Errno.ECONNREFUSED;
      st.queue.wake();
      throw new SysError(Errno.EINPROGRESS);
    }
  } else {
    checkUnixName(addr);
    const target = k.sockets.unixSocket(unixTarget(k, p, addr));
    listener = target instanceof StreamSocket && target.state === 'listening' ? target : null;
    if (target && !(target instanceof StreamSocket)) throw new SysError(Errno.EPROTOTYPE);
    serverName = addr;
  }
  if (!listener) throw new SysError(Errno.ECONNREFUSED, `connect: nothing listens on ${show(addr)}`);
  if (listener.acceptFull) {
    if (nonblock) throw new SysError(Errno.EAGAIN);
    return listener.queue;
  }
  if (st.isInet) k.sockets.autobind(st, ip);
  listener.connectFrom(st, listener.isInet ? serverName : listener.name());
  if (nonblock && st.isInet) throw new SysError(Errno.EINPROGRESS);
  return 0;
};

function show(a: SockAddr): string {
  return a.family === AF_UNIX ? a.address.replace(/^\0/, '@') : `${a.address}:${a.port}`;
}

function connectDgram(k: Kernel, p: Process, s: DgramSocket, addr: SockAddr): 0 {
  if (s.isInet) {
    const target = inetAddress(s.family, addr);
    const ip = reachable(target.ip);
    k.sockets.autobind(s, ip);
    s.peerInet = { ip, port: target.port };
    s.peer = sockAddr(s.family, ip, target.port);
    return 0;
  }
  checkUnixName(addr);
  const target = k.sockets.unixSocket(unixTarget(k, p, addr));
  if (!target) throw new SysError(Errno.ECONNREFUSED, `connect: nothing is bound to ${show(addr)}`);
  if (!(target instanceof DgramSocket)) throw new SysError(Errno.EPROTOTYPE);
  s.peerSocket = target;
  s.peer = addr;
  return 0;
}

/** sendto(fd, data, flags, addr?): send on a stream (addr ignored) or one datagram. */
export const sendto: Handler<'sendto'> = (k, p, a, call) => {
  const [s, f] = fdSocket(k, p, int(a, 0));
  const data = bytes(a, 1);
  const flags = int(a, 2, 0);
  const nonblock = (f.flags & O_NONBLOCK) !== 0 || (flags & MSG_DONTWAIT) !== 0;
  const raw = arg(a, 3);
  const to = raw === undefined || raw === null ? null : sockAddrOf(raw);
  try {
    if (s instanceof DgramSocket && to) {
      if (s.isInet) {
        const target = inetAddress(s.family, to);
        return k.sockets.sendDgram(s, data, { ip: reachable(target.ip), port: target.port }, nonblock);
      }
      checkUnixName(to);
      const target = k.sockets.unixSocket(unixTarget(k, p, to));
      if (!target) throw new SysError(Errno.ECONNREFUSED, `sendto: nothing is bound to ${show(to)}`);
      if (!(target instanceof DgramSocket)) throw new SysError(Errno.EPROTOTYPE);
      return k.sockets.sendDgram(s, data, target, nonblock);
    }
    if (s instanceof DgramSocket) return s.write(data, nonblock);
    return sendStream(s, data, nonblock, call);
  } catch (e) {
    if (e instanceof SysError && e.errno === Errno.EPIPE && !(flags & MSG_NOSIGNAL)) sendSignal(k, p, SIGPIPE);
    throw e;
  }
};

/** All of `data` on a stream, in as many pieces as the buffer takes (write(2)'s loop, kernel/sys/file.ts). */
function sendStream(s: Socket, data: Uint8Array, nonblock: boolean, call: Call): number | WaitQueue {
  let off = (call.state.off as number | undefined) ?? 0;
  while (off < data.byteLength) {
    let r: number | WaitQueue;
    try {
      r = s.write(off ? data.subarray(off) : data, nonblock);
    } catch (e) {
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
}

/** recvfrom(fd, len, flags) → [data, sender]: the sender of a datagram, or the peer (null when unconnected). */
export const recvfrom: Handler<'recvfrom'> = (k, p, a) => {
  const [s, f] = fdSocket(k, p, int(a, 0));
  const len = Math.min(int(a, 1), IO_CHUNK);
  if (len < 0) throw new SysError(Errno.EINVAL);
  const flags = int(a, 2, 0);
  const nonblock = (f.flags & O_NONBLOCK) !== 0 || (flags & MSG_DONTWAIT) !== 0;
  const peek = (flags & MSG_PEEK) !== 0;
  if (s instanceof DgramSocket) {
    const r = s.receive(len, nonblock, peek);
    return r instanceof WaitQueue ? r : [r[0], r[1]];
  }
  const r = s.read(len, nonblock, peek);
  return r instanceof WaitQueue ? r : [r, s.peerName()];
};

export const shutdown: Handler<'shutdown'> = (k, p, a) => {
  fdSocket(k, p, int(a, 0))[0].shutdown(int(a, 1));
  return 0;
};

export const getsockname: Handler<'getsockname'> = (k, p, a) => fdSocket(k, p, int(a, 0))[0].name();

export const getpeername: Handler<'getpeername'> = (k, p, a) => {
  const peer = fdSocket(k, p, int(a, 0))[0].peerName();
  if (!peer) throw new SysError(Errno.ENOTCONN);
  return peer;
};

/** Linux doubles SO_SNDBUF/SO_RCVBUF (for its bookkeeping) within these bounds. */
const bufSize = (v: number) => Math.min(Math.max(v * 2, 4608), 4 * 1024 * 1024);

export const setsockopt: Handler<'setsockopt'> = (k, p, a) => {
  const [s] = fdSocket(k, p, int(a, 0));
  const level = int(a, 1), name = int(a, 2), v = int(a, 3);
  const on = v !== 0;
  if (level === SOL_SOCKET) {
    switch (name) {
      case SO_REUSEADDR:
      case SO_REUSEPORT:
        s.opts.reuseAddr = on;
        return 0;
      case SO_KEEPALIVE:
        s.opts.keepalive = on;
        return 0;
      case SO_BROADCAST:
        s.opts.broadcast = on;
        return 0;
      case SO_LINGER:
        return 0;
      case SO_SNDBUF:
        if (s instanceof StreamSocket) s.setSndbuf(bufSize(v));
        else s.sndbuf = bufSize(v);
        return 0;
      case SO_RCVBUF:
        s.rcvbuf = bufSize(v);
        return 0;
    }
  } else if (level === IPPROTO_TCP && name === TCP_NODELAY && s.isInet && s.type === SOCK_STREAM) {
    s.opts.nodelay = on;
    return 0;
  } else if (level === IPPROTO_IPV6 && name === IPV6_V6ONLY && s.isInet && s.family !== AF_INET) {
    if (s.local) throw new SysError(Errno.EINVAL, 'IPV6_V6ONLY after bind');
    s.opts.v6only = on;
    return 0;
  }
  throw new SysError(Errno.ENOPROTOOPT, `setsockopt: level ${level} option ${name}`);
};

export const getsockopt: Handler<'getsockopt'> = (k, p, a) => {
  const [s] = fdSocket(k, p, int(a, 0));
  const level = int(a, 1), name = int(a, 2);
  const b = (x: boolean) => (x ? 1 : 0);
  if (level === SOL_SOCKET) {
    switch (name) {
      case SO_TYPE:
        return s.type;
      case SO_ERROR:
        return s.takeError();
      case SO_DOMAIN:
        return s.family;
      case SO_PROTOCOL:
        return s.family === AF_UNIX ? 0 : s.type === SOCK_STREAM ? IPPROTO_TCP : 17;
      case SO_ACCEPTCONN:
        return b(s instanceof StreamSocket && s.state === 'listening');
      case SO_REUSEADDR:
      case SO_REUSEPORT:
        return b(s.opts.reuseAddr);
      case SO_KEEPALIVE:
        return b(s.opts.keepalive);
      case SO_BROADCAST:
        return b(s.opts.broadcast);
      case SO_SNDBUF:
        return s.sndbuf;
      case SO_RCVBUF:
        return s.rcvbuf;
      case SO_LINGER:
        return 0;
    }
  } else if (level === IPPROTO_TCP && name === TCP_NODELAY && s.isInet && s.type === SOCK_STREAM) {
    return b(s.opts.nodelay);
  } else if (level === IPPROTO_IPV6 && name === IPV6_V6ONLY && s.isInet && s.family !== AF_INET) {
    return b(s.opts.v6only);
  }
  throw new SysError(Errno.ENOPROTOOPT, `getsockopt: level ${level} option ${name}`);
};
