// Datagram sockets (UDP on the loopback, AF_UNIX SOCK_DGRAM): each socket
// queues whole messages with their sender's address, up to its receive
// buffer. As on Linux, UDP drops what does not fit (or has no receiver), and
// a unix datagram sender waits for room (EAGAIN when non-blocking).

import { Errno, SysError } from '../../abi/errno.js';
import { SHUT_RD, SHUT_RDWR, SHUT_WR, type SockAddr } from '../../abi/socket.js';
import type { WaitQueue } from '../waitqueue.js';
import { sockAddr } from './address.js';
import type { Inet } from './table.js';
import { POLLIN, POLLOUT, Socket } from './socket.js';

/** Linux's net.core.rmem_default/wmem_default: the most a datagram socket queues, and the largest unix datagram. */
export const DGRAM_BUFFER = 212_992;
/** The largest UDP payload over IPv4. */
export const UDP_MAX = 65_507;

interface Message {
  data: Uint8Array;
  /** The sender: a unix socket's name, or an internet address (shown in this socket's family). */
  from: SockAddr | Inet;
}

export class DgramSocket extends Socket {
  private messages: Message[] = [];
  private bytes = 0;
  /** connect(): the default destination, and the only sender it accepts (inet: its address; unix: the socket). */
  peer: SockAddr | null = null;
  peerInet: Inet | null = null;
  peerSocket: DgramSocket | null = null;

  override rcvbuf = DGRAM_BUFFER;
  override sndbuf = DGRAM_BUFFER;

  peerName(): SockAddr | null {
    return this.peer;
  }

  /** Whether a datagram from `from` may be queued here: a connected socket takes only its peer's. */
  accepts(from: Inet): boolean {
    return !this.peerInet || (this.peerInet.ip === from.ip && this.peerInet.port === from.port);
  }

  /** Queue a message; false when it does not fit (the caller drops it or waits). */
  deliver(data: Uint8Array, from: SockAddr | Inet): boolean {
    if (this.rdShut) return true; // dropped
    if (this.bytes + data.byteLength > this.rcvbuf && this.messages.length > 0) return false;
    if (!this.table.memory.take(data.byteLength)) return false;
    this.messages.push({ data: data.slice(), from });
    this.bytes += data.byteLength;
    this.queue.wake();
    return true;
  }

  /** The next message, cut to `len` (the rest of it is lost, as recv(2) does), and its sender. */
  receive(len: number, nonblock: boolean, peek: boolean): [Uint8Array, SockAddr, number] | WaitQueue {
    this.throwPending();
    const m = this.messages[0];
    if (!m) {
      if (this.rdShut) return [new Uint8Array(0), this.name(), 0];
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return this.queue;
    }
    if (!peek) {
      this.messages.shift();
      this.bytes -= m.data.byteLength;
      this.table.memory.give(m.data.byteLength);
      this.queue.wake();
    }
    const from = 'ip' in m.from ? sockAddr(this.family, m.from.ip, m.from.port) : m.from;
    return [m.data.subarray(0, len), from, m.data.byteLength];
  }

  read(len: number, nonblock: boolean, peek: boolean): Uint8Array | WaitQueue {
    const r = this.receive(len, nonblock, peek);
    return Array.isArray(r) ? r[0] : r;
  }

  write(data: Uint8Array, nonblock: boolean): number | WaitQueue {
    const to = this.peerInet ?? this.peerSocket;
    if (!to) throw new SysError(this.isInet ? Errno.EDESTADDRREQ : Errno.ENOTCONN);
    return this.table.sendDgram(this, data, to, nonblock);
  }

  shutdown(how: number): void {
    if (how !== SHUT_RD && how !== SHUT_WR && how !== SHUT_RDWR) throw new SysError(Errno.EINVAL, `shutdown: how ${how}`);
    if (!this.peer) throw new SysError(Errno.ENOTCONN);
    if (how !== SHUT_WR) this.rdShut = true;
    if (how !== SHUT_RD) this.wrShut = true;
    this.queue.wake();
  }

  poll(): number {
    return (this.messages.length || this.rdShut ? POLLIN : 0) | (this.wrShut ? 0 : POLLOUT);
  }

  get available(): number {
    return this.messages[0]?.data.byteLength ?? 0;
  }

  get full(): boolean {
    return this.bytes >= this.rcvbuf;
  }

  queued(): [number, number] {
    return [0, this.bytes];
  }

  override close(): void {
    this.table.memory.give(this.bytes);
    this.messages = [];
    this.bytes = 0;
    super.close();
  }
}
