// Terminal ioctls (Linux request numbers) and the records they carry. A
// terminal driver answers TCGETS with a Termios and TIOCGWINSZ with a
// Winsize; anything else (files, pipes) fails with ENOTTY, as on Linux.

export const TCGETS = 0x5401;
/** Set now / after output drains / after draining and flushing input (tcsetattr's TCSANOW, TCSADRAIN, TCSAFLUSH). */
export const TCSETS = 0x5402, TCSETSW = 0x5403, TCSETSF = 0x5404;
export const TIOCGWINSZ = 0x5413, TIOCSWINSZ = 0x5414;
/** Flush input/output queues (tcflush); arg TCIFLUSH 0, TCOFLUSH 1, TCIOFLUSH 2. */
export const TCFLSH = 0x540b;
/** Job control: make the caller's ctty this terminal, foreground group get/set, give the ctty up, its session. */
export const TIOCSCTTY = 0x540e, TIOCGPGRP = 0x540f, TIOCSPGRP = 0x5410, TIOCNOTTY = 0x5422, TIOCGSID = 0x5429;
/** Bytes waiting in the output queue. */
export const TIOCOUTQ = 0x5411;
/** pty master: the slave's number (/dev/pts/N) and the lock (accepted, always unlocked). */
export const TIOCGPTN = 0x80045430, TIOCSPTLCK = 0x40045431;
/** B38400 in cflag's CBAUD bits. */
export const B38400_CBAUD = 0o17;

/**
 * struct termios with glibc's 32 control characters. cflag keeps Linux's
 * CBAUD bits for the output speed (B38400 = 0o17); ispeed/ospeed are the
 * speeds as baud rates (38400).
 */
export interface Termios {
  iflag: number;
  oflag: number;
  cflag: number;
  lflag: number;
  line: number;
  cc: number[];
  ispeed: number;
  ospeed: number;
}

export interface Winsize {
  rows: number;
  cols: number;
}

export const NCCS = 32;
/** Indices into cc. */
export const VINTR = 0, VQUIT = 1, VERASE = 2, VKILL = 3, VEOF = 4, VTIME = 5, VMIN = 6, VSWTC = 7, VSTART = 8,
  VSTOP = 9, VSUSP = 10, VEOL = 11, VREPRINT = 12, VDISCARD = 13, VWERASE = 14, VLNEXT = 15, VEOL2 = 16;

// c_iflag
export const IGNBRK = 0o1, BRKINT = 0o2, IGNPAR = 0o4, PARMRK = 0o10, INPCK = 0o20, ISTRIP = 0o40, INLCR = 0o100,
  IGNCR = 0o200, ICRNL = 0o400, IUCLC = 0o1000, IXON = 0o2000, IXANY = 0o4000, IXOFF = 0o10000, IMAXBEL = 0o20000,
  IUTF8 = 0o40000;
// c_oflag
export const OPOST = 0o1, OLCUC = 0o2, ONLCR = 0o4, OCRNL = 0o10, ONOCR = 0o20, ONLRET = 0o40, OFILL = 0o100,
  OFDEL = 0o200, NLDLY = 0o400, CRDLY = 0o3000, TABDLY = 0o14000, BSDLY = 0o20000, VTDLY = 0o40000, FFDLY = 0o100000;
// c_cflag
export const CBAUD = 0o10017, CSIZE = 0o60, CS5 = 0, CS6 = 0o20, CS7 = 0o40, CS8 = 0o60, CSTOPB = 0o100, CREAD = 0o200, PARENB = 0o400,
  PARODD = 0o1000, HUPCL = 0o2000, CLOCAL = 0o4000, CMSPAR = 0o10000000000, CRTSCTS = 0o20000000000;
// c_lflag
export const ISIG = 0o1, ICANON = 0o2, XCASE = 0o4, ECHO = 0o10, ECHOE = 0o20, ECHOK = 0o40, ECHONL = 0o100,
  NOFLSH = 0o200, TOSTOP = 0o400, ECHOCTL = 0o1000, ECHOPRT = 0o2000, ECHOKE = 0o4000, FLUSHO = 0o10000,
  PENDIN = 0o40000, IEXTEN = 0o100000, EXTPROC = 0o200000;
