// A terminal: the line discipline, the output queue towards the terminal
// side (the pty master), the window size and the job-control state (the
// session it controls, its foreground group). The file ops of its two ends
// live here too: the slave (/dev/pts/N, /dev/tty) is what programs read and
// write; the master is what the terminal emulator (the host) drives.

import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { O_NONBLOCK } from '../../abi/fcntl.js';
import { SIGTTIN, SIGTTOU, SIGWINCH } from '../../abi/signal.js';
import {
  TCFLSH, TCGETS, TCSETS, TCSETSF, TCSETSW, TIOCGPGRP, TIOCGPTN, TIOCGSID, TIOCGWINSZ, TIOCNOTTY, TIOCOUTQ, TIOCSCTTY,
  TIOCSPGRP, TIOCSPTLCK, TIOCSWINSZ, TOSTOP, VMIN, VTIME, type Winsize,
} from '../../abi/termios.js';
import type { OpenFile } from '../file.js';
import type { Kernel } from '../kernel.js';
import { FIONREAD, POLLHUP, POLLIN, POLLOUT } from '../pipe.js';
import type { Call } from '../syscall.js';
import type { FileOps } from '../vfs/types.js';
import { WaitQueue } from '../waitqueue.js';
import { acquire, backgroundCheck, disassociate, setForeground, signalGroup } from './jobctl.js';
import { noteChange, type Settings } from './killed-restore.js';
import { LineDiscipline } from './ldisc.js';
import { copyTermios } from './termios-default.js';

/** Output the terminal has not read yet; a writer beyond this waits. */
const OUTPUT_LIMIT = 64 * 1024;

export class Tty {
  readonly ldisc: LineDiscipline;
  winsize: Winsize = { rows: 24, cols: 80 };
  /** Session this is the controlling terminal of (0: none) and its foreground group. */
  session = 0;
  pgrp = 0;
  /** Woken on any change: input, output, settings, hangup. */
  readonly queue = new WaitQueue();
  private out: Uint8Array[] = [];
  private outBytes = 0;
  /** The master side is gone: reads see end of file, writes fail (EIO). */
  hungUp = false;
  slaveOpens = 0;
  private slaveEverOpened = false;
  /** Its settings as killed-restore.ts sees them. */
  readonly settings: Settings = {
    get: () => this.ldisc.termios,
    set: (t) => {
      this.ldisc.setTermios(t);
      this.queue.wake();
    },
    gone: () => this.hungUp,
  };

  constructor(
    readonly index: number,
    private readonly k: Kernel,
    /** Called once both ends are closed. */
    private readonly onFree: (t: Tty) => void,
  ) {
    this.ldisc = new LineDiscipline({
      output: (bytes) => this.queueOutput(bytes),
      signal: (sig) => signalGroup(this.k, this.pgrp, sig),
    });
  }

  get name(): string {
    return `/dev/pts/${this.index}`;
  }

  private queueOutput(bytes: ArrayLike<number>): void {
    if (!bytes.length || this.hungUp) return;
    this.out.push(Uint8Array.from(bytes));
    this.outBytes += bytes.length;
    this.queue.wake();
  }

  /** The call being served: the tty needs its process for job control and its state for timers. */
  private call(): Call {
    const c = this.k.currentCall;
    if (!c) throw new SysError(Errno.EIO, 'tty used outside a syscall');
    return c;
  }

  // ---- the slave: programs ------------------------------------------------------

