// stty's tables (Linux): the mode flags in GNU's display order with their
// "sane" defaults, the special characters, and the combination settings.

import * as T from '../../../abi/termios.js';
import type { Termios } from '../../../abi/termios.js';

export type Field = 'cflag' | 'iflag' | 'oflag' | 'lflag';

export interface ModeInfo {
  name: string;
  field: Field;
  bits: number;
  /** The field bits this mode decides (a delay or size group); 0 means `bits`. */
  mask: number;
  /** May be negated with '-'. */
  rev: boolean;
  sane: 'set' | 'unset' | null;
  /** Accepted but never displayed (aliases). */
  omit: boolean;
}

const m = (name: string, field: Field, bits: number, flags: string, mask = 0): ModeInfo => ({
  name, field, bits, mask, rev: flags.includes('r'), sane: flags.includes('s') ? 'set' : flags.includes('u') ? 'unset' : null,
  omit: flags.includes('o'),
});

/** r: negatable, s: set by sane, u: cleared by sane, o: not displayed. */
export const MODES: ModeInfo[] = [
  m('parenb', 'cflag', T.PARENB, 'r'), m('parodd', 'cflag', T.PARODD, 'r'), m('cmspar', 'cflag', T.CMSPAR, 'r'),
  m('cs5', 'cflag', T.CS5, '', T.CSIZE), m('cs6', 'cflag', T.CS6, '', T.CSIZE), m('cs7', 'cflag', T.CS7, '', T.CSIZE),
  m('cs8', 'cflag', T.CS8, '', T.CSIZE), m('hupcl', 'cflag', T.HUPCL, 'r'), m('hup', 'cflag', T.HUPCL, 'ro'),
  m('cstopb', 'cflag', T.CSTOPB, 'r'), m('cread', 'cflag', T.CREAD, 'sr'), m('clocal', 'cflag', T.CLOCAL, 'r'),
  m('crtscts', 'cflag', T.CRTSCTS, 'r'),

  m('ignbrk', 'iflag', T.IGNBRK, 'ur'), m('brkint', 'iflag', T.BRKINT, 'sr'), m('ignpar', 'iflag', T.IGNPAR, 'r'),
  m('parmrk', 'iflag', T.PARMRK, 'r'), m('inpck', 'iflag', T.INPCK, 'r'), m('istrip', 'iflag', T.ISTRIP, 'r'),
  m('inlcr', 'iflag', T.INLCR, 'ur'), m('igncr', 'iflag', T.IGNCR, 'ur'), m('icrnl', 'iflag', T.ICRNL, 'sr'),
  m('ixon', 'iflag', T.IXON, 'r'), m('ixoff', 'iflag', T.IXOFF, 'ur'), m('tandem', 'iflag', T.IXOFF, 'ro'),
  m('iuclc', 'iflag', T.IUCLC, 'ur'), m('ixany', 'iflag', T.IXANY, 'ur'), m('imaxbel', 'iflag', T.IMAXBEL, 'sr'),
  m('iutf8', 'iflag', T.IUTF8, 'ur'),

  m('opost', 'oflag', T.OPOST, 'sr'), m('olcuc', 'oflag', T.OLCUC, 'ur'), m('ocrnl', 'oflag', T.OCRNL, 'ur'),
  m('onlcr', 'oflag', T.ONLCR, 'sr'), m('onocr', 'oflag', T.ONOCR, 'ur'), m('onlret', 'oflag', T.ONLRET, 'ur'),
  m('ofill', 'oflag', T.OFILL, 'ur'), m('ofdel', 'oflag', T.OFDEL, 'ur'),
  m('nl1', 'oflag', 0o400, 'u', T.NLDLY), m('nl0', 'oflag', 0, 's', T.NLDLY),
  m('cr3', 'oflag', 0o3000, 'u', T.CRDLY), m('cr2', 'oflag', 0o2000, 'u', T.CRDLY), m('cr1', 'oflag', 0o1000, 'u', T.CRDLY),
  m('cr0', 'oflag', 0, 's', T.CRDLY),
  m('tab3', 'oflag', 0o14000, 'u', T.TABDLY), m('tab2', 'oflag', 0o10000, 'u', T.TABDLY),
  m('tab1', 'oflag', 0o4000, 'u', T.TABDLY), m('tab0', 'oflag', 0, 's', T.TABDLY),
  m('bs1', 'oflag', 0o20000, 'u', T.BSDLY), m('bs0', 'oflag', 0, 's', T.BSDLY),
  m('vt1', 'oflag', 0o40000, 'u', T.VTDLY), m('vt0', 'oflag', 0, 's', T.VTDLY),
  m('ff1', 'oflag', 0o100000, 'u', T.FFDLY), m('ff0', 'oflag', 0, 's', T.FFDLY),

  m('isig', 'lflag', T.ISIG, 'sr'), m('icanon', 'lflag', T.ICANON, 'sr'), m('iexten', 'lflag', T.IEXTEN, 'sr'),
  m('echo', 'lflag', T.ECHO, 'sr'), m('echoe', 'lflag', T.ECHOE, 'sr'), m('crterase', 'lflag', T.ECHOE, 'ro'),
  m('echok', 'lflag', T.ECHOK, 'sr'), m('echonl', 'lflag', T.ECHONL, 'ur'), m('noflsh', 'lflag', T.NOFLSH, 'ur'),
  m('xcase', 'lflag', T.XCASE, 'ur'), m('tostop', 'lflag', T.TOSTOP, 'ur'), m('echoprt', 'lflag', T.ECHOPRT, 'ur'),
  m('prterase', 'lflag', T.ECHOPRT, 'ro'), m('echoctl', 'lflag', T.ECHOCTL, 'sr'), m('ctlecho', 'lflag', T.ECHOCTL, 'ro'),
  m('echoke', 'lflag', T.ECHOKE, 'sr'), m('crtkill', 'lflag', T.ECHOKE, 'ro'), m('flusho', 'lflag', T.FLUSHO, 'ur'),
  m('extproc', 'lflag', T.EXTPROC, 'ur'),
];

