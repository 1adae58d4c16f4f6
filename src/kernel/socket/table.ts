// The kernel's sockets: every socket by its inode (for fds and /proc/net),
// the port tables of TCP and UDP, and the names of unix sockets. One table per
// kernel, so one VM's sockets can never reach another's.

import { Errno, SysError } from '../../abi/errno.js';
import { AF_INET, AF_INET6, AF_UNIX, SOCK_DGRAM, SOCK_STREAM, type SockAddr } from '../../abi/socket.js';
import { S_IFSOCK } from '../../abi/stat.js';
import type { PipeFs } from '../fifo.js';
import type { Inode } from '../vfs/types.js';
import { WaitQueue } from '../waitqueue.js';
import { ANY4, ANY6, isV4, overlaps, receives, type Scope, scopeOf, sockAddr } from './address.js';
import { SocketMemory } from './buffer.js';
import { DgramSocket, UDP_MAX } from './dgram.js';
import type { Socket } from './socket.js';
import { StreamSocket } from './stream.js';

/** Linux's net.ipv4.ip_local_port_range. */
export const EPHEMERAL_LOW = 32768;
export const EPHEMERAL_HIGH = 60999;
/** Ports below this need root (net.ipv4.ip_unprivileged_port_start). */
const PRIVILEGED = 1024;
/** Bytes queued in all sockets together, at most (each direction of a connection also has its own bound). */
export const SOCKET_MEMORY = 64 * 1024 * 1024;

/** An internet address inside the kernel: the canonical IP text (address.ts) and a port. */
export interface Inet {
  ip: string;
  port: number;
}

export class SocketTable {
  readonly memory: SocketMemory;
  private readonly byInode = new WeakMap<Inode, Socket>();
  /** Every open socket, in creation order (/proc/net lists them). */
  readonly all = new Set<Socket>();
  private readonly ports = { tcp: new Map<number, Socket[]>(), udp: new Map<number, Socket[]>() };
  private readonly unixNames = new Map<string, Socket>();
  private nextPort = EPHEMERAL_LOW;
  /** Bumped and woken when an internet socket starts or stops listening (the host's port-open events). */
  listenSeq = 0;
  readonly listenChange = new WaitQueue();

  constructor(private readonly pipefs: PipeFs, memoryLimit = SOCKET_MEMORY) {
    this.memory = new SocketMemory(memoryLimit);
  }

  create(family: number, type: number, uid: number, gid: number): Socket {
    if (family !== AF_UNIX && family !== AF_INET && family !== AF_INET6) throw new SysError(Errno.EAFNOSUPPORT, `socket family ${family}`);
    if (type !== SOCK_STREAM && type !== SOCK_DGRAM) throw new SysError(Errno.EPROTONOSUPPORT, `socket type ${type}`);
    const inode = this.pipefs.newSocketInode(uid, gid);
    const s = type === SOCK_STREAM ? new StreamSocket(this, family, type, inode) : new DgramSocket(this, family, type, inode);
    this.byInode.set(inode, s);
    this.all.add(s);
    return s;
  }

  newStream(family: number, uid: number, gid: number): StreamSocket {
    return this.create(family, SOCK_STREAM, uid, gid) as StreamSocket;
  }

  /** The socket open on `inode`; ENOTSOCK for any other file. */
  of(inode: Inode): Socket {
    const s = this.byInode.get(inode);
    if (!s) throw new SysError(Errno.ENOTSOCK);
    return s;
  }

  listenersChanged(): void {
    this.listenSeq++;
    this.listenChange.wake();
  }

  /** Forget a closed socket: its port or name is free again. */
  unbind(s: Socket): void {
    this.all.delete(s);
    if (s.scope && s.local) {
      const table = this.ports[s.proto as 'tcp' | 'udp'];
      const list = table.get(s.local.port)?.filter((x) => x !== s) ?? [];
      if (list.length) table.set(s.local.port, list);
      else table.delete(s.local.port);
    }
    if (s.unixKey && this.unixNames.get(s.unixKey) === s) this.unixNames.delete(s.unixKey);
  }

  // ---------------------------------------------------------------- internet

  /** Bind `s` to ip:port (port 0: an ephemeral port). */
  bindInet(s: Socket, ip: string, port: number, uid: number): void {
    if (s.local) throw new SysError(Errno.EINVAL, 'bind: the socket is already bound');
    if (port > 0 && port < PRIVILEGED && uid !== 0) throw new SysError(Errno.EACCES, `bind: port ${port} needs root (ports below ${PRIVILEGED})`);
    const scope = scopeOf(s.family, ip, s.opts.v6only);
    const table = this.ports[s.proto as 'tcp' | 'udp'];
    if (port === 0) port = this.ephemeral(s, scope, Errno.EADDRINUSE);
    else if (this.conflicts(s, scope, port)) throw new SysError(Errno.EADDRINUSE, `bind: port ${port} is in use`);
    s.scope = scope;
    s.local = sockAddr(s.family, ip, port);
    table.set(port, [...(table.get(port) ?? []), s]);
  }

