// One direction of a stream connection: the bytes one end has sent and the
// other has not read yet, bounded per connection (SO_SNDBUF) and, across all
// sockets, by the kernel's socket memory (SocketMemory).
//
// Unlike a pipe's ring, it holds only what is queued (a list of the written
// chunks), so an idle connection costs no buffer: a guest holding thousands
// of sockets holds no memory beyond their objects.

import { Errno, SysError } from '../../abi/errno.js';
import { WaitQueue } from '../waitqueue.js';

/** Default bytes one direction may queue (Linux's tcp_wmem default is 16 KiB growing to 4 MiB). */
export const STREAM_CAPACITY = 256 * 1024;

/** Socket memory of the whole kernel: queued bytes of every socket (Linux's tcp_mem). */
export class SocketMemory {
  used = 0;
  /** Woken when memory is freed, for writers that found the kernel's total full. */
  readonly freed = new WaitQueue();
  constructor(readonly limit: number) {}

  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used -= n;
    this.freed.wake();
  }
}

export class StreamBuffer {
  private chunks: Uint8Array[] = [];
  private off = 0; // read position in chunks[0]
  len = 0;
  /** The writing end shut down or closed: the reader sees EOF after the data. */
  eof = false;
  /** The reading end shut down or closed: writes fail with EPIPE. */
  closed = false;

  constructor(
    private readonly mem: SocketMemory,
    /** Woken on data, space, EOF or close: both ends' queue. */
    readonly wake: () => void,
    public capacity = STREAM_CAPACITY,
  ) {}

  get space(): number {
    return Math.max(0, this.capacity - this.len);
  }

  /** Take up to `max` bytes; [] at EOF; the queue to wait on when empty. `peek` leaves them queued. */
  read(max: number, nonblock: boolean, waitOn: WaitQueue, peek = false): Uint8Array | WaitQueue {
    if (this.len === 0) {
      if (this.eof) return new Uint8Array(0);
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return waitOn;
    }
    const n = Math.min(max, this.len);
    const first = this.chunks[0];
    let out: Uint8Array;
    if (first.byteLength - this.off >= n) out = first.subarray(this.off, this.off + n);
    else {
      out = new Uint8Array(n);
      let got = 0;
      for (let i = 0, at = this.off; got < n; i++, at = 0) {
        const c = this.chunks[i].subarray(at, at + n - got);
        out.set(c, got);
        got += c.byteLength;
      }
    }
    if (!peek) this.consume(n);
    return out;
  }

  private consume(n: number): void {
    this.len -= n;
    let left = n;
    while (left > 0) {
      const rest = this.chunks[0].byteLength - this.off;
      if (rest > left) {
        this.off += left;
        break;
      }
      left -= rest;
      this.chunks.shift();
      this.off = 0;
    }
    this.mem.give(n);
    this.wake();
  }

  /** Queue as much of `data` as fits; 0 fitting is the queue to wait on. */
  write(data: Uint8Array, nonblock: boolean, waitOn: WaitQueue): number | WaitQueue {
    if (this.closed) throw new SysError(Errno.EPIPE);
    if (data.byteLength === 0) return 0;
    const n = Math.min(this.space, data.byteLength);
    if (n === 0 || !this.mem.take(n)) {
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return n === 0 ? waitOn : this.mem.freed;
    }
    // A copy: `data` is a view of the caller's channel, reused by its next call.
    this.chunks.push(data.slice(0, n));
    this.len += n;
    this.wake();
    return n;
  }

  /** The reader is gone: drop what is queued and refuse more. */
  close(): void {
    this.closed = true;
    if (this.len) this.mem.give(this.len);
    this.chunks = [];
    this.off = 0;
    this.len = 0;
    this.wake();
  }

  shutWrite(): void {
    this.eof = true;
    this.wake();
  }
}
