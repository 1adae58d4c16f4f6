// The processes a launched browser runs, read from /proc (Linux): the crash
// tests kill one content process of the browser they launched, never one found
// by name across the machine.

import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  /** The kernel's short name (15 characters at most), e.g. "Isolated Web Co", "WebKitWebProces". */
  comm: string;
  argv: string[];
}

function read(pid: number): (Proc & { ppid: number }) | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, ppid, comm: stat.slice(stat.indexOf('(') + 1, close), argv };
  } catch {
    return null; // gone meanwhile
  }
}

/** Every live descendant of `root`. */
export function descendants(root: number): Proc[] {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => read(Number(d))).filter((p) => p !== null);
  const out: Proc[] = [];
  const parents = new Set([root]);
  // Parents precede children in no particular order: sweep until nothing new is found.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return read(pid) !== null && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
