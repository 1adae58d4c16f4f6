// Where a transfer's body goes: stdout or a file opened only once the
// response is known good (curl leaves no file behind for -f errors).

import { O_CREAT, O_TRUNC, O_WRONLY, O_APPEND } from '../../../abi/fcntl.js';
import type { Sys } from '../../../libc/sys.js';
import { EXIT, TransferError } from './http.js';

export class Output {
  private fd: number | null = null;
  written = 0;

  constructor(
    private readonly sys: Sys,
    /** null = stdout */
    readonly path: string | null,
    private readonly opts: { append?: boolean; createDirs?: boolean; stdoutWrite?: (b: Uint8Array) => void } = {},
  ) {}

  private open(): number {
    if (this.fd !== null) return this.fd;
    if (this.path === null) return (this.fd = 1);
    if (this.opts.createDirs) this.mkdirs(this.path);
    try {
      this.fd = this.sys.open(this.path, O_WRONLY | O_CREAT | (this.opts.append ? O_APPEND : O_TRUNC), 0o666);
    } catch {
      throw new TransferError(EXIT.WRITE_ERROR, 'Failure writing output to destination');
    }
    return this.fd;
  }

  private mkdirs(path: string): void {
    const parts = path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!d) continue;
      try {
        this.sys.mkdir(d, 0o777);
      } catch {
        // exists, or the open will say what is wrong
      }
    }
  }

  /** Make sure the file exists (an empty body still creates it). */
  touch(): void {
    this.open();
  }

  write(b: Uint8Array): void {
    if (b.byteLength === 0) return;
    const fd = this.open();
    if (fd === 1 && this.opts.stdoutWrite) this.opts.stdoutWrite(b);
    else {
      try {
        this.sys.writeAll(fd, b);
      } catch {
        throw new TransferError(EXIT.WRITE_ERROR, 'Failure writing output to destination');
      }
    }
    this.written += b.byteLength;
  }

  close(): void {
    if (this.fd !== null && this.fd !== 1) this.sys.close(this.fd);
    this.fd = null;
  }
}
