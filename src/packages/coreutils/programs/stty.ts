// stty [-F DEVICE] [-a | -g | SETTING...]: print or change terminal settings.
// Settings are checked before the device is touched, so a bad argument is
// reported even without a terminal; then anything but a terminal fails with
// "Inappropriate ioctl for device", as GNU's does.

import { O_NONBLOCK, O_RDONLY } from '../../../abi/fcntl.js';
import { CBAUD, ICANON, NCCS, VMIN, VTIME, type Termios } from '../../../abi/termios.js';
import { command, quote, quotef, setWinsize, tcgetattr, tcsetattr, VERSION, winsize, type Cmd } from '../../../userland/lib/index.js';
import { baud, COMBOS, CONTROLS, MODES, RAW_CLEARS_IFLAG, sane, setMode, SPEEDS, visible, type ModeInfo } from './stty-modes.js';

const USAGE = `Usage: stty [-F DEVICE | --file=DEVICE] [SETTING]...
  or:  stty [-F DEVICE | --file=DEVICE] [-a|--all]
  or:  stty [-F DEVICE | --file=DEVICE] [-g|--save]
Print or change terminal characteristics.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all          print all current settings in human-readable form
  -g, --save         print all current settings in a stty-readable form
  -F, --file=DEVICE  open and use the specified DEVICE instead of stdin
      --help     display this help and exit
      --version  output version information and exit

Optional - before SETTING indicates negation.  An * marks non-POSIX
settings.  The underlying system defines which settings are available.

Special characters: intr quit erase kill eof eol eol2 swtch start stop susp
rprnt werase lnext discard CHAR, or ^X, ^?, ^- or undef; min N; time N.
Special settings: N (speed), ispeed N, ospeed N, cols N, columns N, rows N,
size, speed, line N.
Modes: [-]parenb [-]parodd [-]cmspar cs5 cs6 cs7 cs8 [-]hupcl [-]cstopb
[-]cread [-]clocal [-]crtscts [-]ignbrk [-]brkint [-]ignpar [-]parmrk [-]inpck
[-]istrip [-]inlcr [-]igncr [-]icrnl [-]ixon [-]ixoff [-]iuclc [-]ixany
[-]imaxbel [-]iutf8 [-]opost [-]olcuc [-]ocrnl [-]onlcr [-]onocr [-]onlret
[-]ofill [-]ofdel nl0 nl1 cr0 cr1 cr2 cr3 tab0 tab1 tab2 tab3 bs0 bs1 vt0 vt1
ff0 ff1 [-]isig [-]icanon [-]iexten [-]echo [-]echoe [-]echok [-]echonl
[-]noflsh [-]xcase [-]tostop [-]echoprt [-]echoctl [-]echoke [-]flusho
[-]extproc.
Combinations: [-]evenp [-]parity [-]oddp [-]nl ek sane [-]cooked [-]raw
[-]pass8 [-]litout [-]cbreak [-]decctlq [-]tabs [-]lcase crt dec.
`;

type Style = 'changed' | 'all' | 'save';

interface State {
  t: Termios;
  fd: number;
  name: string;
  /** Attributes changed: write them back and check they took. */
  dirty: boolean;
}

export const stty = command({ name: 'stty', usage: USAGE, rawArgs: true }, (c) => {
  let style: Style = 'changed';
  let all = false;
  let save = false;
  let device: string | null = null;
  const settings: string[] = [];
  const args = c.operands;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help') return void c.out.write(USAGE);
    if (a === '--version') return void c.out.write(`stty (${VERSION})\n`);
    if (a === '--all' || a === '--save' || /^-[ag]+$/.test(a)) {
      all ||= a === '--all' || (a[1] !== '-' && a.includes('a'));
      save ||= a === '--save' || (a[1] !== '-' && a.includes('g'));
    } else if (((a === '-F' || a === '--file') && i + 1 < args.length) || a.startsWith('--file=') || (a.startsWith('-F') && a.length > 2)) {
      if (device !== null) c.fail('only one device may be specified');
      device = a === '-F' || a === '--file' ? args[++i] : a.startsWith('--file=') ? a.slice(7) : a.slice(2);
    } else settings.push(a);
  }
  if (all && save) c.fail('the options for verbose and stty-readable output styles are\nmutually exclusive');
  if (all) style = 'all';
  if (save) style = 'save';
  if ((all || save) && settings.length) c.fail('when specifying an output style, modes may not be set');
  apply(c, settings, null);

  const name = device ?? 'standard input';
  let fd = 0;
  if (device !== null) {
    try {
      fd = c.sys.open(device, O_RDONLY | O_NONBLOCK);
    } catch (e) {
      c.sysError(quotef(device), e);
      return c.exit(1);
    }
  }
  let t: Termios;
  try {
    t = tcgetattr(c.sys, fd);
  } catch (e) {
    c.sysError(quotef(name), e);
    return c.exit(1);
  }
  if (settings.length === 0) return display(c, t, fd, style);
  const st: State = { t, fd, name, dirty: false };
  apply(c, settings, st);
  if (st.dirty) {
    try {
      tcsetattr(c.sys, fd, st.t);
      if (JSON.stringify(tcgetattr(c.sys, fd)) !== JSON.stringify(st.t)) c.fail(`${quotef(name)}: unable to perform all requested operations`);
    } catch (e) {
      if (!(e instanceof c.os.SysError)) throw e;
      c.sysError(quotef(name), e);
      return c.exit(1);
    }
  }
});

