// Contents of the system-wide /proc files, in the layouts Linux tools parse.

import type { ProcSource } from './source.js';

/** Release and version as uname(2) reports them (sys/proc.ts). */
export const OS_RELEASE = '6.1.0-agentos';
export const OS_VERSION = '#1 agentOS';

export function versionText(): string {
  return `Linux version ${OS_RELEASE} (agentos@agentos) (TypeScript) ${OS_VERSION}\n`;
}

const uptimeSeconds = (src: ProcSource): number => Math.max(0, (Date.now() - src.bootMs) / 1000);

/** Idle time is not measured, so the second figure stays 0. */
export function uptimeText(src: ProcSource): string {
  return `${uptimeSeconds(src).toFixed(2)} 0.00\n`;
}

/** Load averages are not sampled; the runnable/total counts and last pid are real. */
export function loadavgText(src: ProcSource): string {
  const procs = src.procs();
  const running = procs.filter((p) => p.state === 'R').length;
  const last = procs.length ? procs[procs.length - 1].pid : 0;
  return `0.00 0.00 0.00 ${running}/${procs.length} ${last}\n`;
}

/** meminfo lines: a 16-column label and an 8-column figure, as show_val_kb prints them. */
export function meminfoText(src: ProcSource): string {
  const { totalKiB, freeKiB } = src.memory();
  const rows: [string, number][] = [
    ['MemTotal:', totalKiB], ['MemFree:', freeKiB], ['MemAvailable:', freeKiB],
    ['Buffers:', 0], ['Cached:', 0], ['SwapCached:', 0], ['Active:', 0], ['Inactive:', 0],
    ['SwapTotal:', 0], ['SwapFree:', 0], ['Shmem:', 0], ['SReclaimable:', 0],
  ];
  return rows.map(([label, kib]) => `${label.padEnd(16)}${String(Math.floor(kib)).padStart(8)} kB\n`).join('');
}

/** CPU time is not measured: the counters are zero, btime and process counts are real. */
export function statText(src: ProcSource): string {
  const procs = src.procs();
  const cpus = src.cpus;
  const zeros = ' 0 0 0 0 0 0 0 0 0 0';
  const lines = [`cpu ${zeros}`];
  for (let i = 0; i < cpus; i++) lines.push(`cpu${i}${zeros}`);
  lines.push(
    'intr 0',
    'ctxt 0',
    `btime ${Math.floor(src.bootMs / 1000)}`,
    `processes ${procs.length ? procs[procs.length - 1].pid : 0}`,
    `procs_running ${procs.filter((p) => p.state === 'R').length}`,
    'procs_blocked 0',
  );
  return lines.join('\n') + '\n';
}

/** Processes run in parallel workers, so the host's core count (given at boot) is the honest figure. */
export function cpuinfoText(src: ProcSource): string {
  const out: string[] = [];
  for (let i = 0; i < src.cpus; i++) {
    out.push(`processor\t: ${i}\nvendor_id\t: agentOS\nmodel name\t: JavaScript worker\nflags\t\t:\n\n`);
  }
  return out.join('');
}

/** Spaces, tabs, newlines and backslashes in mount fields are octal-escaped (mangle in fs/proc_namespace.c). */
const mangle = (s: string): string => s.replace(/[ \t\n\\]/g, (ch) => `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`);

export function mountsText(src: ProcSource): string {
  return src
    .mounts()
    .map((m) => `${mangle(m.source)} ${mangle(m.target)} ${m.type} ${m.options} 0 0\n`)
    .join('');
}
