// top -b [-n ITERATIONS] [-d DELAY] [-p PID,...] [-u USER] [-w COLS] [-c]
// Display processes, batch mode only: each iteration prints the summary
// (uptime, tasks, CPU, memory) and the process list, like procps-ng top -b.
// agentOS does not measure CPU time or memory per process: %CPU, TIME+, VIRT,
// RES and SHR are 0. The interactive screen is not implemented.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, users, type Cmd } from '../../../userland/lib/index.js';
import { stat } from './ps-columns.js';
import { commandLine, meminfo, readProcs, type Proc } from './proc.js';
import { uptimeLine } from './timefmt.js';

const USAGE = `
Usage:
  top -hv | -bcEeHiOSs1 -d secs -n max -u|U user -p pid(s) -o field -w [cols]

agentOS: batch mode (-b) only; CPU time and memory per process are not
tracked and show as 0.
`;

const f1 = (n: number, w: number): string => n.toFixed(1).padStart(w);

function summary(c: Cmd, procs: Proc[]): string {
  const count = (s: string) => procs.filter((p) => p.state === s).length;
  const running = count('R');
  const stopped = count('T');
  const zombie = count('Z');
  const sleeping = procs.length - running - stopped - zombie;
  const m = meminfo(c.sys);
  const mib = (k: string): number => (m.get(k) ?? 0) / 1024;
  const total = mib('MemTotal');
  const avail = m.has('MemAvailable') ? mib('MemAvailable') : mib('MemFree');
  const cache = mib('Buffers') + mib('Cached') + mib('SReclaimable');
  const swapT = mib('SwapTotal');
  const swapF = mib('SwapFree');
  return [
    `top -${uptimeLine(c.sys)}`,
    `Tasks:${String(procs.length).padStart(4)} total,${String(running).padStart(4)} running,${String(sleeping).padStart(4)} sleeping,${String(stopped).padStart(4)} stopped,${String(zombie).padStart(4)} zombie`,
    `%Cpu(s):${['us', 'sy', 'ni', 'id', 'wa', 'hi', 'si', 'st'].map((k) => `${f1(k === 'id' ? 100 : 0, 5)} ${k}`).join(',')} `,
    `MiB Mem :${f1(total, 9)} total,${f1(mib('MemFree'), 9)} free,${f1(total - avail, 9)} used,${f1(cache, 9)} buff/cache     `,
    `MiB Swap:${f1(swapT, 9)} total,${f1(swapF, 9)} free,${f1(swapT - swapF, 9)} used.${f1(avail, 9)} avail Mem `,
    '',
  ].join('\n') + '\n';
}

const HEAD = '  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND';

function row(c: Cmd, p: Proc, cols: number, memKiB: number): string {
  const name = c.has('c') ? commandLine(p) : p.comm;
  const user = (users(c.sys).find((u) => u.id === p.uid)?.name ?? String(p.uid)).slice(0, 8);
  const s = Math.floor(p.cpuTicks / 100);
  const time = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${String(p.cpuTicks % 100).padStart(2, '0')}`;
  const mem = memKiB ? (p.rssKiB * 100) / memKiB : 0;
  const line = [
    String(p.pid).padStart(5), user.padEnd(8), String(p.priority).padStart(3), String(p.nice).padStart(3),
    String(p.vszKiB).padStart(7), String(p.rssKiB).padStart(6), '0'.padStart(6), stat(p)[0],
    f1(0, 5), f1(mem, 5), time.padStart(9), name,
  ].join(' ');
  return line.length > cols ? `${line.slice(0, cols - 1)}+` : line;
}

const top = command(
  { name: 'top', usage: USAGE, short: 'bcd:EeHhiOSs1n:o:p:u:U:vw::' },
  (c) => {
    if (c.has('h') || c.has('v')) return void c.out.write(`  procps-ng 4.0.2 (agentOS)${USAGE}`);
    if (!c.has('b')) {
      if (!c.sys.isatty(1)) c.fail('failed tty get');
      c.fail('interactive mode is not supported on agentOS; use -b');
    }
    const iterations = c.has('n') ? Number(c.get('n')) : Infinity;
    if (!(iterations >= 1)) c.fail(`bad iterations argument '${c.get('n')}'`);
    const delay = Number(c.get('d') ?? '3');
    if (!(delay >= 0)) c.fail(`bad delay interval '${c.get('d')}'`);
    const cols = Number(c.get('w') ?? c.os.env.COLUMNS ?? 80) || 80;
    const pids = c.get('p')?.split(',').map(Number);
    const who = c.get('u') ?? c.get('U');
    const uid = who === undefined ? undefined : /^\d+$/.test(who) ? Number(who) : users(c.sys).find((u) => u.name === who)?.id;
    if (who !== undefined && uid === undefined) c.fail(`Invalid user`);
    for (let i = 0; i < iterations; i++) {
      if (i > 0) {
        c.out.write('\n');
        c.out.flush();
        c.sys.sleep(delay * 1000);
      }
      const all = readProcs(c.sys);
      const shown = all.filter((p) => (!pids || pids.includes(p.pid)) && (uid === undefined || p.uid === uid));
      const memKiB = meminfo(c.sys).get('MemTotal') ?? 0;
      c.out.write(summary(c, all));
      c.out.write(`${HEAD}\n`);
      for (const p of shown) c.out.write(`${row(c, p, cols, memKiB)}\n`);
    }
  },
);

export default function main(os: AgentosApi): void {
  os.exit(top(os, os.argv.slice(1)));
}