/** Walk the settings: with no state only check them (the first pass); else change the state. */
function apply(c: Cmd, settings: string[], st: State | null): void {
  const t = st?.t;
  const dirty = () => {
    if (st) st.dirty = true;
  };
  const argument = (k: number): string => {
    if (k + 1 >= settings.length) c.usage(`missing argument to ${quote(settings[k])}`);
    return settings[k + 1];
  };
  for (let k = 0; k < settings.length; k++) {
    const arg = settings[k];
    const reversed = arg.startsWith('-');
    const name = reversed ? arg.slice(1) : arg;
    const mode = MODES.find((m) => m.name === name);
    if (mode && (!reversed || mode.rev)) {
      if (t) setMode(t, mode, reversed);
      dirty();
      continue;
    }
    if (arg === 'sane' || arg in COMBOS) {
      if (t) combo(t, arg);
      dirty();
      continue;
    }
    const control = CONTROLS.find(([n]) => n === arg);
    if (control || arg === 'min' || arg === 'time') {
      const v = argument(k++);
      const value = control ? controlChar(c, v) : integer(c, v, 255);
      if (t) t.cc[control ? control[1] : arg === 'min' ? VMIN : VTIME] = value;
      dirty();
      continue;
    }
    if (arg === 'line') {
      const v = integer(c, argument(k++), Number.MAX_SAFE_INTEGER);
      // Too big for the byte it goes in: said, then truncated.
      if (v > 255) c.warn(`invalid line discipline ${quote(settings[k])}`);
      if (t) t.line = v % 256;
      dirty();
      continue;
    }
    if (arg === 'ispeed' || arg === 'ospeed') {
      const v = argument(k++);
      if (t) setSpeed(c, t, v, arg);
      dirty();
      continue;
    }
    if (arg === 'rows' || arg === 'cols' || arg === 'columns') {
      const v = argument(k++);
      if (st) resize(c, st, arg === 'rows' ? 'rows' : 'cols', integer(c, v, 0x7fffffff));
      continue;
    }
    if (arg === 'size' || arg === 'speed') {
      if (st && arg === 'size') {
        const w = winsize(c.sys, st.fd);
        if (!w) c.fail(`${quotef(st.name)}: Inappropriate ioctl for device`);
        c.out.write(`${w.rows} ${w.cols}\n`);
      } else if (st) c.out.write(speedText(st.t, false));
      continue;
    }
    if (baud(arg) !== null) {
      if (t) setSpeed(c, t, arg, 'both');
      dirty();
      continue;
    }
    if (recover(arg)) {
      if (t) Object.assign(t, recover(arg));
      dirty();
      continue;
    }
    c.usage(`invalid argument ${quote(arg)}`);
  }
}

function combo(t: Termios, name: string): void {
  if (name === 'sane') return sane(t);
  if (RAW_CLEARS_IFLAG.has(name)) t.iflag = 0;
  const list = COMBOS[name];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const control = CONTROLS.find(([n]) => n === item);
    if (control || item === 'min' || item === 'time') {
      const v = list[++i];
      t.cc[control ? control[1] : item === 'min' ? VMIN : VTIME] = control ? v.charCodeAt(0) : Number(v);
      continue;
    }
    const neg = item.startsWith('-');
    setMode(t, MODES.find((m) => m.name === (neg ? item.slice(1) : item)) as ModeInfo, neg);
  }
}

/** GNU's integer_arg: decimal, 0x hex or 0 octal, at most `max`. */
function integer(c: Cmd, s: string, max: number): number {
  const n = /^0[xX][0-9a-fA-F]+$/.test(s) ? parseInt(s, 16) : /^0[0-7]*$/.test(s) ? parseInt(s, 8) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(n <= max)) c.fail(`invalid integer argument: ${quote(s)}`);
  return n;
}

/** A special character: one character, ^X, ^?, ^- or undef, or a number. */
function controlChar(c: Cmd, s: string): number {
  if (s === '^-' || s === 'undef') return 0;
  if (s.length === 1) return s.charCodeAt(0);
  if (s[0] === '^' && s.length === 2) return s[1] === '?' ? 127 : s.charCodeAt(1) & ~0o140 & 0xff;
  return integer(c, s, 255);
}

