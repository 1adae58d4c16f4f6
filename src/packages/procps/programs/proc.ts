// Reading the process table from /proc, the only source these tools use:
// /proc/<pid>/stat for ids, state and times, status for the owner, cmdline
// for arguments. A process that exits while being read is skipped.

import type { Sys } from '../../../libc/sys.js';

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  tty: number;
  tpgid: number;
  comm: string;
  /** One letter: R S T Z (as /proc/<pid>/stat gives it). */
  state: string;
  uid: number;
  gid: number;
  nice: number;
  priority: number;
  /** Clock ticks of user + system CPU time (agentOS: always 0). */
  cpuTicks: number;
  /** Start time, ms since the epoch. */
  startMs: number;
  /** Virtual size in KiB and resident set in KiB (agentOS: 0). */
  vszKiB: number;
  rssKiB: number;
  /** argv; empty for zombies (their memory is gone). */
  argv: string[];
}

const utf8 = new TextDecoder();
export const CLK_TCK = 100;

export function readText(sys: Sys, path: string): string | null {
  try {
    return utf8.decode(sys.readFile(path));
  } catch {
    return null;
  }
}

/** Boot time in ms since the epoch, from /proc/uptime. */
export function bootMs(sys: Sys): number {
  return Date.now() - uptimeSeconds(sys) * 1000;
}

export function uptimeSeconds(sys: Sys): number {
  const t = readText(sys, '/proc/uptime');
  return t ? Number(t.split(' ')[0]) || 0 : 0;
}

/** agentOS programs are scripts run by the JS runtime; show them as their own command. */
const RUNTIME = '/usr/libexec/agentos/js';
const dropRuntime = (argv: string[]): string[] => (argv[0] === RUNTIME && argv.length > 1 ? argv.slice(1) : argv);

/** One process, or null when it is gone. */
export function readProc(sys: Sys, pid: number, boot = bootMs(sys)): Proc | null {
  const stat = readText(sys, `/proc/${pid}/stat`);
  const status = readText(sys, `/proc/${pid}/status`);
  if (stat === null || status === null) return null;
  // comm may hold spaces and parentheses: it runs to the last ')'.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const f = stat.slice(close + 2).trim().split(' ');
  const n = (i: number): number => Number(f[i]) || 0;
  const ids = (key: string): number => Number(new RegExp(`^${key}:\\t(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  const cmdline = readText(sys, `/proc/${pid}/cmdline`) ?? '';
  return {
    pid,
    comm: stat.slice(open + 1, close),
    state: f[0] ?? '?',
    ppid: n(1),
    pgid: n(2),
    sid: n(3),
    tty: n(4),
    tpgid: n(5),
    cpuTicks: n(11) + n(12),
    priority: n(15),
    nice: n(16),
    startMs: boot + (n(19) * 1000) / CLK_TCK,
    vszKiB: Math.floor(n(20) / 1024),
    rssKiB: n(21) * 4,
    uid: ids('Uid'),
    gid: ids('Gid'),
    argv: dropRuntime(cmdline ? cmdline.replace(/\0$/, '').split('\0') : []),
  };
}

/** Every process, by pid. */
export function readProcs(sys: Sys): Proc[] {
  const boot = bootMs(sys);
  const pids: number[] = [];
  for (const e of sys.readdir('/proc')) if (/^\d+$/.test(e.name)) pids.push(Number(e.name));
  pids.sort((a, b) => a - b);
  const out: Proc[] = [];
  for (const pid of pids) {
    const p = readProc(sys, pid, boot);
    if (p) out.push(p);
  }
  return out;
}

/** The command line as ps shows it: argv joined, or [comm] when there is none. */
export const commandLine = (p: Proc): string => (p.argv.length ? p.argv.join(' ') : `[${p.comm}]`);

/** Total memory in KiB (for %MEM), from /proc/meminfo. */
export function memTotalKiB(sys: Sys): number {
  return meminfo(sys).get('MemTotal') ?? 0;
}

export function meminfo(sys: Sys): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of (readText(sys, '/proc/meminfo') ?? '').split('\n')) {
    const r = /^([^:]+):\s+(\d+)/.exec(line);
    if (r) m.set(r[1], Number(r[2]));
  }
  return m;
}
