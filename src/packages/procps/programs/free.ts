// free [-b|-k|-m|-g|-h] [--si] [-t] [-w]
// Display the amount of free and used memory, from /proc/meminfo, in
// procps-ng 4's layout (used = total - available). agentOS has no swap.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, type Cmd } from '../../../userland/lib/index.js';
import { meminfo } from './proc.js';

const USAGE = `
Usage:
 free [options]

Options:
 -b, --bytes         show output in bytes
     --kilo          show output in kilobytes
     --mega          show output in megabytes
     --giga          show output in gigabytes
     --tera          show output in terabytes
     --peta          show output in petabytes
 -k, --kibi          show output in kibibytes
 -m, --mebi          show output in mebibytes
 -g, --gibi          show output in gibibytes
     --tebi          show output in tebibytes
     --pebi          show output in pebibytes
 -h, --human         show human-readable output
     --si            use powers of 1000 not 1024
 -t, --total         show total for RAM + swap
 -w, --wide          show buffers and cache separately

     --help     display this help and exit
 -V, --version  output version information and exit

For more details see free(1).
`;

const UNITS = ['B', 'K', 'M', 'G', 'T', 'P'];

/** -h: the shortest of "9.9Xi" / "999Xi" that fits, truncating like procps. */
function human(kib: number, si: boolean): string {
  const bytes = kib * 1024;
  if (bytes < 1024) return `${bytes}B`;
  const base = si ? 1000 : 1024;
  for (let i = 1; i < UNITS.length; i++) {
    const v = bytes / base ** i;
    const unit = `${UNITS[i]}${si ? '' : 'i'}`;
    const dec = v.toFixed(1);
    if (dec.length <= 3) return `${dec}${unit}`;
    if (Math.floor(v) < 1000 || i === UNITS.length - 1) return `${Math.floor(v)}${unit}`;
  }
  return `${bytes}B`;
}

function scaler(c: Cmd): (kib: number) => string {
  const si = c.has('si');
  const unit = (pow: number, base: number) => (kib: number) => String(Math.floor((kib * 1024) / base ** pow));
  let f = (kib: number) => String(kib);
  for (const [k] of c.all) {
    if (k === 'b') f = unit(0, 1024);
    else if (k === 'k') f = (kib) => String(kib);
    else if (k === 'm') f = unit(2, 1024);
    else if (k === 'g') f = unit(3, 1024);
    else if (k === 'tebi') f = unit(4, 1024);
    else if (k === 'pebi') f = unit(5, 1024);
    else if (k === 'kilo') f = unit(1, 1000);
    else if (k === 'mega') f = unit(2, 1000);
    else if (k === 'giga') f = unit(3, 1000);
    else if (k === 'tera') f = unit(4, 1000);
    else if (k === 'peta') f = unit(5, 1000);
    else if (k === 'h') f = (kib) => human(kib, si);
  }
  return f;
}

const row = (label: string, cells: string[]): string => `${label.padEnd(8)}${cells.map((s) => s.padStart(12)).join('')}\n`;

const free = command(
  {
    name: 'free',
    usage: USAGE,
    short: 'bkmghltvwVc:s:',
    long: {
      bytes: ['b', 'none'], kilo: ['kilo', 'none'], mega: ['mega', 'none'], giga: ['giga', 'none'],
      tera: ['tera', 'none'], peta: ['peta', 'none'], kibi: ['k', 'none'], mebi: ['m', 'none'],
      gibi: ['g', 'none'], tebi: ['tebi', 'none'], pebi: ['pebi', 'none'], human: ['h', 'none'],
      si: ['si', 'none'], lohi: ['l', 'none'], total: ['t', 'none'], committed: ['v', 'none'],
      seconds: ['s', 'required'], count: ['c', 'required'], wide: ['w', 'none'],
    },
  },
  (c) => {
    if (c.has('V')) return void c.out.write('free from procps-ng 4.0.2 (agentOS)\n');
    if (c.operands.length) c.usage(`extra operand '${c.operands[0]}'`);
    const m = meminfo(c.sys);
    const g = (k: string): number => m.get(k) ?? 0;
    const total = g('MemTotal');
    const avail = m.has('MemAvailable') ? g('MemAvailable') : g('MemFree');
    const cache = g('Cached') + g('SReclaimable');
    const used = Math.max(0, total - avail);
    const swap = [g('SwapTotal'), g('SwapTotal') - g('SwapFree'), g('SwapFree')];
    const f = scaler(c);
    const wide = c.has('w');
    const head = ['total', 'used', 'free', 'shared', ...(wide ? ['buffers', 'cache'] : ['buff/cache']), 'available'];
    c.out.write(row('', head));
    const mid = wide ? [g('Buffers'), cache] : [g('Buffers') + cache];
    c.out.write(row('Mem:', [total, used, g('MemFree'), g('Shmem'), ...mid, avail].map(f)));
    c.out.write(row('Swap:', swap.map(f)));
    if (c.has('t')) c.out.write(row('Total:', [total + swap[0], used + swap[1], g('MemFree') + swap[2]].map(f)));
  },
);

export default function main(os: AgentosApi): void {
  os.exit(free(os, os.argv.slice(1)));
}