const baudCode = (speed: number): number => {
  const i = SPEEDS.indexOf(speed);
  return i < 16 ? i : 0o10000 + (i - 15);
};

function setSpeed(c: Cmd, t: Termios, v: string, which: 'ispeed' | 'ospeed' | 'both'): void {
  const b = baud(v);
  if (b === null) c.fail(`invalid ${which === 'both' ? 'speed' : which} ${quote(v)}`);
  if (which !== 'ospeed') t.ispeed = b;
  if (which !== 'ispeed') {
    t.ospeed = b;
    t.cflag = ((t.cflag & ~CBAUD) | baudCode(b)) >>> 0;
  }
}

function resize(c: Cmd, st: State, which: 'rows' | 'cols', n: number): void {
  const w = winsize(c.sys, st.fd) ?? { rows: 0, cols: 0 };
  setWinsize(c.sys, st.fd, { ...w, [which]: n });
}

/** The -g form: iflag:oflag:cflag:lflag:cc0:...:cc31 in hex. */
function recover(s: string): Termios | null {
  const parts = s.split(':');
  if (parts.length !== 4 + NCCS || !parts.every((p) => /^[0-9a-fA-F]+$/.test(p))) return null;
  const n = parts.map((p) => parseInt(p, 16));
  if (n.slice(4).some((v) => v > 255)) return null;
  const cbaud = n[2] & CBAUD;
  const speed = SPEEDS.find((sp) => baudCode(sp) === cbaud) ?? 0;
  return { iflag: n[0], oflag: n[1], cflag: n[2], lflag: n[3], line: 0, cc: n.slice(4), ispeed: speed, ospeed: speed };
}

function speedText(t: Termios, fancy: boolean): string {
  if (t.ispeed === 0 || t.ispeed === t.ospeed) return fancy ? `speed ${t.ospeed} baud;` : `${t.ospeed}\n`;
  return fancy ? `ispeed ${t.ispeed} baud; ospeed ${t.ospeed} baud;` : `${t.ispeed} ${t.ospeed}\n`;
}

/** GNU's wrapf: items separated by spaces, a new line before one that would reach the width. */
class Wrap {
  col = 0;

  constructor(
    private readonly c: Cmd,
    private readonly width: number,
  ) {}

  item(s: string): void {
    if (this.col > 0) {
      if (this.width - this.col < s.length) {
        this.c.out.write('\n');
        this.col = 0;
      } else {
        this.c.out.write(' ');
        this.col++;
      }
    }
    this.c.out.write(s);
    this.col += s.length;
  }

  newline(): void {
    this.c.out.write('\n');
    this.col = 0;
  }
}

function display(c: Cmd, t: Termios, fd: number, style: Style): void {
  if (style === 'save') {
    const hex = (n: number) => (n >>> 0).toString(16);
    c.out.write(`${[t.iflag, t.oflag, t.cflag, t.lflag, ...t.cc].map(hex).join(':')}\n`);
    return;
  }
  const cols = winsize(c.sys, 1)?.cols ?? 0;
  const env = Number(c.os.env.COLUMNS);
  const w = new Wrap(c, cols > 0 ? cols : Number.isInteger(env) && env > 0 ? env : 80);
  const flags = (info: ModeInfo) => ((t[info.field] & (info.mask || info.bits)) >>> 0) === info.bits;
  w.item(speedText(t, true));
  if (style === 'all') {
    const size = winsize(c.sys, fd);
    if (size) w.item(`rows ${size.rows}; columns ${size.cols};`);
  }
  w.item(`line = ${t.line};`);
  w.newline();
  const canonical = (t.lflag & ICANON) !== 0;
  let empty = true;
  for (const [name, i, saneValue] of CONTROLS) {
    if (style === 'changed' && t.cc[i] === saneValue) continue;
    w.item(`${name} = ${visible(t.cc[i])};`);
    empty = false;
  }
  if (style === 'all') {
    w.item(`min = ${t.cc[VMIN]}; time = ${t.cc[VTIME]};`);
    if (w.col) w.newline();
  } else if (!canonical) {
    w.item(`min = ${t.cc[VMIN]}; time = ${t.cc[VTIME]};\n`);
    w.col = 0;
  } else if (!empty) w.newline();
  w.col = 0;
  let field = MODES[0].field;
  empty = true;
  for (const info of MODES) {
    if (info.omit) continue;
    if (info.field !== field) {
      if (style === 'all' || !empty) w.newline();
      empty = true;
      field = info.field;
    }
    const on = flags(info);
    if (style === 'all') {
      if (on) w.item(info.name);
      else if (info.rev) w.item(`-${info.name}`);
    } else if (on ? info.sane === 'unset' : info.sane === 'set' && info.rev) {
      w.item(on ? info.name : `-${info.name}`);
      empty = false;
    }
  }
  if (style === 'all' || !empty) w.newline();
}
