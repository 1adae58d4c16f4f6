// What every socket has: its family and type, its name once bound, options,
// a pending error (SO_ERROR), and the queue its waiters sleep on. The kinds
// (stream.ts, dgram.ts) add how data moves.

import { Errno, SysError } from '../../abi/errno.js';
import { AF_INET, AF_INET6, AF_UNIX, SOCK_STREAM, type SockAddr } from '../../abi/socket.js';
import type { Inode } from '../vfs/types.js';
import { WaitQueue } from '../waitqueue.js';
import { type Scope } from './address.js';
import { STREAM_CAPACITY } from './buffer.js';
import type { SocketTable } from './table.js';

export const POLLIN = 1, POLLOUT = 4, POLLERR = 8, POLLHUP = 16, POLLRDHUP = 0x2000;

export abstract class Socket {
  /** Woken on any change a waiter of this socket may be waiting for. */
  readonly queue = new WaitQueue();
  /** The name it is bound to (getsockname), normalised; null while unbound. */
  local: SockAddr | null = null;
  /** Internet sockets: the addresses it receives on, once bound. */
  scope: Scope | null = null;
  /** Unix sockets bound to a name: the key of the name in the table. */
  unixKey: string | null = null;
  /** SO_ERROR: an error to report once (a refused non-blocking connect). */
  error = 0;
  closed = false;
  readonly opts = { reuseAddr: false, keepalive: false, nodelay: false, broadcast: false, v6only: false };
  sndbuf = STREAM_CAPACITY;
  rcvbuf = STREAM_CAPACITY;
  rdShut = false;
  wrShut = false;

  constructor(
    readonly table: SocketTable,
    readonly family: number,
    readonly type: number,
    readonly inode: Inode,
  ) {}

  get proto(): 'tcp' | 'udp' | 'unix' {
    return this.family === AF_UNIX ? 'unix' : this.type === SOCK_STREAM ? 'tcp' : 'udp';
  }

  get isInet(): boolean {
    return this.family === AF_INET || this.family === AF_INET6;
  }

  /** getsockname: an unbound socket has the family's empty name. */
  name(): SockAddr {
    if (this.local) return this.local;
    if (this.family === AF_UNIX) return { family: AF_UNIX, address: '', port: 0 };
    return { family: this.family, address: this.family === AF_INET ? '0.0.0.0' : '::', port: 0 };
  }

  abstract peerName(): SockAddr | null;
  abstract read(len: number, nonblock: boolean, peek: boolean): Uint8Array | WaitQueue;
  abstract write(data: Uint8Array, nonblock: boolean): number | WaitQueue;
  abstract poll(): number;
  abstract shutdown(how: number): void;
  /** Bytes a read would find (FIONREAD). */
  abstract get available(): number;
  /** For /proc/net: bytes queued to send and to read. */
  abstract queued(): [tx: number, rx: number];

  /** The last descriptor closed: leave every table, wake the peer. */
  close(): void {
    this.closed = true;
    this.table.unbind(this);
    this.queue.wake();
  }

  /** SO_ERROR: read once. */
  takeError(): number {
    const e = this.error;
    this.error = 0;
    return e;
  }

  protected throwPending(): void {
    const e = this.takeError();
    if (e) throw new SysError(e);
  }
}

export function notConnected(s: Socket): never {
  throw new SysError(s.isInet && s.type === SOCK_STREAM ? Errno.EPIPE : Errno.ENOTCONN);
}
