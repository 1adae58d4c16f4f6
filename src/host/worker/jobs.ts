// Background jobs (vm.jobs): a command run by bash -c in a POSIX session of
// its own (so its own process group too, apart from the exec shells'), stdin
// /dev/null, stdout and stderr captured into a bounded log (job-log.ts). Runs in
// the kernel worker beside the exec shells, so capturing costs the host
// nothing until it asks for output. The job's processes are ordinary guest
// processes: the policy's rules, limits (its clocks run from the start, as any
// process's) and audit trail apply to them as to an exec's.

import { SysError, Errno } from '../../abi/errno.js';
import { O_RDONLY } from '../../abi/fcntl.js';
import { signalFromName, signalName, SIGTERM } from '../../abi/signal.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../abi/wait.js';
import { longTimeout, timeoutOption } from '../../abi/long-timeout.js';
import type { Machine } from '../api/machine.js';
import { JobLog, type LogRead, type Stream } from './job-log.js';
import type { ExecShellOptions } from './exec-shell.js';

export interface JobStartOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Bytes of output the job's log keeps (stdout and stderr together, the newest); default 1 MiB, 4 KiB to 16 MiB. */
  logBytes?: number;
}

/** Where a job is: running until its shell has exited and its output has reached end of file. */
export interface JobStatus {
  id: number;
  running: boolean;
  /** Once finished: the shell's exit code, or 128 + the signal that ended it. */
  exitCode?: number;
  /** Once finished by a signal: its name ('SIGTERM'). */
  signal?: string;
}

export type JobOutput = LogRead & JobStatus;

export interface JobInfo extends JobStatus {
  command: string;
  /** The job's shell: its pid is the session's and process group's id. */
  pid: number;
  /** Bytes of output so far (the cursor after everything). */
  bytes: number;
  startedAt: number;
}

export const DEFAULT_LOG_BYTES = 1024 * 1024;
const MIN_LOG_BYTES = 4096;
const MAX_LOG_BYTES = 16 * 1024 * 1024;
/** Finished jobs' records kept at most; past it the oldest finished one is forgotten. */
export const MAX_FINISHED = 32;

/** What the job table needs of the kernel. */
export interface JobKernel {
  m: Pick<Machine, 'syscall' | 'readStream'>;
  /** EAGAIN when the policy's process limit is reached (the host's own spawns are otherwise never refused). */
  mayStart(): void;
  /** Send `sig` to every live process of session `sid`, in one kernel turn; how many. */
  signalSession(sid: number, sig: number): number;
}

class Job {
  readonly log: JobLog;
  status: JobStatus;
  /** An output() call has returned the finished job's last bytes: list() may forget it. */
  drained = false;
  readonly done: Promise<void>;
  readonly startedAt = Date.now();

  constructor(readonly id: number, readonly command: string, readonly pid: number, logBytes: number, private readonly k: JobKernel, outR: number, errR: number) {
    this.log = new JobLog(logBytes);
    this.status = { id, running: true };
    this.done = Promise.all([this.pump(outR, 'stdout'), this.pump(errR, 'stderr'), this.reap()]).then(([, , ws]) => {
      const sig = WIFEXITED(ws) ? 0 : WTERMSIG(ws);
      this.status = sig ? { id, running: false, exitCode: 128 + sig, signal: signalName(sig) } : { id, running: false, exitCode: WEXITSTATUS(ws) };
    });
  }

  private async pump(fd: number, stream: Stream): Promise<void> {
    try {
      for await (const b of this.k.m.readStream(fd)) this.log.push(stream, b);
    } catch {
      /* the kernel is stopping */
    }
    this.log.close(stream);
  }

  private async reap(): Promise<number> {
    try {
      const [, ws] = await this.k.m.syscall('waitpid', this.pid, 0);
      return ws;
    } catch {
      return 9; // the kernel is stopping: as if killed
    }
  }
}

export class JobTable {
  private readonly jobs = new Map<number, Job>();
  private last = 0;

  constructor(private readonly k: JobKernel) {}

