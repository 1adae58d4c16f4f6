// Job control on a terminal (Linux's tty_jobctrl.c): the controlling
// terminal of a session, its foreground process group, SIGTTIN/SIGTTOU for
// background readers and writers, and hangup.

import { Errno, SysError } from '../../abi/errno.js';
import { SIG_HANDLE, SIG_IGN, SIGCONT, SIGHUP, SIGTTIN, SIGTTOU } from '../../abi/signal.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { sendSignal } from '../signal.js';
import type { WaitQueue } from '../waitqueue.js';
import type { Tty } from './tty.js';

const ignoredOrBlocked = (p: Process, sig: number): boolean =>
  p.dispositions[sig] === SIG_IGN || (p.blocked & (1 << sig)) !== 0;

export function signalGroup(k: Kernel, pgid: number, sig: number): void {
  if (pgid > 0) for (const q of k.procs.group(pgid)) sendSignal(k, q, sig);
}

/**
 * A member of a background group touches its controlling terminal (read:
 * SIGTTIN; write with TOSTOP, tcsetattr, tcsetpgrp: SIGTTOU). null: go on.
 * Otherwise the whole group is signalled and the caller waits for SIGCONT
 * (its call is then retried, as Linux restarts it), or gets EINTR when the
 * signal is caught. A read whose SIGTTIN is ignored or blocked fails with EIO.
 */
export function backgroundCheck(k: Kernel, p: Process, tty: Tty, sig: typeof SIGTTIN | typeof SIGTTOU): WaitQueue | null {
  if (p === k.init || p.ctty !== tty || !tty.pgrp || tty.pgrp === p.pgid) return null;
  if (ignoredOrBlocked(p, sig)) {
    if (sig === SIGTTIN) throw new SysError(Errno.EIO, 'background read from the terminal');
    return null;
  }
  signalGroup(k, p.pgid, sig);
  if (p.state === 'T') return p.contQueue;
  if (p.dispositions[sig] === SIG_HANDLE) throw new SysError(Errno.EINTR);
  return null;
}

/** TIOCSCTTY, or a session leader's first open of a terminal: it becomes the session's ctty. */
export function acquire(p: Process, tty: Tty, steal = false): void {
  if (p.ctty === tty) return;
  if (p.sid !== p.pid || p.ctty) throw new SysError(Errno.EPERM, 'not a session leader without a terminal');
  if (tty.session && !(steal && p.uid === 0)) throw new SysError(Errno.EPERM, 'terminal belongs to another session');
  tty.session = p.sid;
  tty.pgrp = p.pgid;
  p.ctty = tty;
}

/** tcsetpgrp: a group of the caller's session becomes the foreground one. */
export function setForeground(k: Kernel, p: Process, tty: Tty, pgid: number): WaitQueue | null {
  if (p !== k.init && (p.ctty !== tty || tty.session !== p.sid)) throw new SysError(Errno.ENOTTY);
  const wait = backgroundCheck(k, p, tty, SIGTTOU);
  if (wait) return wait;
  if (pgid <= 0) throw new SysError(Errno.EINVAL);
  if (!k.procs.all().some((q) => q.pgid === pgid && q.sid === tty.session)) throw new SysError(Errno.EPERM);
  tty.pgrp = pgid;
  return null;
}

/**
 * The terminal goes away for its session (master closed, TIOCNOTTY by the
 * leader, the leader's exit): the foreground group (and the leader, on a
 * hangup) get SIGHUP and SIGCONT, and nobody in the session keeps it.
 */
export function disassociate(k: Kernel, tty: Tty, hangup: boolean, exiting: Process | null = null): void {
  if (!tty.session) return;
  const sid = tty.session;
  const fg = tty.pgrp;
  tty.session = 0;
  tty.pgrp = 0;
  const targets = new Set(k.procs.group(fg));
  const leader = k.procs.get(sid);
  if (hangup && leader?.alive) targets.add(leader);
  if (exiting) targets.delete(exiting);
  for (const q of k.procs.all()) if (q.ctty === tty) q.ctty = null;
  for (const q of targets) {
    sendSignal(k, q, SIGHUP);
    sendSignal(k, q, SIGCONT);
  }
}

/** A session leader exits: its terminal is released (Linux's disassociate_ctty). */
export function leaderExited(k: Kernel, p: Process): void {
  if (p.sid === p.pid && p.ctty) disassociate(k, p.ctty, false, p);
}
