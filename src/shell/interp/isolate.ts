// Subshell semantics without a new process: run with a copy of the shell's
// state and put everything back afterwards ( ( ... ) and $( ... ) ). What is
// copied is ShellState's table (state.ts); the process state (cwd, umask) is
// put back here.

import { ExitSignal, isStackOverflow, SignalDeath } from './control.js';
import { restore } from './redirect.js';
import type { Shell } from './shell.js';

/** Above any real pid (the kernel's pid_max is Linux's 4194304). */
let nextFakePid = 4194304;

/** `onSignal` hears of a signal ending the subshell (its status is then 128+N). */
export function isolate(sh: Shell, fn: () => number, onSignal?: (sig: number) => void): number {
  const saved = sh.clone();
  // Its `trap` lists the parent's traps until it sets one of its own (bash).
  sh.shownTraps = new Map(sh.traps);
  // The process state a subshell may change: put back below only if it did (each is a syscall).
  const cwdMoves = sh.cwdMoves;
  const cwd = sh.vars.get('PWD') ?? sh.sys.getcwd();
  const umask = sh.umask();
  // Its background jobs are not the parent's (a forked subshell's would be its own children).
  sh.jobs = [...sh.jobs];
  sh.subshellLevel++;
  sh.execSaved = [];
  // A forked subshell would have a pid of its own: make $BASHPID differ from the parent's.
  sh.fakePid = nextFakePid++;
  // A subshell's EXIT trap is its own; the parent's does not run in it.
  sh.traps.delete('EXIT');
  const mark = sh.mark();
  // break and continue do not reach a loop outside the subshell (bash).
  sh.loopDepth = 0;
  for (const t of sh.untracedTraps()) sh.traps.delete(t);
  let status: number;
  try {
    status = fn();
    status = sh.finish(status);
  } catch (e) {
    // Recursion past the stack ends this subshell, as a segfault ends a forked one.
    if (isStackOverflow(e)) status = sh.stackOverflow(mark);
    else {
      if (!(e instanceof ExitSignal)) throw e;
      if (e instanceof SignalDeath) onSignal?.(e.signal);
      status = sh.finish(e.status);
    }
  } finally {
    // `exec >file` in the subshell ends with it.
    for (const s of sh.execSaved.reverse()) restore(sh, s);
    sh.restore(saved);
    if (sh.cwdMoves !== cwdMoves) {
      try {
        sh.chdir(cwd);
      } catch {
        /* the directory went away */
      }
    }
    if (sh.umask() !== umask) sh.setUmask(umask);
  }
  return status;
}
