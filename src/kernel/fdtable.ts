// Per-process file descriptor table: fd number → (open file description, FD_CLOEXEC).

import { Errno, SysError } from '../abi/errno.js';
import { OPEN_MAX } from '../abi/fcntl.js';
import type { OpenFile } from './file.js';

interface Slot {
  file: OpenFile;
  cloexec: boolean;
}

export class FdTable {
  private slots: (Slot | undefined)[] = [];

  constructor(readonly limit = OPEN_MAX) {}

  get(fd: number): OpenFile {
    const s = Number.isInteger(fd) && fd >= 0 ? this.slots[fd] : undefined;
    if (!s) throw new SysError(Errno.EBADF, `fd ${fd}`);
    return s.file;
  }

  has(fd: number): boolean {
    return this.slots[fd] !== undefined;
  }

  /** Install `file` at the lowest free fd >= `min`. Takes over the caller's reference. */
  alloc(file: OpenFile, cloexec = false, min = 0): number {
    if (min >= this.limit) {
      // F_DUPFD past the open-file limit: Linux says EINVAL (a bad argument, not a full table).
      file.unref();
      throw new SysError(Errno.EINVAL);
    }
    for (let fd = min; fd < this.limit; fd++) {
      if (!this.slots[fd]) {
        this.slots[fd] = { file, cloexec };
        return fd;
      }
    }
    file.unref();
    throw new SysError(Errno.EMFILE);
  }

  /** Install at exactly `fd`, closing what was there. Takes over the caller's reference. */
  set(fd: number, file: OpenFile, cloexec = false): void {
    if (!Number.isInteger(fd) || fd < 0 || fd >= this.limit) {
      file.unref();
      throw new SysError(Errno.EBADF, `fd ${fd}`);
    }
    const old = this.slots[fd];
    this.slots[fd] = { file, cloexec };
    old?.file.unref();
  }

  close(fd: number): void {
    const s = this.slots[fd];
    if (!s) throw new SysError(Errno.EBADF, `fd ${fd}`);
    this.slots[fd] = undefined;
    s.file.unref();
  }

  getCloexec(fd: number): boolean {
    this.get(fd);
    return this.slots[fd]!.cloexec;
  }

  setCloexec(fd: number, on: boolean): void {
    this.get(fd);
    this.slots[fd]!.cloexec = on;
  }

  /** Close every FD_CLOEXEC descriptor (at exec). */
  closeOnExec(): void {
    this.slots.forEach((s, fd) => {
      if (s?.cloexec) this.close(fd);
    });
  }

  closeAll(): void {
    this.slots.forEach((s, fd) => {
      if (s) this.close(fd);
    });
    this.slots = [];
  }

  entries(): [number, OpenFile][] {
    const out: [number, OpenFile][] = [];
    this.slots.forEach((s, fd) => {
      if (s) out.push([fd, s.file]);
    });
    return out;
  }

  get count(): number {
    return this.slots.reduce((n, s) => n + (s ? 1 : 0), 0);
  }
}
