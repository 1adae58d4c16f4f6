// Time and uptime formats shared by ps, top and uptime (procps-ng layouts).

import type { Sys } from '../../../libc/sys.js';
import { readText, uptimeSeconds } from './proc.js';

const p2 = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const clock = (d: Date): string => `${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;

/** CPU time as [dd-]hh:mm:ss (ps -f TIME). */
export function cputime(ticks: number): string {
  const s = Math.floor(ticks / 100);
  const days = Math.floor(s / 86400);
  const hms = `${p2(Math.floor((s % 86400) / 3600))}:${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
  return days ? `${days}-${hms}` : hms;
}

/** CPU time as m:ss (BSD TIME column). */
export function bsdTime(ticks: number): string {
  const s = Math.floor(ticks / 100);
  return `${Math.floor(s / 60)}:${p2(s % 60)}`;
}

/** Elapsed time as [[dd-]hh:]mm:ss (ELAPSED). */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const ms2 = `${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
  if (days) return `${days}-${p2(h)}:${ms2}`;
  return h ? `${p2(h)}:${ms2}` : ms2;
}

/** STIME/START: HH:MM today, MonDD this year, else the year. */
export function startTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const n = new Date(now);
  if (now - ms < 86400_000 && d.getDate() === n.getDate()) return `${p2(d.getHours())}:${p2(d.getMinutes())}`;
  if (d.getFullYear() === n.getFullYear()) return `${MONTHS[d.getMonth()]}${p2(d.getDate())}`;
  return String(d.getFullYear());
}

/** STARTED: HH:MM:SS today, else "Mon DD". */
export function started(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  if (now - ms < 86400_000) return clock(d);
  return `${MONTHS[d.getMonth()]} ${p2(d.getDate())}`;
}

export function loadavg(sys: Sys): [number, number, number] {
  const f = (readText(sys, '/proc/loadavg') ?? '').split(' ').map(Number);
  return [f[0] || 0, f[1] || 0, f[2] || 0];
}

/** "up 1 day,  2:03" / "up 5 min", as uptime and top print it. */
export function upText(secs: number): string {
  const mins = Math.floor(secs / 60);
  const days = Math.floor(mins / 1440);
  const h = Math.floor((mins % 1440) / 60);
  const m = mins % 60;
  let s = 'up ';
  if (days) s += `${days} day${days === 1 ? '' : 's'}, `;
  s += h ? `${String(h).padStart(2)}:${p2(m)}` : `${m} min`;
  return s;
}

/** The whole uptime line (also top's first line, after "top -"). agentOS has no login records: 0 users. */
export function uptimeLine(sys: Sys): string {
  const l = loadavg(sys).map((x) => x.toFixed(2)).join(', ');
  return ` ${clock(new Date())} ${upText(uptimeSeconds(sys))},  0 user,  load average: ${l}`;
}

/** uptime -p: "up 1 hour, 5 minutes". */
export function prettyUp(secs: number): string {
  const mins = Math.floor(secs / 60);
  const parts: [number, string][] = [
    [Math.floor(mins / 10080), 'week'], [Math.floor((mins % 10080) / 1440), 'day'],
    [Math.floor((mins % 1440) / 60), 'hour'], [mins % 60, 'minute'],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, w]) => `${n} ${w}${n === 1 ? '' : 's'}`);
  return `up ${shown.length ? shown.join(', ') : '0 minutes'}`;
}

/** uptime -s: boot time as YYYY-MM-DD HH:MM:SS. */
export function sinceText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())} ${clock(d)}`;
}
