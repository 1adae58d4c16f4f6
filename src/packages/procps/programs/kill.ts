// kill [-s SIGNAL | -SIGNAL | -n NUM] PID...
// kill -l [SIGNAL] | -L
// Send a signal to processes (procps-ng's /bin/kill). A negative PID names a
// process group, -1 every process we may signal.

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Cmd } from '../../../userland/lib/index.js';
import { simpleCommand, usageError } from './run.js';
import { listText, parseSignal, sigName, tableText } from './signals.js';

const USAGE = `
Usage:
 kill [options] <pid> [...]

Options:
 <pid> [...]            send signal to every <pid> listed
 -<signal>, -s, --signal <signal>
                        specify the <signal> to be sent
 -q, --queue <value>    integer value to be sent with the signal
 -l, --list=[<signal>]  list all signal names, or convert one to a name
 -L, --table            list all signal names in a nice table

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see kill(1).
`;

/** kill -l ARG: a number gives the name, a name the number. */
function listOne(c: Cmd, arg: string): void {
  const n = parseSignal(arg);
  if (n === undefined || n === 0 || (/^\d+$/.test(arg) && !sigName(n))) {
    c.warn(`unknown signal name ${arg}`);
    return;
  }
  c.out.write(/^\d+$/.test(arg) ? `${sigName(n)}\n` : `${n}\n`);
}

function kill(c: Cmd): number {
  const args = c.operands;
  let sig: number | undefined;
  const pids: string[] = [];
  const needSig = (v: string | undefined, letter: string): number => {
    if (v === undefined) return usageError(c, `invalid argument ${letter}`, USAGE);
    const n = parseSignal(v);
    if (n === undefined) c.fail(`unknown signal name ${v}`);
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (pids.length || a === '-' || !a.startsWith('-')) {
      if (a !== '--') pids.push(a);
      continue;
    }
    if (a === '--') {
      pids.push(...args.slice(i + 1));
      break;
    }
    if (a === '-l' || a === '--list' || a.startsWith('--list=') || (a.startsWith('-l') && a.length > 2)) {
      const v = a.startsWith('--list=') ? a.slice(7) : a.startsWith('-l') && a.length > 2 ? a.slice(2) : args[i + 1];
      if (v === undefined) c.out.write(listText());
      else listOne(c, v);
      return 0;
    }
    if (a === '-L' || a === '--table') {
      c.out.write(tableText());
      return 0;
    }
    if (a === '-s' || a === '--signal' || a === '-n') sig = needSig(args[++i], a.slice(1, 2) === '-' ? 's' : a[1]);
    else if (a.startsWith('--signal=')) sig = needSig(a.slice(9), 's');
    else if (a === '-q' || a === '--queue') i++;
    else {
      const n = parseSignal(a.slice(1));
      if (n === undefined) {
        if (/^-\d+$/.test(a)) pids.push(a);
        else usageError(c, `invalid argument ${a[1]}`, USAGE);
      } else sig = n;
    }
  }
  if (!pids.length) return usageError(c, '', USAGE);
  for (const s of pids) {
    if (!/^-?\d+$/.test(s)) {
      c.error(`failed to parse argument: '${s}'`);
      continue;
    }
    try {
      c.sys.kill(Number(s), sig ?? 15);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      c.error(`(${s}): ${strerror(e.errno)}`);
    }
  }
  return c.status;
}

export default function main(os: AgentosApi): void {
  os.exit(simpleCommand(os, 'kill', USAGE, kill));
}
