// The settings a fresh terminal starts with: a Linux pty's (tty_std_termios
// without HUPCL: cooked, echo, signals, CR→NL in, NL→CRLF out) plus IUTF8, which
// UTF-8 terminal emulators set so that ERASE removes a whole character.

import {
  B38400_CBAUD, CREAD, CS8, ECHO, ECHOCTL, ECHOE, ECHOK, ECHOKE, ICANON, ICRNL, IEXTEN, ISIG, IUTF8, IXON, NCCS, ONLCR, OPOST, type Termios, VDISCARD, VEOF, VERASE, VINTR, VKILL, VLNEXT, VMIN, VQUIT, VREPRINT,
  VSTART, VSTOP, VSUSP, VTIME, VWERASE,
} from '../../abi/termios.js';

export function defaultTermios(): Termios {
  const cc = new Array<number>(NCCS).fill(0);
  cc[VINTR] = 0x03;
  cc[VQUIT] = 0x1c;
  cc[VERASE] = 0x7f;
  cc[VKILL] = 0x15;
  cc[VEOF] = 0x04;
  cc[VTIME] = 0;
  cc[VMIN] = 1;
  cc[VSTART] = 0x11;
  cc[VSTOP] = 0x13;
  cc[VSUSP] = 0x1a;
  cc[VREPRINT] = 0x12;
  cc[VDISCARD] = 0x0f;
  cc[VWERASE] = 0x17;
  cc[VLNEXT] = 0x16;
  return {
    iflag: ICRNL | IXON | IUTF8,
    oflag: OPOST | ONLCR,
    cflag: B38400_CBAUD | CS8 | CREAD,
    lflag: ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
    line: 0,
    cc,
    ispeed: 38400,
    ospeed: 38400,
  };
}

/** A checked copy of a Termios from user space (the ioctl argument is untrusted). */
export function copyTermios(v: unknown): Termios | null {
  if (!v || typeof v !== 'object') return null;
  const t = v as Partial<Termios>;
  const n = (x: unknown, d: number): number => (typeof x === 'number' && Number.isFinite(x) ? x >>> 0 : d);
  if (!Array.isArray(t.cc)) return null;
  return {
    iflag: n(t.iflag, 0),
    oflag: n(t.oflag, 0),
    cflag: n(t.cflag, 0),
    lflag: n(t.lflag, 0),
    line: n(t.line, 0),
    cc: Array.from({ length: NCCS }, (_, i) => n(t.cc![i], 0) & 0xff),
    ispeed: n(t.ispeed, 38400),
    ospeed: n(t.ospeed, 38400),
  };
}
