// pkill [-SIGNAL] [OPTION]... PATTERN
// Signal (default SIGTERM) the processes pgrep would list. Exit 0 if any
// matched, 1 if none, 2 for a usage error, 3 for a fatal error.

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command } from '../../../userland/lib/index.js';
import { MATCH_SPEC, MATCH_USAGE, selectProcs } from './match.js';
import { parseSignal } from './signals.js';

const USAGE = `
Usage:
 pkill [options] <pattern>

Options:
 -<sig>, --signal <sig>    signal to send (either number or name)
 -q, --queue <value>       integer value to be sent with the signal
 -e, --echo                display what is killed
${MATCH_USAGE}`;

export default function main(os: AgentosApi): void {
  let args = os.argv.slice(1);
  let sig = 15;
  // A leading -SIGNAL (-9, -KILL, -SIGHUP) is the signal, not an option cluster.
  const first = args[0];
  const n = first && /^-\w+$/.test(first) ? parseSignal(first.slice(1)) : undefined;
  if (n !== undefined) {
    sig = n;
    args = args.slice(1);
  }
  const pkill = command({ name: 'pkill', usage: USAGE, failStatus: 2, ...MATCH_SPEC }, (c) => {
    const named = c.get('signal');
    if (named !== undefined) {
      const s = parseSignal(named);
      if (s === undefined) return c.usage(`Unknown signal "${named}".`);
      sig = s;
    }
    const procs = selectProcs(c);
    let killed = 0;
    for (const p of procs) {
      try {
        c.sys.kill(p.pid, sig);
        killed++;
        if (c.has('e')) c.out.write(`${p.comm} killed (pid ${p.pid})\n`);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        c.warn(`killing pid ${p.pid} failed: ${strerror(e.errno)}`);
      }
    }
    if (c.has('c')) c.out.write(`${killed}\n`);
    return procs.length ? (killed ? 0 : 3) : 1;
  });
  os.exit(pkill(os, args));
}
