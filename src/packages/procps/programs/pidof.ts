// pidof [-s] [-q] [-x] [-o PID]... [-S SEP] PROGRAM...
// Print the ids of the processes running PROGRAM (matched against the name,
// argv[0] and its base name), newest first. Exit 1 when none is found.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command } from '../../../userland/lib/index.js';
import { readProcs, type Proc } from './proc.js';

const USAGE = `
Usage:
 pidof [options] [program [...]]

Options:
 -s, --single-shot         return one PID only
 -c, --check-root          omit processes with different root
 -q,                       quiet mode, only set the exit code
 -w, --with-workers        show kernel workers too
 -x                        also find shells running the named scripts
 -o, --omit-pid <PID,...>  omit processes with PID
 -t, --lightweight         list threads too
 -S, --separator SEP       use SEP as separator put between PIDs
 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see pidof(1).
`;

const base = (s: string): string => s.slice(s.lastIndexOf('/') + 1);

function runs(p: Proc, prog: string, scripts: boolean): boolean {
  const a0 = p.argv[0] ?? '';
  if (p.comm === prog || a0 === prog || base(a0) === base(prog)) return true;
  // -x: a shell running the script: argv[1] names it.
  return scripts && p.argv.length > 1 && (p.argv[1] === prog || base(p.argv[1]) === base(prog));
}

const pidof = command(
  {
    name: 'pidof',
    usage: USAGE,
    short: 'scqwxo:tS:',
    long: {
      'single-shot': ['s', 'none'], 'check-root': ['c', 'none'], 'with-workers': ['w', 'none'],
      'omit-pid': ['o', 'required'], lightweight: ['t', 'none'], separator: ['S', 'required'],
    },
  },
  (c) => {
    const self = c.sys.getpid();
    const omit = new Set<number>([self]);
    for (const [k, v] of c.all) {
      if (k !== 'o' || v === undefined) continue;
      for (const s of v.split(',')) omit.add(s === '%PPID' ? c.sys.getppid() : Number(s));
    }
    const procs = readProcs(c.sys).filter((p) => !omit.has(p.pid) && p.state !== 'Z').reverse();
    const found: number[] = [];
    for (const prog of c.operands) {
      for (const p of procs) {
        if (!runs(p, prog, c.has('x')) || found.includes(p.pid)) continue;
        found.push(p.pid);
        if (c.has('s')) break;
      }
    }
    if (found.length && !c.has('q')) c.out.write(`${found.join(c.get('S') ?? ' ')}\n`);
    return found.length ? 0 : 1;
  },
);

export default function main(os: AgentosApi): void {
  os.exit(pidof(os, os.argv.slice(1)));
}
