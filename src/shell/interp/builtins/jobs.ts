// Jobs and signals: jobs, fg/bg, kill.

import { strerror, SysError } from '../../../abi/errno.js';
import { defaultAction, NSIG, signalFromName, signalName } from '../../../abi/signal.js';
import { SignalDeath } from '../control.js';
import { doneText, findJob } from '../jobspec.js';
import { reap } from '../reap.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';

export const jobs: Builtin = (sh, argv) => {
  if (sh.terminal) return sh.terminal.jobs(argv);
  // Without job control, as bash: every job, + the current, - the previous; a finished one shows
  // once (Done, Exit N or its signal) and is then forgotten. -p pids, -l with pids.
  reap(sh);
  const opts = argv.slice(1).filter((a) => a.startsWith('-')).join('');
  const all = sh.jobs;
  all.forEach((j, i) => {
    if (opts.includes('p')) return sh.out(`${j.pids[0]}\n`);
    const mark = i === all.length - 1 ? '+' : i === all.length - 2 ? '-' : ' ';
    const pid = opts.includes('l') ? ` ${j.pids[0]}` : ' ';
    const state = j.status === 'Done' ? doneText(j.exit ?? 0) : j.status;
    sh.out(`[${j.id}]${mark}${pid} ${state.padEnd(24)}${j.command}${j.status === 'Running' ? ' &' : ''}\n`);
  });
  sh.jobs = all.filter((j) => j.status !== 'Done');
  return 0;
};

export const fg: Builtin = (sh, argv) => {
  if (sh.terminal) return argv[0] === 'bg' ? sh.terminal.bg(argv) : sh.terminal.fg(argv);
  sh.error(`${argv[0]}: no job control`);
  return 1;
};

export const kill: Builtin = (sh, argv) => {
  let sig = 15;
  const args = argv.slice(1);
  if (args[0] === '-l' || args[0] === '-L') {
    const specs = args.slice(args[1] === '--' ? 2 : 1);
    if (!specs.length) {
      sh.out(Array.from({ length: NSIG - 1 }, (_, i) => signalName(i + 1).replace(/^SIG/, '')).join(' ') + '\n');
      return 0;
    }
    // Each number to its name (an exit status 128+N to N's; 0 is EXIT), each name to its number.
    let status = 0;
    for (const a of specs) {
      const n = /^\d+$/.test(a) ? Number(a) : null;
      const sig = n === null ? (/^(SIG)?EXIT$/i.test(a) ? 0 : /^[A-Za-z]/.test(a) ? signalFromName(a) : undefined) : n > 128 ? n - 128 : n;
      if (sig === undefined || sig >= NSIG || (n === null ? false : n === 128)) {
        sh.error(`kill: ${a}: invalid signal specification`);
        status = 1;
      } else sh.out(`${n === null ? sig : sig === 0 ? 'EXIT' : signalName(sig).replace(/^SIG/, '')}\n`);
    }
    return status;
  }
  if (args[0] === '-s' || args[0] === '-n') {
    const s = killSignal(args[1] ?? '');
    if (s === undefined) {
      sh.error(`kill: ${args[1]}: invalid signal specification`);
      return 1;
    }
    sig = s;
    args.splice(0, 2);
  } else if (args[0]?.startsWith('-') && args[0] !== '--') {
    const s = killSignal(args[0].slice(1));
    if (s === undefined) {
      sh.error(`kill: ${args[0].slice(1)}: invalid signal specification`);
      return 1;
    }
    sig = s;
    args.shift();
  }
  if (args[0] === '--') args.shift();
  if (!args.length) {
    sh.error('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]');
    return 2;
  }
  // Finished children first: a job's stage that has ended is skipped, not reported as gone.
  reap(sh);
  let status = 0;
  for (const a of args) {
    const job = a.startsWith('%') ? findJob(sh.jobs, a) : undefined;
    if (a.startsWith('%') && !job) {
      sh.error(`kill: ${a}: no such job`);
      status = 1;
      continue;
    }
    // A job with its own process group (job control) is signalled as a whole, else each of its live processes, as bash does.
    const pids = job ? (job.pgid ? [-job.pgid] : job.pids.filter((p) => !job.done?.has(p))) : [Number(a)];
    if (!pids.every(Number.isInteger)) {
      sh.error(`kill: ${a}: arguments must be process or job IDs`);
      status = 1;
      continue;
    }
    for (const pid of pids) {
      if (sh.fakePid && pid === sh.fakePid) {
        signalInProcessSubshell(sh, sig);
        continue;
      }
      try {
        sh.sys.kill(pid, sig);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        sh.error(`kill: (${a}) - ${strerror(e.errno)}`);
        status = 1;
      }
    }
  }
  return status;
};

/** A signal for kill: a name or number, or 0 (no signal: is the process there, may I signal it?). */
const killSignal = (spec: string): number | undefined => (spec === '0' ? 0 : signalFromName(spec));

/**
 * A signal sent to $BASHPID of a subshell that runs in-process (it has no
 * process of its own): run its trap, or end the subshell as the signal's
 * default action would (status 128+N).
 */
function signalInProcessSubshell(sh: Shell, sig: number): void {
  if (sig === 0) return;
  const action = sh.traps.get(signalName(sig).replace(/^SIG/, ''));
  if (action !== undefined) {
    if (action === '') return;
    const saved = sh.status;
    sh.runSource(action);
    sh.status = saved;
    return;
  }
  const what = defaultAction(sig);
  if (what === 'term' || what === 'core') throw new SignalDeath(sig);
}
