// A `linux` whose stdin and stdout are a terminal gives the guest's program a terminal too: the
// guest's ttyS1, sized as the caller's, is the program's controlling tty and its stdin, stdout and
// stderr. The caller's terminal is raw meanwhile (every key goes to the guest as a byte: the
// guest's line discipline echoes, edits lines and turns ^C into SIGINT), and restored after.

import {
  ECHO, ICANON, ICRNL, IEXTEN, ISIG, IXON, OPOST, TCGETS, TCSETSW, TIOCGWINSZ, VMIN, VTIME, type Termios, type Winsize,
} from '../../abi/termios.js';
import type { Value } from '../../abi/codec.js';
import type { Sys } from '../../libc/sys.js';

export interface CallerTty {
  size: Winsize;
  /** Put the caller's terminal back as it was. */
  restore(): void;
}

/** The caller's terminal, made raw; null when stdin or stdout is not a terminal. */
export function rawCallerTty(sys: Sys): CallerTty | null {
  if (!sys.isatty(0) || !sys.isatty(1)) return null;
  const saved = sys.ioctl(0, TCGETS) as unknown as Termios;
  const size = sys.ioctl(1, TIOCGWINSZ) as unknown as Winsize;
  const cc = [...saved.cc];
  cc[VMIN] = 1;
  cc[VTIME] = 0;
  const raw: Termios = {
    ...saved,
    iflag: saved.iflag & ~(ICRNL | IXON),
    oflag: saved.oflag & ~OPOST,
    lflag: saved.lflag & ~(ECHO | ICANON | ISIG | IEXTEN),
    cc,
  };
  sys.ioctl(0, TCSETSW, raw as unknown as Value);
  return {
    size,
    restore: () => {
      try {
        sys.ioctl(0, TCSETSW, saved as unknown as Value);
      } catch {
        // the terminal is gone: nothing to restore
      }
    },
  };
}
