// Signal generation and delivery with Linux default actions.
//
// A process in a worker runs guest code we cannot preempt, so delivery is:
//  - default action terminate/core: the kernel ends the process and its worker
//    at once (this is why SIGKILL and SIGINT always work, even on a busy loop);
//  - stop/continue: the process is marked stopped; its next syscall parks until
//    SIGCONT (a loop that makes no syscalls keeps running: documented limit);
//  - caught: the bit is queued for the runtime, any blocking syscall returns
//    EINTR, and the runtime runs the handler when its current syscall returns.

import { defaultAction, SIG_DFL, SIG_IGN, SIGCHLD, SIGCONT, SIGKILL, SIGSTOP } from '../abi/signal.js';
import { CONTINUED_STATUS, signalStatus, stoppedStatus } from '../abi/wait.js';
import { paused as agentPaused } from './agent/exit.js';
import type { Kernel } from './kernel.js';
import type { Process } from './process.js';

const bit = (sig: number): number => 1 << sig;

export function sendSignal(k: Kernel, p: Process, sig: number): void {
  if (!p.alive || sig === 0) return;
  const unblockable = sig === SIGKILL || sig === SIGSTOP;
  if (sig === SIGCONT) continueProcess(k, p);
  if (!unblockable && p.blocked & bit(sig)) {
    p.pending |= bit(sig);
    return;
  }
  deliver(k, p, sig);
}

function deliver(k: Kernel, p: Process, sig: number): void {
  const disp = sig === SIGKILL || sig === SIGSTOP ? SIG_DFL : p.dispositions[sig];
  if (disp === SIG_IGN) return;
  if (disp === SIG_DFL) {
    switch (defaultAction(sig)) {
      case 'ign':
      case 'cont':
        return;
      case 'stop':
        return stopProcess(k, p, sig);
      case 'term':
        return k.exit(p, signalStatus(sig));
      case 'core':
        return k.exit(p, signalStatus(sig, false));
    }
  }
  // Caught: queue it for the runtime and break any blocking call.
  p.caught |= bit(sig);
  p.channel?.flagSignals(true);
  p.current?.interrupt();
}

function stopProcess(k: Kernel, p: Process, sig: number): void {
  if (p.state === 'T' || !p.channel) return;
  p.state = 'T';
  p.status = stoppedStatus(sig);
  p.stopEvent = 'stopped';
  agentPaused(k, p, true);
  notifyParent(k, p);
}

function continueProcess(k: Kernel, p: Process): void {
  if (p.state !== 'T') return;
  p.state = p.current ? 'S' : 'R';
  p.status = CONTINUED_STATUS;
  p.stopEvent = 'continued';
  agentPaused(k, p, false);
  p.contQueue.wake();
  notifyParent(k, p);
}

/** Wake a parent's waitpid and send it SIGCHLD. */
export function notifyParent(k: Kernel, p: Process): void {
  const parent = k.procs.get(p.ppid);
  if (!parent) return;
  parent.childEvent.wake();
  sendSignal(k, parent, SIGCHLD);
}

/** Deliver signals that sigprocmask has just unblocked. */
export function deliverUnblocked(k: Kernel, p: Process): void {
  const ready = p.pending & ~p.blocked;
  if (!ready) return;
  p.pending &= ~ready;
  for (let sig = 1; sig < 32; sig++) if (ready & bit(sig)) deliver(k, p, sig);
}

/** kill(2) target selection: pid > 0, 0 (own group), -1 (all but init and self), < -1 (group). */
export function killTargets(k: Kernel, caller: Process, pid: number): Process[] {
  if (pid > 0) {
    // A zombie is still there for kill(2) (Linux): the signal is accepted and has no effect.
    const p = k.procs.get(pid);
    return p ? [p] : [];
  }
  if (pid === 0) return k.procs.group(caller.pgid);
  if (pid === -1) return k.procs.all().filter((p) => p.alive && p.pid !== 1 && p !== caller);
  return k.procs.group(-pid);
}
