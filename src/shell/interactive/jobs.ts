// Job control for an interactive shell on a terminal: each pipeline is a
// process group; the foreground one owns the terminal (tcsetpgrp) while the
// shell waits for it with WUNTRACED, so Ctrl-Z leaves it Stopped in the job
// table; fg/bg continue it; finished background jobs are reported before the
// next prompt. The shell takes the terminal back after every job, restoring
// its settings when the job was stopped or killed (bash does the same).

import { Errno, SysError } from '../../abi/errno.js';
import { SIGCONT, SIGINT, SIGPIPE, SIGTSTP } from '../../abi/signal.js';
import { TIOCSPGRP, type Termios } from '../../abi/termios.js';
import { shellStatus, WIFCONTINUED, WIFSIGNALED, WIFSTOPPED, WNOHANG, WTERMSIG, WUNTRACED } from '../../abi/wait.js';
import { tcgetattr, tcsetattr } from '../../userland/lib/tty.js';
import { doneText, findJob, SIGNAL_TEXT } from '../interp/jobspec.js';
import { exited, reap, startedAsync, takeEarly } from '../interp/reap.js';
import type { Shell } from '../interp/shell.js';
import type { Job } from '../interp/state.js';

export interface JobTerminal {
  /** A new foreground process group: it gets the terminal at once, before it can read it. */
  give(pgid: number): void;
  /** Wait for the foreground job; its statuses in `pids` order (148 for all when it stopped). */
  waitForeground(pids: number[], pgid: number, command: string, job?: Job): number[];
  /** Report background jobs that finished or stopped since the last prompt. */
  notify(): void;
  fg(argv: string[]): number;
  bg(argv: string[]): number;
  jobs(argv: string[]): number;
}

export class TerminalJobs implements JobTerminal {
  private saved: Termios;

  constructor(private readonly sh: Shell, private readonly fd: number, private readonly pgid: number) {
    this.saved = tcgetattr(sh.sys, fd);
  }