  private slaveRead(f: OpenFile, len: number): Uint8Array | WaitQueue {
    const call = this.call();
    const wait = backgroundCheck(this.k, call.proc, this, SIGTTIN);
    if (wait) return wait;
    const l = this.ldisc;
    const empty = new Uint8Array(0);
    const nonblock = (f.flags & O_NONBLOCK) !== 0;
    if (l.canonical) {
      const line = l.take(len);
      if (line) return line;
      if (this.hungUp) return empty;
      if (nonblock) throw new SysError(Errno.EAGAIN);
      return this.queue;
    }
    // Raw: VMIN bytes, or VTIME tenths of a second (from the call with VMIN 0, between bytes otherwise).
    const min = Math.min(l.termios.cc[VMIN], len);
    const time = l.termios.cc[VTIME] * 100;
    const avail = l.available;
    if (this.hungUp || (min === 0 && time === 0)) return l.take(len) ?? empty;
    if (avail >= Math.max(min, 1)) return l.take(len)!;
    if (nonblock) {
      if (avail) return l.take(len)!;
      throw new SysError(Errno.EAGAIN);
    }
    const now = performance.now();
    if (min === 0) {
      call.state.ttyDeadline ??= now + time;
      const left = (call.state.ttyDeadline as number) - now;
      return left <= 0 ? empty : this.sleep(call, left);
    }
    if (!avail || time === 0) return this.queue;
    // Inter-byte timer: restarts whenever another byte arrives.
    if (call.state.ttySeen !== avail) {
      call.state.ttySeen = avail;
      call.state.ttyDeadline = now + time;
    }
    const left = (call.state.ttyDeadline as number) - now;
    return left <= 0 ? l.take(len)! : this.sleep(call, left);
  }

  /** Sleep until the tty changes or `ms` pass. */
  private sleep(call: Call, ms: number): WaitQueue {
    const q = new WaitQueue();
    const off = this.queue.add(() => q.wake());
    const t = setTimeout(() => q.wake(), ms);
    const prev = call.state.cleanup;
    call.state.cleanup = () => {
      clearTimeout(t);
      off();
      prev?.();
    };
    return q;
  }

  private slaveWrite(_f: OpenFile, data: Uint8Array): number | WaitQueue {
    const call = this.call();
    if (this.ldisc.termios.lflag & TOSTOP) {
      const wait = backgroundCheck(this.k, call.proc, this, SIGTTOU);
      if (wait) return wait;
    }
    if (this.hungUp) throw new SysError(Errno.EIO);
    if (this.outBytes >= OUTPUT_LIMIT) return this.queue;
    const n = Math.min(data.byteLength, OUTPUT_LIMIT);
    this.queueOutput(this.ldisc.process(data.subarray(0, n)));
    return n;
  }

  /** Ops for one open of the slave side. */
  openSlave(): FileOps {
    if (this.hungUp) throw new SysError(Errno.EIO);
    this.slaveOpens++;
    this.slaveEverOpened = true;
    return {
      read: (f, len) => this.slaveRead(f, len),
      write: (f, data) => this.slaveWrite(f, data),
      seek: () => {
        throw new SysError(Errno.ESPIPE);
      },
      poll: () => (this.ldisc.readable || this.hungUp ? POLLIN : 0) | (this.hungUp ? POLLHUP : POLLOUT),
      waitQueue: () => this.queue,
      ioctl: (_f, req, arg) => this.ioctl(req, arg, false),
      release: () => {
        this.slaveOpens--;
        this.queue.wake();
        this.maybeFree();
      },
    };
  }

  // ---- the master: the terminal emulator -------------------------------------------

  openMaster(): FileOps {
    return {
      read: (f, len) => {
        if (this.out.length) return this.takeOutput(len);
        if (this.slaveEverOpened && this.slaveOpens === 0) throw new SysError(Errno.EIO);
        if (f.flags & O_NONBLOCK) throw new SysError(Errno.EAGAIN);
        return this.queue;
      },
      write: (_f, data) => {
        this.ldisc.receive(data);
        this.queue.wake();
        return data.byteLength;
      },
      seek: () => {
        throw new SysError(Errno.ESPIPE);
      },
      poll: () => (this.out.length ? POLLIN : 0) | POLLOUT | (this.slaveEverOpened && this.slaveOpens === 0 ? POLLHUP : 0),
      waitQueue: () => this.queue,
      ioctl: (_f, req, arg) => this.ioctl(req, arg, true),
      release: () => this.hangup(),
    };
  }

  private takeOutput(max: number): Uint8Array {
    const first = this.out[0];
    let out: Uint8Array;
    if (first.byteLength <= max && this.out.length === 1) {
      out = first;
      this.out = [];
    } else {
      out = new Uint8Array(Math.min(max, this.outBytes));
      let off = 0;
      while (off < out.byteLength) {
        const c = this.out[0];
        const n = Math.min(c.byteLength, out.byteLength - off);
        out.set(c.subarray(0, n), off);
        off += n;
        if (n === c.byteLength) this.out.shift();
        else this.out[0] = c.subarray(n);
      }
    }
    this.outBytes -= out.byteLength;
    this.queue.wake();
    return out;
  }

