// Reaping finished async children (background job stages, process
// substitutions) as bash's SIGCHLD handler does, so they do not stay zombies
// (a zombie still counts against the process limit). The shell reaps before
// it starts a process and in jobs, wait and kill: a syscall only while it has
// async children not yet reaped. Statuses are kept (bash's list of reaped
// background pids), so `wait PID` and `wait %N` still return them.

import { Errno, SysError } from '../../abi/errno.js';
import { shellStatus, WNOHANG } from '../../abi/wait.js';
import type { Shell } from './shell.js';

/** How many reaped async statuses are remembered (bash keeps up to CHILD_MAX; the oldest go first). */
export const REMEMBERED = 4096;

/** A new async child (its job already in the table), to be reaped when it ends. */
export function startedAsync(sh: Shell, pid: number): void {
  sh.unreaped.add(pid);
  // A status kept for an earlier process with this pid (pids are reused) is no longer its.
  sh.reaped.delete(pid);
  // A pipeline's first stage may have ended, and been reaped, while the next one started.
  const raw = takeEarly(sh, pid);
  if (raw !== undefined) exited(sh, pid, raw);
}

/** Collect every async child that has ended, without blocking. */
export function reap(sh: Shell): void {
  while (sh.unreaped.size && !sh.holdReap) {
    let pid: number, status: number;
    try {
      [pid, status] = sh.sys.waitpid(-1, WNOHANG);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EINTR) continue;
      if (e instanceof SysError && e.errno === Errno.ECHILD) return sh.unreaped.clear();
      throw e;
    }
    if (!pid) return;
    exited(sh, pid, status);
  }
}

/**
 * A child ended with wait status `raw`. An async one's status is remembered
 * and its job learns it; any other (a foreground child the reaper took before
 * its waiter asked) is held until that waiter takes it.
 */
export function exited(sh: Shell, pid: number, raw: number): void {
  if (!sh.unreaped.delete(pid)) {
    sh.early.set(pid, raw);
    return;
  }
  const status = shellStatus(raw);
  sh.reaped.delete(pid);
  sh.reaped.set(pid, status);
  if (sh.reaped.size > REMEMBERED) sh.reaped.delete(sh.reaped.keys().next().value!);
  for (const j of sh.jobs) {
    if (!j.pids.includes(pid)) continue;
    (j.done ??= new Set()).add(pid);
    if (pid === j.pids.at(-1)) j.exit = status;
    if (j.done.size === j.pids.length && j.status !== 'Done') j.status = 'Done';
  }
}

/** The wait status of a foreground child the reaper already took (once), else undefined. */
export function takeEarly(sh: Shell, pid: number): number | undefined {
  const raw = sh.early.get(pid);
  if (raw !== undefined) sh.early.delete(pid);
  return raw;
}

/** Pauses between tries of a spawn that met the process limit (bash's fork retry, in milliseconds). */
const RETRY_MS = [5, 10, 20, 40, 80, 160, 320];

/**
 * `spawn()`, retried as bash retries fork on EAGAIN: while async children of
 * this shell may still end (a loop of `cmd &` outrunning its jobs), they are
 * reaped and the spawn tried again after a pause. With none, or after the last
 * pause, the error stands (a fork bomb still meets the limit).
 */
export function retryingSpawn<T>(sh: Shell, spawn: () => T): T {
  for (let i = 0; ; i++) {
    try {
      return spawn();
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.EAGAIN) || i >= RETRY_MS.length) throw e;
      const before = sh.unreaped.size;
      reap(sh);
      if (sh.unreaped.size === before) {
        if (!before) throw e;
        try {
          sh.sys.sleep(RETRY_MS[i]);
        } catch (s) {
          if (!(s instanceof SysError && s.errno === Errno.EINTR)) throw s;
        }
      }
    }
  }
}