  private setpgrp(pgid: number): void {
    try {
      this.sh.sys.ioctl(this.fd, TIOCSPGRP, pgid);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
  }

  give(pgid: number): void {
    this.setpgrp(pgid);
  }

  waitForeground(pids: number[], pgid: number, command: string, job?: Job): number[] {
    const sys = this.sh.sys;
    this.setpgrp(pgid);
    const statuses = new Map<number, number>();
    const live = new Set(pids.filter((p) => p > 0 && !job?.done?.has(p)));
    // A stage the reaper took while the next one started (interp/reap.ts).
    for (const p of live) {
      const st = takeEarly(this.sh, p);
      if (st === undefined) continue;
      statuses.set(p, st);
      live.delete(p);
    }
    let stopped = false;
    while (live.size) {
      let pid: number, st: number;
      try {
        [pid, st] = sys.waitpid(-pgid, WUNTRACED);
      } catch (e) {
        if (e instanceof SysError && e.errno === Errno.EINTR) continue;
        if (e instanceof SysError && e.errno === Errno.ECHILD) break;
        throw e;
      }
      if (WIFSTOPPED(st)) {
        stopped = true;
        break;
      }
      statuses.set(pid, st);
      live.delete(pid);
      // A background job brought to the foreground (fg): its statuses are kept as any reaped job's.
      if (this.sh.unreaped.has(pid)) exited(this.sh, pid, st);
    }
    if (stopped) this.drainStops(pgid);
    this.setpgrp(this.pgid);
    const signalled = [...statuses.values()].some(WIFSIGNALED);
    if (stopped || signalled) tcsetattr(sys, this.fd, this.saved);
    else this.saved = tcgetattr(sys, this.fd);
    if (stopped) {
      const j = job ?? this.newJob(pids, pgid, command);
      j.status = 'Stopped';
      j.done = new Set([...(j.done ?? []), ...statuses.keys()]);
      // Now a job: its processes are reaped as a background job's are.
      for (const p of pids) if (p > 0 && !j.done.has(p) && !this.sh.unreaped.has(p)) startedAsync(this.sh, p);
      this.sh.write(2, `\n${this.line(j)}\n`);
      return pids.map(() => 128 + SIGTSTP);
    }
    if (job) this.sh.jobs = this.sh.jobs.filter((j) => j !== job);
    if ([...statuses.values()].some((s) => WIFSIGNALED(s) && WTERMSIG(s) === SIGINT)) {
      this.sh.write(2, '\n');
      this.sh.interrupted = true;
    } else {
      // A foreground job killed by another signal is named, as bash does (not SIGPIPE: pipelines end that way).
      const last = statuses.get(pids.at(-1) ?? -1);
      if (last !== undefined && WIFSIGNALED(last) && WTERMSIG(last) !== SIGPIPE && SIGNAL_TEXT[WTERMSIG(last)]) {
        this.sh.write(2, `${SIGNAL_TEXT[WTERMSIG(last)]}${last & 0x80 ? ' (core dumped)' : ''}\n`);
      }
    }
    return pids.map((p) => (statuses.has(p) ? shellStatus(statuses.get(p)!) : (job?.exit ?? 0)));
  }

  /** The other members' stop reports: consumed, so a later wait does not see them. */
  private drainStops(pgid: number): void {
    for (;;) {
      try {
        const [pid] = this.sh.sys.waitpid(-pgid, WUNTRACED | WNOHANG);
        if (!pid) return;
      } catch {
        return;
      }
    }
  }

  private newJob(pids: number[], pgid: number, command: string): Job {
    const id = (this.sh.jobs.at(-1)?.id ?? 0) + 1;
    const j: Job = { id, pids, pgid, command, status: 'Running' };
    this.sh.jobs.push(j);
    return j;
  }

  /** + for the current job (the newest), - for the previous one. */
  private mark(j: Job): string {
    const jobs = this.sh.jobs;
    return j === jobs.at(-1) ? '+' : j === jobs.at(-2) ? '-' : ' ';
  }

  /** `[1]+  Stopped                 sleep 100` */
  private line(j: Job, pid?: number): string {
    const mark = this.mark(j);
    const state = j.status === 'Done' ? doneText(j.exit ?? 0) : j.status;
    return `[${j.id}]${mark}${pid === undefined ? ' ' : ` ${pid}`} ${state.padEnd(24)}${j.command}${j.status === 'Running' ? ' &' : ''}`;
  }

  notify(): void {
    reap(this.sh);
    for (const j of [...this.sh.jobs]) {
      if (j.status === 'Running' && this.poll(j)) this.sh.write(2, `${this.line(j)}\n`);
      if (j.status !== 'Done') continue;
      this.sh.write(2, `${this.line(j)}\n`);
      this.sh.jobs = this.sh.jobs.filter((x) => x !== j);
    }
  }

  /** Look at a running job's live processes: an exit is recorded as reap does; true if it stopped now. */
  private poll(j: Job): boolean {
    for (const pid of j.pids) {
      if (j.done?.has(pid)) continue;
      let r: [number, number];
      try {
        r = this.sh.sys.waitpid(pid, WNOHANG | WUNTRACED);
      } catch {
        (j.done ??= new Set()).add(pid);
        continue;
      }
      if (!r[0] || WIFCONTINUED(r[1])) continue;
      if (WIFSTOPPED(r[1])) {
        j.status = 'Stopped';
        return true;
      }
      exited(this.sh, pid, r[1]);
    }
    if (j.done?.size === j.pids.length) j.status = 'Done';
    return false;
  }

  /** A job spec (interp/jobspec.ts); default the current job. */
  private find(spec: string | undefined, builtin: string): Job | null {
    const j = findJob(this.sh.jobs, spec);
    if (!j) {
      this.sh.error(`${builtin}: ${spec ?? 'current'}: no such job`);
      return null;
    }
    return j;
  }

  fg(argv: string[]): number {
    const j = this.find(argv[1], 'fg');
    if (!j) return 1;
    const pgid = j.pgid ?? j.pids[0];
    // The terminal first: a ^C typed once the command is shown must reach the job.
    tcsetattr(this.sh.sys, this.fd, this.saved);
    this.setpgrp(pgid);
    this.sh.write(1, `${j.command}\n`);
    j.status = 'Running';
    try {
      this.sh.sys.kill(-pgid, SIGCONT);
    } catch {
      /* already gone: the wait reports it */
    }
    return this.waitForeground(j.pids, pgid, j.command, j).at(-1) ?? 0;
  }

  bg(argv: string[]): number {
    const specs = argv.length > 1 ? argv.slice(1) : [undefined];
    let status = 0;
    for (const spec of specs) {
      const j = this.find(spec, 'bg');
      if (!j) {
        status = 1;
        continue;
      }
      if (j.status === 'Running') {
        this.sh.error(`bg: job ${j.id} already in background`);
        continue;
      }
      j.status = 'Running';
      this.sh.write(1, `[${j.id}]${this.mark(j)} ${j.command} &\n`);
      try {
        this.sh.sys.kill(-(j.pgid ?? j.pids[0]), SIGCONT);
      } catch {
        /* gone */
      }
    }
    return status;
  }

  jobs(argv: string[]): number {
    reap(this.sh);
    for (const j of this.sh.jobs) if (j.status === 'Running') this.poll(j);
    const pidsOnly = argv.includes('-p');
    const withPids = argv.includes('-l');
    for (const j of this.sh.jobs) {
      if (pidsOnly) this.sh.write(1, `${j.pids[0]}\n`);
      else if (withPids) this.sh.write(1, this.line(j, j.pids[0]) + '\n');
      else this.sh.write(1, `${this.line(j)}\n`);
    }
    this.sh.jobs = this.sh.jobs.filter((j) => j.status !== 'Done');
    return 0;
  }
}