  async start(command: string, shell: ExecShellOptions, o: JobStartOptions = {}): Promise<number> {
    if (typeof command !== 'string' || !command.trim()) throw new SysError(Errno.EINVAL, 'jobs.start: the command is empty');
    const logBytes = o.logBytes ?? DEFAULT_LOG_BYTES;
    if (!Number.isInteger(logBytes) || logBytes < MIN_LOG_BYTES || logBytes > MAX_LOG_BYTES) {
      throw new SysError(Errno.EINVAL, `jobs.start: logBytes must be an integer from ${MIN_LOG_BYTES} to ${MAX_LOG_BYTES}`);
    }
    this.k.mayStart();
    const m = this.k.m;
    const [outR, outW] = await m.syscall('pipe', 0o2000000);
    const [errR, errW] = await m.syscall('pipe', 0o2000000);
    const nul = await m.syscall('open', '/dev/null', O_RDONLY);
    const env = Object.entries({ ...shell.env, ...o.env }).map(([k, v]) => `${k}=${v}`);
    let pid: number;
    try {
      pid = await m.syscall('spawn', {
        path: '/bin/bash', argv: ['bash', '-c', command], env, cwd: o.cwd ?? shell.cwd,
        fds: [[0, nul], [1, outW], [2, errW]], setsid: true, uid: shell.uid, gid: shell.gid,
      });
    } catch (e) {
      await m.syscall('close', outR);
      await m.syscall('close', errR);
      throw e;
    } finally {
      for (const fd of [nul, outW, errW]) await m.syscall('close', fd);
    }
    const job = new Job(++this.last, command, pid, logBytes, this.k, outR, errR);
    this.jobs.set(job.id, job);
    void job.done.then(() => this.bound());
    return job.id;
  }

  /** Keep at most MAX_FINISHED finished records: the oldest go first. */
  private bound(): void {
    const finished = [...this.jobs.values()].filter((j) => !j.status.running);
    for (const j of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.jobs.delete(j.id);
  }

  private get(id: number): Job {
    const j = this.jobs.get(id);
    if (!j) throw new SysError(Errno.ESRCH, `no job ${id}`);
    return j;
  }

  /** Output after `cursor`, and the job's status; a finished job's status comes with all of its output. */
  output(id: number, cursor = 0): JobOutput {
    const j = this.get(id);
    if (!Number.isInteger(cursor) || cursor < 0) throw new SysError(Errno.EINVAL, 'jobs.output: cursor must be a non-negative integer');
    const r = j.log.read(cursor);
    if (!j.status.running) j.drained = true;
    return { ...r, ...j.status };
  }

  /** The job's status once it finishes, or after `timeoutMs` (then `running: true`). */
  async wait(id: number, opts: { timeoutMs?: number } = {}): Promise<JobStatus> {
    const j = this.get(id);
    const ms = timeoutOption('jobs.wait: timeoutMs', opts.timeoutMs);
    if (ms === undefined) await j.done;
    else {
      let timer: { clear(): void } | undefined;
      await Promise.race([j.done, new Promise<void>((r) => (timer = longTimeout(r, ms)))]);
      timer?.clear();
    }
    return j.status;
  }

  /** Signal every process of the job's session (its process group and any it made); how many got it. */
  kill(id: number, signal: string | number = SIGTERM): number {
    const j = this.get(id);
    const sig = typeof signal === 'number' ? signal : signalFromName(signal);
    if (sig === undefined || !Number.isInteger(sig) || sig < 1 || sig > 31) throw new SysError(Errno.EINVAL, `jobs.kill: unknown signal ${String(signal)}`);
    return this.k.signalSession(j.pid, sig);
  }

  /**
   * Every job; a finished one whose last output has been read (an output call
   * returned it with running false) is reported this once, then forgotten.
   */
  list(): JobInfo[] {
    const out: JobInfo[] = [];
    for (const j of this.jobs.values()) {
      out.push({ ...j.status, command: j.command, pid: j.pid, bytes: j.log.end, startedAt: j.startedAt });
      if (j.drained) this.jobs.delete(j.id);
    }
    return out;
  }
}