  /** The master closed: the session loses its terminal (SIGHUP), readers see EOF. */
  hangup(): void {
    if (this.hungUp) return;
    this.hungUp = true;
    this.out = [];
    this.outBytes = 0;
    disassociate(this.k, this, true);
    this.queue.wake();
    this.maybeFree();
  }

  private maybeFree(): void {
    if (this.hungUp && this.slaveOpens === 0) this.onFree(this);
  }

  resize(w: Winsize): void {
    const changed = w.rows !== this.winsize.rows || w.cols !== this.winsize.cols;
    this.winsize = { rows: w.rows, cols: w.cols };
    if (changed) signalGroup(this.k, this.pgrp, SIGWINCH);
  }

  // ---- ioctl (both ends) ------------------------------------------------------

  private ioctl(req: number, arg: unknown, master: boolean): Value {
    const call = this.call();
    const p = call.proc;
    const ownCtty = (): void => {
      if (!master && p !== this.k.init && p.ctty !== this) throw new SysError(Errno.ENOTTY);
    };
    /** Changing settings from the background stops the group, as tcsetattr does (tty_check_change). */
    const change = (): WaitQueue | null => (master ? null : backgroundCheck(this.k, p, this, SIGTTOU));
    switch (req) {
      case TCGETS:
        return { ...this.ldisc.termios, cc: [...this.ldisc.termios.cc] } as unknown as Value;
      case TCSETS:
      case TCSETSW:
      case TCSETSF: {
        const t = copyTermios(arg);
        if (!t) throw new SysError(Errno.EINVAL);
        const wait = change();
        if (wait) return wait as unknown as Value;
        if (req === TCSETSF) this.ldisc.flushInput();
        if (!master) noteChange(p, this.settings, t);
        this.ldisc.setTermios(t);
        this.queue.wake();
        return 0;
      }
      case TIOCGWINSZ:
        return { ...this.winsize };
      case TIOCSWINSZ: {
        const w = arg as Partial<Winsize> | null;
        if (!w || typeof w.rows !== 'number' || typeof w.cols !== 'number' || w.rows < 0 || w.cols < 0) throw new SysError(Errno.EINVAL);
        this.resize({ rows: Math.trunc(w.rows), cols: Math.trunc(w.cols) });
        return 0;
      }
      case FIONREAD:
        return master ? this.outBytes : this.ldisc.available;
      case TIOCOUTQ:
        return this.outBytes;
      case TCFLSH: {
        const which = typeof arg === 'number' ? arg : -1;
        if (which < 0 || which > 2) throw new SysError(Errno.EINVAL);
        if (which !== 1) this.ldisc.flushInput();
        if (which !== 0) {
          this.out = [];
          this.outBytes = 0;
        }
        this.queue.wake();
        return 0;
      }
      case TIOCGPGRP:
        ownCtty();
        return this.pgrp || 0x7fffffff; // no foreground group: a pid no process has, as Linux answers
      case TIOCSPGRP: {
        if (master) throw new SysError(Errno.ENOTTY);
        const wait = setForeground(this.k, p, this, typeof arg === 'number' ? arg : -1);
        return (wait ?? 0) as unknown as Value;
      }
      case TIOCGSID:
        ownCtty();
        if (!this.session) throw new SysError(Errno.ENOTTY);
        return this.session;
      case TIOCSCTTY:
        if (master) throw new SysError(Errno.ENOTTY);
        acquire(p, this, arg === 1);
        return 0;
      case TIOCNOTTY:
        if (master || p.ctty !== this) throw new SysError(Errno.ENOTTY);
        if (p.sid === p.pid) disassociate(this.k, this, false);
        else p.ctty = null;
        return 0;
      case TIOCGPTN:
        if (!master) throw new SysError(Errno.ENOTTY);
        return this.index;
      case TIOCSPTLCK:
        if (!master) throw new SysError(Errno.ENOTTY);
        return 0;
      default:
        throw new SysError(Errno.ENOTTY);
    }
  }
}
