// setRawMode for a terminal fd, as libuv's raw mode: no echo, no line
// editing, no signal keys, bytes as typed (VMIN 1). The mode the process found
// is put back when it ends, as Node does.

import * as T from '../../abi/termios.js';
import type { Termios } from '../../abi/termios.js';
import type { Sys } from '../../libc/sys.js';

export class TtyMode {
  private saved = new Map<number, Termios>();

  constructor(private sys: Sys) {}

  setRaw(fd: number, raw: boolean): boolean {
    const cur = this.sys.ioctl(fd, T.TCGETS) as unknown as Termios;
    if (!this.saved.has(fd)) this.saved.set(fd, { ...cur, cc: [...cur.cc] });
    const orig = this.saved.get(fd)!;
    const t: Termios = raw
      ? {
        ...orig,
        cc: [...orig.cc],
        iflag: orig.iflag & ~(T.BRKINT | T.ICRNL | T.INPCK | T.ISTRIP | T.IXON),
        oflag: orig.oflag | T.ONLCR,
        cflag: orig.cflag | T.CS8,
        lflag: orig.lflag & ~(T.ECHO | T.ICANON | T.IEXTEN | T.ISIG),
      }
      : { ...orig, cc: [...orig.cc] };
    if (raw) {
      t.cc[T.VMIN] = 1;
      t.cc[T.VTIME] = 0;
    }
    this.sys.ioctl(fd, T.TCSETSW, t as unknown as Parameters<Sys['ioctl']>[2]);
    return raw;
  }

  /** Put back every terminal this process changed. */
  restore(): void {
    for (const [fd, t] of this.saved) {
      try {
        this.sys.ioctl(fd, T.TCSETSW, t as unknown as Parameters<Sys['ioctl']>[2]);
      } catch {
        // the terminal went away
      }
    }
    this.saved.clear();
  }
}
