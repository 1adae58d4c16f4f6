// Stream sockets (TCP on the loopback, AF_UNIX SOCK_STREAM): a listener's
// accept queue, and a connection as two StreamBuffers, one per direction.
//
// Connecting needs no handshake in one kernel: connect() finds the listener,
// makes the server's end and queues it for accept(), and data can flow at once
// (as on Linux, a client may write before the server accepts). Closing one end
// is EOF for the other's reads and EPIPE (with SIGPIPE) for its writes.

import { Errno, SysError } from '../../abi/errno.js';
import { SHUT_RD, SHUT_RDWR, SHUT_WR, SOMAXCONN, type SockAddr } from '../../abi/socket.js';
import type { WaitQueue } from '../waitqueue.js';
import { sockAddr } from './address.js';
import { StreamBuffer } from './buffer.js';
import { notConnected, POLLERR, POLLHUP, POLLIN, POLLOUT, POLLRDHUP, Socket } from './socket.js';

export class StreamSocket extends Socket {
  state: 'open' | 'listening' | 'connected' = 'open';
  rx: StreamBuffer | null = null;
  tx: StreamBuffer | null = null;
  private peer: SockAddr | null = null;
  /** Listening: connections waiting for accept(), and how many may wait. */
  readonly pending: StreamSocket[] = [];
  backlog = 0;

  peerName(): SockAddr | null {
    return this.state === 'connected' ? this.peer : null;
  }

  listen(backlog: number): void {
    if (this.state === 'connected') throw new SysError(Errno.EINVAL, 'listen: the socket is connected');
    // Linux queues one more than asked (sk_ack_backlog > sk_max_ack_backlog is full).
    this.backlog = Math.min(Math.max(backlog, 0), SOMAXCONN) + 1;
    const was = this.state;
    this.state = 'listening';
    if (was !== 'listening' && this.isInet) this.table.listenersChanged();
    this.queue.wake();
  }

  get acceptFull(): boolean {
    return this.pending.length >= this.backlog;
  }

  /** Join `client` to a new server end queued on this listener; `serverName` is the address the client reached. */
  connectFrom(client: StreamSocket, serverName: SockAddr): void {
    const server = this.table.newStream(this.family, this.inode.uid, this.inode.gid);
    server.local = serverName;
    const wake = () => {
      client.queue.wake();
      server.queue.wake();
    };
    const up = new StreamBuffer(this.table.memory, wake, client.sndbuf);
    const down = new StreamBuffer(this.table.memory, wake, this.sndbuf);
    client.tx = server.rx = up;
    client.rx = server.tx = down;
    client.state = server.state = 'connected';
    client.peer = serverName;
    const cname = client.name();
    // The client as the server's family shows it (an IPv4 client of an IPv6 server is ::ffff:a.b.c.d).
    server.peer = this.isInet ? sockAddr(this.family, cname.address.replace(/^::ffff:/, ''), cname.port) : cname;
    this.pending.push(server);
    this.queue.wake();
    client.queue.wake();
  }

  /** Join two new sockets (socketpair). */
  static pair(a: StreamSocket, b: StreamSocket): void {
    const wake = () => {
      a.queue.wake();
      b.queue.wake();
    };
    a.tx = b.rx = new StreamBuffer(a.table.memory, wake, a.sndbuf);
    a.rx = b.tx = new StreamBuffer(a.table.memory, wake, b.sndbuf);
    a.state = b.state = 'connected';
    a.peer = b.name();
    b.peer = a.name();
  }

  accept(nonblock: boolean): StreamSocket | WaitQueue {
    if (this.state !== 'listening') throw new SysError(Errno.EINVAL, 'accept: the socket is not listening');
    const s = this.pending.shift();
    if (s) {
      this.queue.wake(); // room for a connect waiting on a full backlog
      return s;
    }
    if (nonblock) throw new SysError(Errno.EAGAIN);
    return this.queue;
  }

  read(len: number, nonblock: boolean, peek: boolean): Uint8Array | WaitQueue {
    if (this.state !== 'connected' || !this.rx) {
      this.throwPending();
      throw new SysError(Errno.ENOTCONN);
    }
    if (this.rdShut && this.rx.len === 0) return new Uint8Array(0);
    return this.rx.read(len, nonblock, this.queue, peek);
  }

  write(data: Uint8Array, nonblock: boolean): number | WaitQueue {
    if (this.state !== 'connected' || !this.tx) {
      this.throwPending();
      notConnected(this);
    }
    if (this.wrShut) throw new SysError(Errno.EPIPE);
    return this.tx.write(data, nonblock, this.queue);
  }

  shutdown(how: number): void {
    if (how !== SHUT_RD && how !== SHUT_WR && how !== SHUT_RDWR) throw new SysError(Errno.EINVAL, `shutdown: how ${how}`);
    if (this.state !== 'connected') throw new SysError(Errno.ENOTCONN);
    if (how !== SHUT_WR) this.rdShut = true;
    if (how !== SHUT_RD && !this.wrShut) {
      this.wrShut = true;
      this.tx!.shutWrite();
    }
    this.queue.wake();
  }

  poll(): number {
    if (this.state === 'listening') return this.pending.length ? POLLIN : 0;
    const rx = this.rx, tx = this.tx;
    if (this.state !== 'connected' || !rx || !tx) return POLLOUT | POLLHUP | (this.error ? POLLERR : 0);
    let r = 0;
    if (rx.len > 0 || rx.eof || this.rdShut) r |= POLLIN;
    if (rx.eof) r |= POLLRDHUP;
    if (tx.closed) r |= POLLOUT | POLLERR;
    else if (!this.wrShut && tx.space > 0) r |= POLLOUT;
    if ((rx.eof || this.rdShut) && (this.wrShut || tx.closed)) r |= POLLHUP;
    return r;
  }

  get available(): number {
    return this.state === 'listening' ? this.pending.length : (this.rx?.len ?? 0);
  }

  queued(): [number, number] {
    if (this.state === 'listening') return [0, this.pending.length];
    return [this.tx?.len ?? 0, this.rx?.len ?? 0];
  }

  override close(): void {
    // Connections nobody accepted end with the listener: their clients see EOF.
    for (const s of this.pending.splice(0)) s.close();
    this.rx?.close();
    if (this.tx && !this.tx.eof) this.tx.shutWrite();
    super.close();
    if (this.state === 'listening' && this.isInet) this.table.listenersChanged();
  }

  setSndbuf(n: number): void {
    this.sndbuf = n;
    if (this.tx) this.tx.capacity = n;
  }
}
