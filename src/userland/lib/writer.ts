// Buffered output: many small writes become few write(2) calls. A broken pipe
// ends the program like GNU tools: SIGPIPE (default action) kills it inside
// the kernel; if SIGPIPE is ignored the write fails with EPIPE and we report
// "write error" and exit 1, as coreutils' close_stdout does.

import { encodeBytes } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Sys } from '../../libc/sys.js';

const SIZE = 64 * 1024;

/** Raised when output can no longer be written; the command runner turns it into the exit. */
export class WriteError extends Error {
  constructor(readonly errno: number) {
    super('write error');
  }
}

export class Writer {
  private buf = new Uint8Array(SIZE);
  private len = 0;

  constructor(
    private readonly sys: Sys,
    readonly fd: number,
    /** Line-buffered (a terminal): flush at each newline so prompts and progress show. */
    private readonly lineBuffered = false,
  ) {}

  /** A string is written as the bytes it stands for: a name's escaped bytes as themselves (abi/bytestr.ts). */
  write(data: string | Uint8Array): void {
    const b = typeof data === 'string' ? encodeBytes(data) : data;
    if (b.byteLength >= SIZE) {
      this.flush();
      this.raw(b);
    } else {
      if (this.len + b.byteLength > SIZE) this.flush();
      this.buf.set(b, this.len);
      this.len += b.byteLength;
    }
    if (this.lineBuffered && b.includes(10)) this.flush();
  }

  flush(): void {
    if (this.len === 0) return;
    const out = this.buf.subarray(0, this.len);
    this.len = 0;
    this.raw(out);
  }

  private raw(b: Uint8Array): void {
    try {
      this.sys.writeAll(this.fd, b);
    } catch (e) {
      if (e instanceof SysError) throw new WriteError(e.errno);
      throw e;
    }
  }
}

export const isBrokenPipe = (e: unknown): boolean => e instanceof WriteError && e.errno === Errno.EPIPE;
