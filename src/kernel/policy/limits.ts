// Resource limits (policy.processes): process count, CPU and wall time, open
// files, file size. Writable-layer size is the MemFs's own byte limit and
// exec output is capped by the host's exec shell.
//
// CPU time: a process's worker is on a CPU whenever it is not parked in a
// syscall, so the kernel counts the time from each syscall's reply to the
// next request (and from start to the first one). Time the worker spends
// waiting for a core the host gives to others counts too: an overestimate
// on a loaded machine, never an underestimate. A watchdog checks every
// 50 ms: past the limit SIGXCPU (fatal by default, even to a loop that makes
// no syscalls: its worker is terminated), SIGKILL a second later if the
// process handles it. Past the wall-time limit: SIGKILL.
//
// The host's exec shells are charged per exec: the host
// starts and stops their clock around each command.

import { Errno, SysError } from '../../abi/errno.js';
import { SIGKILL, SIGXCPU, SIGXFSZ } from '../../abi/signal.js';
import { isReg } from '../../abi/stat.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { FdTable } from '../fdtable.js';
import type { OpenFile } from '../file.js';
import { sendSignal } from '../signal.js';
import type { Inode } from '../vfs/types.js';
import type { AuditLog } from './audit.js';
import type { ResolvedLimits } from './defaults.js';

/** A process's fd table under maxOpenFiles: EMFILE at the limit, recorded in the audit trail. */
class LimitedFdTable extends FdTable {
  constructor(limit: number, private readonly pid: number, private readonly audit: AuditLog) {
    super(limit);
  }

  override alloc(file: OpenFile, cloexec = false, min = 0): number {
    try {
      return super.alloc(file, cloexec, min);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EMFILE) {
        this.audit.record('policy', this.pid, { decision: 'deny', rule: 'processes.maxOpenFiles', errno: 'EMFILE', limit: this.limit });
      }
      throw e;
    }
  }
}

interface Clock {
  cpuMs: number;
  /** performance.now() when it last left a syscall; null while in one. */
  runSince: number | null;
  wallStart: number;
  /** Charged now (exec shells only between execBegin and execEnd). */
  active: boolean;
  xcpuAt: number | null;
}

const WATCHDOG_MS = 50;
const XCPU_GRACE_MS = 1000;

export class Limits {
  private readonly clocks = new Map<Process, Clock>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Whether syscalls must be timed (a CPU or wall limit is set). */
  readonly timed: boolean;

  constructor(
    private readonly k: Kernel,
    private readonly rules: ResolvedLimits,
    private readonly audit: AuditLog,
  ) {
    this.timed = rules.cpuTimeMs !== undefined || rules.wallTimeMs !== undefined;
  }

  /** A guest process wants a child: EAGAIN at the process limit (the host's spawns are never refused). */
  spawn(parent: Process): void {
    const max = this.rules.maxProcesses;
    if (max === undefined) return;
    let n = 0;
    for (const p of this.k.procs.all()) if (p.alive && p !== this.k.init) n++;
    if (n < max) return;
    this.audit.record('policy', parent.pid, { decision: 'deny', rule: 'processes.maxProcesses', errno: 'EAGAIN', limit: max });
    throw new SysError(Errno.EAGAIN, `process limit (${max}) reached (policy processes.maxProcesses)`);
  }

  /** The fd table a new process gets: the policy's limit, or null for the default. */
  fdTable(pid: number): FdTable | null {
    const max = this.rules.maxOpenFiles;
    return max === undefined ? null : new LimitedFdTable(max, pid, this.audit);
  }

  /** A write to `path` failed with ENOSPC: under maxLayerBytes that is the policy's doing. */
  noSpace(p: Process, path: string): void {
    const max = this.rules.maxLayerBytes;
    if (max !== undefined) this.audit.record('policy', p.pid, { decision: 'deny', rule: 'processes.maxLayerBytes', errno: 'ENOSPC', path, limit: max });
  }

  /**
   * Bytes of a write of `len` at `at` to `inode` that fit under maxFileSize
   * (a truncate to `at` passes len 0); none fit: SIGXFSZ and EFBIG, as Linux.
   */
  fileSize(p: Process, inode: Inode, path: string, at: number, len: number): number {
    const max = this.rules.maxFileSize;
    if (max === undefined || p === this.k.init || !isReg(inode.mode) || at + len <= max) return len;
    if (at < max && len > 0) return max - at;
    this.audit.record('policy', p.pid, { decision: 'deny', rule: 'processes.maxFileSize', errno: 'EFBIG', path, limit: max });
    sendSignal(this.k, p, SIGXFSZ);
    throw new SysError(Errno.EFBIG, `file size limit (${max}) reached (policy processes.maxFileSize)`);
  }

  // ---- CPU and wall time -------------------------------------------------------

  started(p: Process, execShell: boolean): void {
    if (!this.timed || this.clocks.has(p)) return;
    const now = performance.now();
    this.clocks.set(p, { cpuMs: 0, runSince: now, wallStart: now, active: !execShell, xcpuAt: null });
    this.timer ??= setInterval(() => this.watchdog(), WATCHDOG_MS);
  }

  exited(p: Process): void {
    this.clocks.delete(p);
    if (this.timer && !this.clocks.size) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** A request was taken from the process's channel. */
  enter(p: Process): void {
    const c = this.clocks.get(p);
    if (c?.runSince != null) {
      c.cpuMs += performance.now() - c.runSince;
      c.runSince = null;
    }
  }

  /** Its reply was sent. */
  leave(p: Process): void {
    const c = this.clocks.get(p);
    if (c) c.runSince = performance.now();
  }

  /** An exec shell starts (active) or finishes (idle) an exec: a fresh clock per command. */
  execShell(p: Process, active: boolean): void {
    const c = this.clocks.get(p);
    if (!c) return;
    const now = performance.now();
    c.active = active;
    c.cpuMs = 0;
    c.wallStart = now;
    c.xcpuAt = null;
    if (c.runSince !== null) c.runSince = now;
  }

  cpuMs(p: Process): number {
    const c = this.clocks.get(p);
    if (!c) return 0;
    return c.cpuMs + (c.runSince === null ? 0 : performance.now() - c.runSince);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clocks.clear();
  }

  private watchdog(): void {
    const now = performance.now();
    const { cpuTimeMs, wallTimeMs } = this.rules;
    for (const [p, c] of [...this.clocks]) {
      if (!c.active || !p.alive) continue;
      if (wallTimeMs !== undefined && now - c.wallStart > wallTimeMs) {
        this.audit.record('policy', p.pid, { decision: 'deny', rule: 'processes.wallTimeMs', signal: 'SIGKILL', limit: wallTimeMs });
        sendSignal(this.k, p, SIGKILL);
        continue;
      }
      if (cpuTimeMs === undefined) continue;
      if (c.xcpuAt !== null) {
        if (now - c.xcpuAt > XCPU_GRACE_MS) sendSignal(this.k, p, SIGKILL);
      } else if (this.cpuMs(p) > cpuTimeMs) {
        c.xcpuAt = now;
        this.audit.record('policy', p.pid, { decision: 'deny', rule: 'processes.cpuTimeMs', signal: 'SIGXCPU', limit: cpuTimeMs });
        sendSignal(this.k, p, SIGXCPU);
      }
    }
  }
}
