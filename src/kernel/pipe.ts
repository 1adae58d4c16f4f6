// Pipes and FIFOs: a bounded ring buffer with reader/writer counts.
//
// A writer blocks when the buffer is full, a reader when it is empty; reads
// return EOF once the last writer has closed, and writes fail with EPIPE (the
// syscall layer adds SIGPIPE) once the last reader has closed. Writes of at
// most PIPE_BUF bytes are atomic: they wait until all of them fit.

import { Errno, SysError } from '../abi/errno.js';
import { O_NONBLOCK, PIPE_BUF } from '../abi/fcntl.js';
import type { OpenFile } from './file.js';
import type { FileOps } from './vfs/types.js';
import { WaitQueue } from './waitqueue.js';

export const PIPE_CAPACITY = 64 * 1024;

/** ioctl: bytes waiting to be read. */
export const FIONREAD = 0x541b;

export const POLLIN = 1, POLLOUT = 4, POLLHUP = 16, POLLERR = 8;

export class Pipe {
  private buf: Uint8Array;
  private head = 0; // next byte to read
  private len = 0;
  readers = 0;
  writers = 0;
  /** Readers and writers that ever opened: a FIFO reader blocks in open until a writer arrives. */
  everWriters = 0;
  everReaders = 0;
  /** Woken on any change: data, space, open or close of either end. */
  readonly queue = new WaitQueue();

  constructor(readonly capacity = PIPE_CAPACITY) {
    this.buf = new Uint8Array(capacity);
  }

  get available(): number {
    return this.len;
  }

  get space(): number {
    return this.capacity - this.len;
  }

  read(max: number, nonblock: boolean): Uint8Array | WaitQueue {
    if (this.len === 0) {
      if (this.writers === 0) return new Uint8Array(0);
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return this.queue;
    }
    const n = Math.min(max, this.len);
    // A contiguous run is returned as a view of the ring (no copy): callers
    // encode it into the reply before anything can write the pipe again.
    let out: Uint8Array;
    if (this.head + n <= this.capacity) out = this.buf.subarray(this.head, this.head + n);
    else {
      out = new Uint8Array(n);
      const first = this.capacity - this.head;
      out.set(this.buf.subarray(this.head));
      out.set(this.buf.subarray(0, n - first), first);
    }
    this.head = (this.head + n) % this.capacity;
    this.len -= n;
    if (this.len === 0) this.head = 0;
    this.queue.wake();
    return out;
  }

  /** Accept as much of `data` as the rules allow; 0 bytes accepted is returned as the queue to wait on. */
  write(data: Uint8Array, nonblock: boolean): number | WaitQueue {
    if (this.readers === 0) throw new SysError(Errno.EPIPE);
    if (data.byteLength === 0) return 0;
    const atomic = data.byteLength <= PIPE_BUF;
    const room = this.space;
    if (room === 0 || (atomic && room < data.byteLength)) {
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return this.queue;
    }
    const n = Math.min(room, data.byteLength);
    const tail = (this.head + this.len) % this.capacity;
    const first = Math.min(n, this.capacity - tail);
    this.buf.set(data.subarray(0, first), tail);
    if (first < n) this.buf.set(data.subarray(first, n), 0);
    this.len += n;
    this.queue.wake();
    return n;
  }

  poll(forRead: boolean): number {
    let r = 0;
    if (forRead) {
      if (this.len > 0) r |= POLLIN;
      if (this.writers === 0 && this.everWriters > 0) r |= POLLHUP;
    } else {
      if (this.readers === 0) r |= POLLERR;
      else if (this.space >= PIPE_BUF || this.space === this.capacity) r |= POLLOUT;
    }
    return r;
  }
}

/** File ops for one end of a pipe (anonymous or FIFO). */
export function pipeOps(pipe: Pipe, end: 'r' | 'w'): FileOps {
  return {
    read(f: OpenFile, len: number) {
      if (end !== 'r') throw new SysError(Errno.EBADF);
      return pipe.read(len, (f.flags & O_NONBLOCK) !== 0);
    },
    write(f: OpenFile, data: Uint8Array) {
      if (end !== 'w') throw new SysError(Errno.EBADF);
      return pipe.write(data, (f.flags & O_NONBLOCK) !== 0);
    },
    seek() {
      throw new SysError(Errno.ESPIPE);
    },
    poll: () => pipe.poll(end === 'r'),
    ioctl(_f, request) {
      if (request === FIONREAD) return pipe.available;
      throw new SysError(Errno.ENOTTY);
    },
    waitQueue: () => pipe.queue,
    release() {
      if (end === 'r') pipe.readers--;
      else pipe.writers--;
      pipe.queue.wake();
    },
  };
}

/** Open an end: counts it, so the ops' release() balances it. */
export function openPipeEnd(pipe: Pipe, end: 'r' | 'w'): FileOps {
  if (end === 'r') {
    pipe.readers++;
    pipe.everReaders++;
  } else {
    pipe.writers++;
    pipe.everWriters++;
  }
  pipe.queue.wake();
  return pipeOps(pipe, end);
}