  /** Whether binding `s` to `scope`:`port` would clash with a socket there (SO_REUSEADDR on both lets non-listeners share). */
  private conflicts(s: Socket, scope: Scope, port: number): boolean {
    return (this.ports[s.proto as 'tcp' | 'udp'].get(port) ?? []).some(
      (o) => o !== s && overlaps(o.scope!, scope) && !(s.opts.reuseAddr && o.opts.reuseAddr && !(o instanceof StreamSocket && o.state === 'listening')),
    );
  }

  private ephemeral(s: Socket, scope: Scope, errno: number): number {
    const span = EPHEMERAL_HIGH - EPHEMERAL_LOW + 1;
    for (let i = 0; i < span; i++) {
      const port = this.nextPort;
      this.nextPort = port === EPHEMERAL_HIGH ? EPHEMERAL_LOW : port + 1;
      if (!this.ports[s.proto as 'tcp' | 'udp'].has(port) || !this.conflicts(s, scope, port)) return port;
    }
    throw new SysError(errno, 'no free ephemeral port');
  }

  /** listen() on a bound internet socket: no other listener may share its address (bind with SO_REUSEADDR allowed the sharing). */
  checkListen(s: StreamSocket): void {
    const peers = this.ports.tcp.get(s.local!.port) ?? [];
    if (peers.some((o) => o !== s && o instanceof StreamSocket && o.state === 'listening' && overlaps(o.scope!, s.scope!))) {
      throw new SysError(Errno.EADDRINUSE, `listen: port ${s.local!.port} is in use`);
    }
  }

  /** An unbound internet socket that sends or connects gets an ephemeral port on the address it reaches from. */
  autobind(s: Socket, ip: string): void {
    if (s.local) return;
    const scope = scopeOf(s.family, ip, s.opts.v6only);
    const port = this.ephemeral(s, scope, Errno.EADDRNOTAVAIL);
    s.scope = scope;
    s.local = sockAddr(s.family, ip, port);
    const table = this.ports[s.proto as 'tcp' | 'udp'];
    table.set(port, [...(table.get(port) ?? []), s]);
  }

  /** The listening TCP socket that ip:port reaches, or null (ECONNREFUSED). */
  listener(ip: string, port: number): StreamSocket | null {
    for (const o of this.ports.tcp.get(port) ?? []) {
      if (o instanceof StreamSocket && o.state === 'listening' && receives(o.scope!, ip)) return o;
    }
    return null;
  }

  /** The UDP socket that receives a datagram from `from` to ip:port, or null (dropped). */
  private udpReceiver(ip: string, port: number, from: Inet): DgramSocket | null {
    for (const o of this.ports.udp.get(port) ?? []) {
      if (o instanceof DgramSocket && receives(o.scope!, ip) && o.accepts(from)) return o;
    }
    return null;
  }

  // ---------------------------------------------------------------- unix

  /** Bind `s` to a unix name: an abstract name, or a socket file (its key is the file's inode). */
  bindUnix(s: Socket, key: string, name: SockAddr): void {
    if (s.local) throw new SysError(Errno.EINVAL, 'bind: the socket is already bound');
    if (this.unixNames.has(key)) throw new SysError(Errno.EADDRINUSE, `bind: ${name.address.replace(/^\0/, '@')} is in use`);
    this.unixNames.set(key, s);
    s.unixKey = key;
    s.local = name;
  }

  /** The socket bound to a unix name, or null. */
  unixSocket(key: string): Socket | null {
    return this.unixNames.get(key) ?? null;
  }

  /** A socket file's key, from the inode the VFS found. */
  static fileKey(inode: Inode): string {
    if ((inode.mode & 0o170000) !== S_IFSOCK) throw new SysError(Errno.ECONNREFUSED, 'not a socket');
    return `${inode.fs.dev}:${inode.ino}`;
  }

  // ---------------------------------------------------------------- datagrams

  /** Send one datagram from `s` to an internet address or a unix socket. */
  sendDgram(s: DgramSocket, data: Uint8Array, to: Inet | DgramSocket, nonblock: boolean): number | WaitQueue {
    if (s.wrShut) throw new SysError(Errno.EPIPE);
    if (to instanceof DgramSocket) {
      if (data.byteLength > s.sndbuf) throw new SysError(Errno.EMSGSIZE);
      if (to.closed) throw new SysError(Errno.ECONNREFUSED);
      if (to.peerSocket && to.peerSocket !== s) throw new SysError(Errno.EPERM, 'the receiver is connected to another socket');
      if (to.deliver(data, s.name())) return data.byteLength;
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return to.full ? to.queue : this.memory.freed;
    }
    if (data.byteLength > UDP_MAX) throw new SysError(Errno.EMSGSIZE);
    this.autobind(s, s.family === AF_INET ? ANY4 : ANY6);
    const scope = s.scope!;
    // A wildcard-bound sender sends from the loopback address of the destination's version.
    const own = scope.v4 === '*' || scope.v6 === '*' ? null : (scope.v4 ?? scope.v6);
    const from: Inet = { ip: own ?? (isV4(to.ip) ? '127.0.0.1' : '::1'), port: s.local!.port };
    // No receiver, or no room: dropped, as UDP does.
    this.udpReceiver(to.ip, to.port, from)?.deliver(data, from);
    return data.byteLength;
  }
}