/** Special characters in display order, with their sane values (0 = <undef>). */
export const CONTROLS: [name: string, index: number, sane: number][] = [
  ['intr', T.VINTR, 3], ['quit', T.VQUIT, 28], ['erase', T.VERASE, 127], ['kill', T.VKILL, 21], ['eof', T.VEOF, 4],
  ['eol', T.VEOL, 0], ['eol2', T.VEOL2, 0], ['swtch', T.VSWTC, 0], ['start', T.VSTART, 17], ['stop', T.VSTOP, 19],
  ['susp', T.VSUSP, 26], ['rprnt', T.VREPRINT, 18], ['werase', T.VWERASE, 23], ['lnext', T.VLNEXT, 22],
  ['discard', T.VDISCARD, 15],
];

export function setMode(t: Termios, info: ModeInfo, negate: boolean): void {
  const mask = info.mask || info.bits;
  t[info.field] = negate ? t[info.field] & ~mask & ~info.bits : (t[info.field] & ~mask) | info.bits;
  t[info.field] >>>= 0;
}

/** `stty sane`: every special character and every mode with a sane value back to it. */
export function sane(t: Termios): void {
  for (const [, i, v] of CONTROLS) t.cc[i] = v;
  t.cc[T.VMIN] = 1;
  t.cc[T.VTIME] = 0;
  for (const info of MODES) {
    if (info.sane === 'set') setMode(t, info, false);
    else if (info.sane === 'unset') setMode(t, info, true);
  }
}

/** Combination settings as lists of simpler ones ('-NAME' forms are entries of their own). */
export const COMBOS: Record<string, string[]> = {
  evenp: ['parenb', '-parodd', 'cs7'], parity: ['parenb', '-parodd', 'cs7'],
  '-evenp': ['-parenb', 'cs8'], '-parity': ['-parenb', 'cs8'],
  oddp: ['parenb', 'parodd', 'cs7'], '-oddp': ['-parenb', 'cs8'],
  nl: ['-icrnl', '-onlcr'], '-nl': ['icrnl', '-inlcr', '-igncr', 'onlcr', '-ocrnl', '-onlret'],
  ek: ['erase', '\x7f', 'kill', '\x15'],
  cooked: ['brkint', 'ignpar', 'istrip', 'icrnl', 'ixon', 'opost', 'isig', 'icanon'],
  '-raw': ['brkint', 'ignpar', 'istrip', 'icrnl', 'ixon', 'opost', 'isig', 'icanon'],
  // raw also clears every input flag (see RAW_CLEARS_IFLAG).
  raw: ['-opost', '-isig', '-icanon', '-xcase', 'min', '1', 'time', '0'],
  pass8: ['-parenb', '-istrip', 'cs8'], '-pass8': ['parenb', 'istrip', 'cs7'],
  litout: ['-parenb', '-istrip', '-opost', 'cs8'], '-litout': ['parenb', 'istrip', 'opost', 'cs7'],
  cbreak: ['-icanon'], '-cbreak': ['icanon'],
  decctlq: ['-ixany'], '-decctlq': ['ixany'],
  tabs: ['tab0'], '-tabs': ['tab3'],
  lcase: ['xcase', 'iuclc', 'olcuc'], LCASE: ['xcase', 'iuclc', 'olcuc'],
  '-lcase': ['-xcase', '-iuclc', '-olcuc'], '-LCASE': ['-xcase', '-iuclc', '-olcuc'],
  crt: ['echoe', 'echoctl', 'echoke'],
  dec: ['echoe', 'echoctl', 'echoke', '-ixany', 'intr', '\x03', 'erase', '\x7f', 'kill', '\x15'],
};
COMBOS['-cooked'] = COMBOS.raw;

/** raw and -cooked set the whole input flag word to 0, as GNU does. */
export const RAW_CLEARS_IFLAG = new Set(['raw', '-cooked']);

export const SPEEDS = [
  0, 50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800,
  500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000,
];

/** A baud rate operand ("9600", "134.5", "exta", "extb"), or null. */
export function baud(s: string): number | null {
  if (s === 'exta') return 19200;
  if (s === 'extb') return 38400;
  if (s === '134.5') return 134;
  return /^\d+$/.test(s) && SPEEDS.includes(Number(s)) ? Number(s) : null;
}

/** How a special character reads in `stty -a`: ^C, ^?, M-x, <undef>. */
export function visible(ch: number): string {
  if (ch === 0) return '<undef>';
  if (ch < 32) return `^${String.fromCharCode(ch + 64)}`;
  if (ch < 127) return String.fromCharCode(ch);
  if (ch === 127) return '^?';
  if (ch >= 160) return `M-${ch < 255 ? String.fromCharCode(ch - 128) : '^?'}`;
  return `M-^${String.fromCharCode(ch - 128 + 64)}`;
}
