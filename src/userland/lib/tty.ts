// Terminal queries through ioctl (abi/termios.ts): attributes and window size.

import { TCGETS, TCSETSW, TIOCGWINSZ, TIOCSWINSZ, type Termios, type Winsize } from '../../abi/termios.js';
import type { Value } from '../../abi/codec.js';
import { SysError } from '../../abi/errno.js';
import type { Sys } from '../../libc/sys.js';

/** tcgetattr: throws SysError (ENOTTY for anything but a terminal). */
export function tcgetattr(sys: Sys, fd: number): Termios {
  const t = sys.ioctl(fd, TCGETS) as unknown as Termios;
  return { ...t, cc: Array.from({ length: 32 }, (_, i) => t.cc?.[i] ?? 0) };
}

/** tcsetattr(TCSADRAIN). */
export function tcsetattr(sys: Sys, fd: number, t: Termios): void {
  sys.ioctl(fd, TCSETSW, t as unknown as Value);
}

/** The window size, or null when fd is not a terminal that knows one. */
export function winsize(sys: Sys, fd: number): Winsize | null {
  try {
    return sys.ioctl(fd, TIOCGWINSZ) as unknown as Winsize;
  } catch (e) {
    if (e instanceof SysError) return null;
    throw e;
  }
}

export function setWinsize(sys: Sys, fd: number, w: Winsize): void {
  sys.ioctl(fd, TIOCSWINSZ, w as unknown as Value);
}
