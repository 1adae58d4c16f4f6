// The text of /proc/<pid>/status and /proc/<pid>/stat in Linux's exact layout,
// so ps-style parsers work. Values we do not track are reported as 0.

import { SIG_HANDLE, SIG_IGN } from '../../../abi/signal.js';
import type { Process, ProcState } from '../../process.js';

/** USER_HZ: /proc reports times in clock ticks of 1/100 s. */
export const CLK_TCK = 100;

const STATE_TEXT: Record<ProcState, string> = {
  R: 'R (running)',
  S: 'S (sleeping)',
  T: 'T (stopped)',
  Z: 'Z (zombie)',
};

/** Full capability set of Linux 6.x (41 capabilities). */
const CAP_FULL = '000001ffffffffff';
const CAP_NONE = '0000000000000000';
const SIGCHLD = 17;

/** The kernel keeps signal `s` at bit `s`; Linux's sigset_t puts it at bit s-1. */
const sigset = (mask: number): number => mask >>> 1;
const hex16 = (mask: number): string => sigset(mask).toString(16).padStart(16, '0');

function dispositionMask(p: Process, which: number): number {
  let mask = 0;
  p.dispositions.forEach((d, sig) => {
    if (sig > 0 && d === which) mask |= 1 << sig;
  });
  return mask;
}

/** Ticks since boot at which the process started. */
export function startTicks(p: Process, bootMs: number): number {
  return Math.max(0, Math.round(((p.startMs - bootMs) * CLK_TCK) / 1000));
}

/** FDSize: the fd table's capacity, which Linux grows in powers of two from 64. */
function fdSize(p: Process): number {
  let top = -1;
  for (const [fd] of p.fds.entries()) top = Math.max(top, fd);
  let size = 64;
  while (size <= top) size *= 2;
  return size;
}

/** status escapes the name so a newline in comm cannot fake a field. */
const escapeName = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

export function statusText(p: Process): string {
  // Real, effective, saved and filesystem ids (the saved and filesystem ones follow the effective).
  const ids = (real: number, id: number): string => `${real}\t${id}\t${id}\t${id}`;
  const caps = p.uid === 0 ? CAP_FULL : CAP_NONE;
  const lines = [
    `Name:\t${escapeName(p.comm)}`,
    `Umask:\t${p.umask.toString(8).padStart(4, '0')}`,
    `State:\t${STATE_TEXT[p.state]}`,
    `Tgid:\t${p.pid}`,
    'Ngid:\t0',
    `Pid:\t${p.pid}`,
    `PPid:\t${p.ppid}`,
    'TracerPid:\t0',
    `Uid:\t${ids(p.ruid, p.uid)}`,
    `Gid:\t${ids(p.rgid, p.gid)}`,
    `FDSize:\t${fdSize(p)}`,
    `Groups:\t${p.groups.map((g) => `${g} `).join('')}`,
    `NStgid:\t${p.pid}`,
    `NSpid:\t${p.pid}`,
    `NSpgid:\t${p.pgid}`,
    `NSsid:\t${p.sid}`,
    `Threads:\t1`,
    'SigQ:\t0/0', // queued/RLIMIT_SIGPENDING: no real-time signal queue
    `SigPnd:\t${hex16(0)}`,
    `ShdPnd:\t${hex16(p.pending)}`,
    `SigBlk:\t${hex16(p.blocked)}`,
    `SigIgn:\t${hex16(dispositionMask(p, SIG_IGN))}`,
    `SigCgt:\t${hex16(dispositionMask(p, SIG_HANDLE))}`,
    `CapInh:\t${CAP_NONE}`,
    `CapPrm:\t${caps}`,
    `CapEff:\t${caps}`,
    `CapBnd:\t${CAP_FULL}`,
    `CapAmb:\t${CAP_NONE}`,
    'NoNewPrivs:\t0',
    'Seccomp:\t0',
    'voluntary_ctxt_switches:\t0',
    'nonvoluntary_ctxt_switches:\t0',
  ];
  return lines.join('\n') + '\n';
}

/** The 52 fields of proc(5)'s /proc/<pid>/stat, in order. */
export function statText(p: Process, bootMs: number): string {
  const fields: (number | string)[] = [
    p.pid, `(${p.comm})`, p.state, p.ppid, p.pgid, p.sid,
    // tty_nr in Linux's encoding (a pts is major 136) and the terminal's foreground group.
    p.ctty ? (136 << 8) | (p.ctty.index & 0xff) | ((p.ctty.index & ~0xff) << 12) : 0, p.ctty ? p.ctty.pgrp || -1 : -1,
    0, // flags
    0, 0, 0, 0, // minflt cminflt majflt cmajflt
    0, 0, 0, 0, // utime stime cutime cstime: CPU time is not measured
    20, 0, 1, 0, // priority nice num_threads itrealvalue
    startTicks(p, bootMs),
    0, 0, '18446744073709551615', // vsize rss rsslim (RLIM_INFINITY)
    0, 0, 0, 0, 0, // startcode endcode startstack kstkesp kstkeip
    sigset(p.pending), sigset(p.blocked),
    sigset(dispositionMask(p, SIG_IGN)), sigset(dispositionMask(p, SIG_HANDLE)),
    0, 0, 0, // wchan nswap cnswap
    SIGCHLD, 0, 0, 0, // exit_signal processor rt_priority policy
    0, 0, 0, // delayacct_blkio_ticks guest_time cguest_time
    0, 0, 0, 0, 0, 0, 0, // start_data end_data start_brk arg_start arg_end env_start env_end
    p.alive ? 0 : p.status, // exit_code
  ];
  return fields.join(' ') + '\n';
}
