// ps output columns: procps-ng's header names, widths and alignment. A
// value wider than its column pushes the rest of the line right, as in procps.

import type { Sys } from '../../../libc/sys.js';
import { groupName, userName } from '../../../userland/lib/index.js';
import { commandLine, type Proc } from './proc.js';
import { bsdTime, cputime, elapsed, started, startTime } from './timefmt.js';

export interface Ctx {
  sys: Sys;
  now: number;
  memKiB: number;
}

export interface Column {
  header: string;
  width: number;
  left: boolean;
  /** The command columns: unlimited when last, cut to the width otherwise. */
  wide?: boolean;
  get: (p: Proc, c: Ctx) => string;
}

/** User names longer than the column end in '+' (procps). */
const user = (sys: Sys, uid: number, w = 8): string => {
  const n = userName(sys, uid) ?? String(uid);
  return n.length > w ? `${n.slice(0, w - 1)}+` : n;
};

/** STAT: the state letter, 's' for a session leader, '+' in the foreground group. */
export function stat(p: Proc): string {
  let s = p.state;
  if (p.nice < 0) s += '<';
  else if (p.nice > 0) s += 'N';
  if (p.pid === p.sid) s += 's';
  if (p.tpgid === p.pgid && p.tty !== 0) s += '+';
  return s;
}

/** No process has a controlling terminal number we can name: "?" unless one is set. */
const tty = (p: Proc): string => (p.tty === 0 ? '?' : `pts/${p.tty & 0xff}`);

const pct = (part: number, whole: number): string => (whole > 0 ? ((part * 100) / whole).toFixed(1) : '0.0');

const num = (header: string, width: number, get: (p: Proc) => number): Column => ({
  header, width, left: false, get: (p) => String(get(p)),
});

const text = (header: string, width: number, get: (p: Proc, c: Ctx) => string, right = false): Column => ({
  header, width, left: !right, get,
});

const cmd = (header: string, width: number, get: (p: Proc) => string): Column => ({
  header, width, left: true, wide: true, get,
});

/** Format keywords (ps -o), each with its procps default header. */
export const COLUMNS: Record<string, Column> = {
  pid: num('PID', 5, (p) => p.pid),
  ppid: num('PPID', 5, (p) => p.ppid),
  pgid: num('PGID', 5, (p) => p.pgid),
  pgrp: num('PGRP', 5, (p) => p.pgid),
  sid: num('SID', 5, (p) => p.sid),
  sess: num('SESS', 5, (p) => p.sid),
  session: num('SESS', 5, (p) => p.sid),
  tpgid: num('TPGID', 5, (p) => p.tpgid),
  uid: num('UID', 5, (p) => p.uid),
  euid: num('EUID', 5, (p) => p.uid),
  ruid: num('RUID', 5, (p) => p.uid),
  gid: num('GID', 5, (p) => p.gid),
  egid: num('EGID', 5, (p) => p.gid),
  rgid: num('RGID', 5, (p) => p.gid),
  user: text('USER', 8, (p, c) => user(c.sys, p.uid)),
  euser: text('EUSER', 8, (p, c) => user(c.sys, p.uid)),
  ruser: text('RUSER', 8, (p, c) => user(c.sys, p.uid)),
  uname: text('USER', 8, (p, c) => user(c.sys, p.uid)),
  group: text('GROUP', 8, (p, c) => groupName(c.sys, p.gid) ?? String(p.gid)),
  egroup: text('EGROUP', 8, (p, c) => groupName(c.sys, p.gid) ?? String(p.gid)),
  comm: cmd('COMMAND', 15, (p) => p.comm),
  ucmd: cmd('CMD', 15, (p) => p.comm),
  ucomm: cmd('COMMAND', 15, (p) => p.comm),
  fname: text('COMMAND', 8, (p) => p.comm.slice(0, 8)),
  args: cmd('COMMAND', 27, commandLine),
  cmd: cmd('CMD', 27, commandLine),
  command: cmd('COMMAND', 27, commandLine),
  stat: text('STAT', 4, stat),
  s: text('S', 1, (p) => p.state),
  state: text('S', 1, (p) => p.state),
  tty: text('TT', 8, tty),
  tt: text('TT', 8, tty),
  tname: text('TTY', 8, tty),
  time: text('TIME', 8, (p) => cputime(p.cpuTicks), true),
  cputime: text('TIME', 8, (p) => cputime(p.cpuTicks), true),
  bsdtime: text('TIME', 6, (p) => bsdTime(p.cpuTicks), true),
  etime: text('ELAPSED', 11, (p, c) => elapsed(c.now - p.startMs), true),
  etimes: num('ELAPSED', 7, (p) => Math.max(0, Math.floor((Date.now() - p.startMs) / 1000))),
  stime: text('STIME', 5, (p, c) => startTime(p.startMs, c.now)),
  start_time: text('START', 5, (p, c) => startTime(p.startMs, c.now)),
  bsdstart: text('START', 5, (p, c) => startTime(p.startMs, c.now), true),
  start: text('STARTED', 8, (p, c) => started(p.startMs, c.now), true),
  pcpu: text('%CPU', 4, () => '0.0', true),
  '%cpu': text('%CPU', 4, () => '0.0', true),
  pmem: text('%MEM', 4, (p, c) => pct(p.rssKiB, c.memKiB), true),
  '%mem': text('%MEM', 4, (p, c) => pct(p.rssKiB, c.memKiB), true),
  c: num('C', 2, () => 0),
  vsz: num('VSZ', 6, (p) => p.vszKiB),
  vsize: num('VSZ', 6, (p) => p.vszKiB),
  rss: num('RSS', 5, (p) => p.rssKiB),
  rssize: num('RSS', 5, (p) => p.rssKiB),
  ni: num('NI', 3, (p) => p.nice),
  nice: num('NI', 3, (p) => p.nice),
  pri: num('PRI', 3, (p) => 39 - p.priority),
  nlwp: num('NLWP', 4, () => 1),
  wchan: text('WCHAN', 6, (p) => (p.state === 'R' ? '-' : '0')),
};

/** The standard formats (-f, BSD u, the default, BSD x): each item "key" or "key=HEADER". */
export const FORMATS = {
  plain: ['pid', 'tname', 'time', 'ucmd'],
  full: ['user=UID', 'pid', 'ppid', 'c', 'stime', 'tname', 'time', 'cmd'],
  bsd: ['pid', 'tname', 'stat', 'bsdtime', 'args'],
  user: ['user', 'pid', '%cpu', '%mem', 'vsz', 'rss', 'tname', 'stat', 'bsdstart', 'bsdtime', 'args'],
};

/** Lay out rows: each cell padded to its column, overflow shifting the rest right. */
export function render(cols: Column[], rows: string[][]): string[] {
  return rows.map((cells) => {
    let line = '';
    let debt = 0;
    cells.forEach((v, i) => {
      const col = cols[i];
      const last = i === cols.length - 1;
      const cell = col.wide && !last ? v.slice(0, col.width) : v;
      if (i > 0) line += ' ';
      const room = Math.max(0, col.width - debt);
      if (col.left) line += last ? cell : cell.padEnd(room);
      else line += cell.padStart(room);
      debt = Math.max(0, cell.length - room);
    });
    return line.replace(/ +$/, '');
  });
}
