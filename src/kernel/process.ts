// The process table entry (xv6's `struct proc`) and the table itself.
// Lifecycle logic lives in exit.ts / wait.ts / signal.ts / spawn.ts.

import { NSIG, SIG_DFL } from '../abi/signal.js';
import type { ChannelEnd } from './channel.js';
import { FdTable } from './fdtable.js';
import type { Call } from './syscall.js';
import type { AgentProc } from './agent/table.js';
import type { Tty } from './tty/tty.js';
import type { Cred, Inode } from './vfs/types.js';
import { WaitQueue } from './waitqueue.js';
import type { LongTimeout } from '../abi/long-timeout.js';
import type { Capabilities } from './policy/restrict.js';

/** Linux /proc state letters: running, sleeping in a syscall, stopped, zombie. */
export type ProcState = 'R' | 'S' | 'T' | 'Z';

export type { Image } from '../abi/runtime.js';

export class Process {
  ppid = 0;
  pgid: number;
  sid: number;
  /** Effective user and group: what permission checks use. */
  uid = 1000;
  gid = 1000;
  /** Real user and group: who ran it (getuid). They differ from the effective ones only while a set-user-ID program runs. */
  ruid = 1000;
  rgid = 1000;
  groups: number[] = [];
  umask = 0o022;
  argv: string[] = [];
  env: string[] = [];
  /** Path of the executable (for /proc/<pid>/exe). */
  exe = '';
  comm = '';
  fds = new FdTable();
  state: ProcState = 'R';
  /** Linux wait status once a zombie (or the last stop/continue to report). */
  status = 0;
  /** A stop or continue not yet reported to waitpid(WUNTRACED/WCONTINUED). */
  stopEvent: 'stopped' | 'continued' | null = null;
  children = new Set<Process>();
  dispositions = new Uint8Array(NSIG).fill(SIG_DFL);
  /** Caught signals waiting for the runtime to run their handlers (bitmask). */
  caught = 0;
  /** Signals generated while blocked by sigprocmask (bitmask). */
  pending = 0;
  blocked = 0;
  /** Adopted by init after its parent died: init reaps it silently. */
  orphan = false;
  readonly startMs = Date.now();
  exitMs = 0;
  /** Syscall channel for processes running in a worker; null for the host (pid 1). */
  channel: ChannelEnd | null = null;
  /** The syscall this process is blocked in, if any. */
  current: Call | null = null;
  /** Woken when a child exits, stops or continues. */
  readonly childEvent = new WaitQueue();
  /** Woken on SIGCONT. */
  readonly contQueue = new WaitQueue();
  /** The session's controlling terminal, inherited; setsid drops it. */
  ctty: Tty | null = null;
  alarmTimer: LongTimeout | null = null;
  alarmAt = 0;
  /**
   * The agent this process works for (kernel/agent/): its own record once it
   * is one, else its parent's at spawn, kept when init adopts it: whatever it
   * spends on models counts in that agent's budget.
   */
  agentScope: AgentProc | null = null;
  /** Capabilities narrowed by `aosctl restrict` (policy/restrict.ts); inherited, never widened. */
  caps: Capabilities | null = null;

  constructor(
    readonly pid: number,
    public cwd: Inode,
    parent: Process | null,
  ) {
    this.pgid = parent?.pgid ?? pid;
    this.sid = parent?.sid ?? pid;
    if (parent) {
      this.ppid = parent.pid;
      this.uid = parent.uid;
      this.gid = parent.gid;
      this.ruid = parent.ruid;
      this.rgid = parent.rgid;
      this.groups = [...parent.groups];
      this.umask = parent.umask;
      this.ctty = parent.ctty;
      this.agentScope = parent.agentScope;
      this.caps = parent.caps;
    }
  }

  get cred(): Cred {
    return { uid: this.uid, gid: this.gid, ruid: this.ruid, rgid: this.rgid, groups: this.groups, pid: this.pid, umask: this.umask };
  }

  /** Become this user and group, real and effective alike. */
  setIds(uid: number, gid: number): void {
    this.uid = this.ruid = uid;
    this.gid = this.rgid = gid;
  }

  get alive(): boolean {
    return this.state !== 'Z';
  }
}

export class ProcessTable {
  private procs = new Map<number, Process>();
  private nextPid = 1;

  constructor(readonly maxPid = 32768) {}

  /** Allocate the next free pid, wrapping like Linux (pid 1 is never reused). */
  allocPid(): number {
    for (let i = 0; i < this.maxPid; i++) {
      const pid = this.nextPid;
      this.nextPid = this.nextPid >= this.maxPid ? 2 : this.nextPid + 1;
      if (!this.procs.has(pid) && !this.isGroupOrSessionId(pid)) return pid;
    }
    throw new Error('pid space exhausted');
  }

  private isGroupOrSessionId(id: number): boolean {
    for (const p of this.procs.values()) if (p.pgid === id || p.sid === id) return true;
    return false;
  }

  add(p: Process): void {
    this.procs.set(p.pid, p);
  }

  remove(p: Process): void {
    this.procs.delete(p.pid);
  }

  get(pid: number): Process | undefined {
    return this.procs.get(pid);
  }

  all(): Process[] {
    return [...this.procs.values()];
  }

  group(pgid: number): Process[] {
    return this.all().filter((p) => p.pgid === pgid && p.alive);
  }

  get size(): number {
    return this.procs.size;
  }
}
