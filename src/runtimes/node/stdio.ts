// Buffered stdout/stderr: writes to a pipe or file are collected and written
// in large chunks (a syscall per console.log made 100k lines take 20 s);
// terminals stay unbuffered. The buffer is flushed, in write order across both
// fds, whenever the process could be observed: at each event-loop turn, before
// blocking, spawning a child, raw fd I/O on 0-2, and exit.

import { SysError } from '../../abi/errno.js';
import type { Sys } from '../../libc/sys.js';

const LIMIT = 64 * 1024;

export class StdioSink {
  private parts: [number, Uint8Array][] = [];
  private size = 0;
  private tty = new Map<number, boolean>();

  constructor(private sys: Sys) {}

  private isTty(fd: number): boolean {
    let t = this.tty.get(fd);
    if (t === undefined) {
      try {
        t = this.sys.isatty(fd);
      } catch {
        t = false;
      }
      this.tty.set(fd, t);
    }
    return t;
  }

  write(fd: number, data: Uint8Array): void {
    if (this.isTty(fd)) {
      this.flush();
      this.sys.writeAll(fd, data);
      return;
    }
    this.parts.push([fd, data.slice()]);
    this.size += data.byteLength;
    if (this.size >= LIMIT) this.flush();
  }

  /** Write out everything buffered; a write error (the reader went away) drops the rest. */
  flush(): void {
    if (!this.parts.length) return;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    try {
      for (let i = 0; i < parts.length; ) {
        const fd = parts[i][0];
        let j = i;
        let n = 0;
        while (j < parts.length && parts[j][0] === fd) n += parts[j++][1].byteLength;
        const buf = new Uint8Array(n);
        for (let k = i, off = 0; k < j; off += parts[k++][1].byteLength) buf.set(parts[k][1], off);
        this.sys.writeAll(fd, buf);
        i = j;
      }
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
  }
}
