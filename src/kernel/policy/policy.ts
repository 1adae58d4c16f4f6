// The kernel's policy engine: the frozen policy and the pieces that enforce
// it (fs-guard, commands, limits, approval, audit, secrets). The kernel calls
// these hooks at its enforcement points; each hook costs a flag test when
// its part of the policy is empty.

import type { MemFs } from '../fs/memfs.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import type { Inode } from '../vfs/types.js';
import { Approvals, type Decision } from './approval.js';
import { AuditLog } from './audit.js';
import { Commands, allowedFiles } from './commands.js';
import { FsGuard } from './fs-guard.js';
import { Limits } from './limits.js';
import { Secrets } from './secrets.js';
import { mayRunCaps } from './restrict.js';
import { hasFsRules, type FsPolicy, type Policy } from '../../api/policy.js';
import { checkPolicy } from './types.js';
import { resolveLimits, type ResolvedLimits } from './defaults.js';

const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;

const inTmp = (path: string): boolean => path === '/tmp' || path.startsWith('/tmp/');

export class PolicyEngine {
  readonly policy: Readonly<Policy>;
  readonly secrets: Secrets;
  readonly audit: AuditLog;
  readonly approvals: Approvals;
  readonly limits: Limits;
  /** The process limits in force: the policy's over the host's defaults (defaults.ts). */
  readonly limitValues: Readonly<ResolvedLimits>;
  private commands: Commands | null = null;
  fs: FsGuard | null = null;
  /** Processes the host started as exec shells (clocks charged per exec). */
  private readonly execShells = new WeakSet<Process>();

  /** `hostMemory`: the host's memory in bytes, which sizes the default limits. */
  constructor(private readonly k: Kernel, policy: unknown, hostMemory: number) {
    this.policy = checkPolicy(policy);
    this.secrets = new Secrets(this.policy.env?.secrets);
    // Host-held values never reach the audit trail; should one ever, it is masked there too.
    this.secrets.hide(Object.values(this.policy.secrets ?? {}).map((s) => s.value));
    this.audit = new AuditLog(this.secrets);
    const wait = this.policy.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.approvals = new Approvals(this.audit, wait === 'none' ? Infinity : wait);
    this.limitValues = Object.freeze(resolveLimits(this.policy.processes, hostMemory));
    this.limits = new Limits(k, this.limitValues, this.audit);
  }

  /**
   * Once the filesystem is assembled (mounts in place): mark the fs rules'
   * subtrees, resolve command rules, and cap the writable layers.
   */
  attach(writableLayers: MemFs[]): void {
    this.markFs();
    const procs = this.policy.processes;
    if (procs?.allow || procs?.ask) this.commands = new Commands(this.k.vfs, procs, this.audit, this.approvals);
    for (const layer of writableLayers) this.capLayer(layer);
  }

  /** Mark the fs rules' objects (again after a snapshot restore: the root is another filesystem then). */
  markFs(): void {
    const fs = this.withAllowlist(this.policy.fs);
    if (hasFsRules(fs)) {
      this.fs = new FsGuard(this.k.vfs, fs, this.audit, this.approvals);
      this.k.vfs.setGuard(this.fs);
    }
  }

  /**
   * Under a command allowlist the files it names (every hop of their link
   * chains and the programs they end at) are read-only for the guest: a root
   * guest (sudo) could otherwise write its own program where an allowed one is.
   */
  private withAllowlist(fs: FsPolicy | undefined): FsPolicy | undefined {
    const allow = this.policy.processes?.allow;
    if (!allow) return fs;
    return { ...fs, readOnly: [...(fs?.readOnly ?? []), ...allowedFiles(this.k.vfs, allow)] };
  }

  /** A writable layer (a new one after a snapshot restore too) gets maxLayerBytes. */
  capLayer(layer: MemFs): void {
    const max = this.limitValues.maxLayerBytes;
    if (max !== undefined) layer.maxBytes = max;
  }

  /**
   * Ask the host to approve `detail` under `rule` (for kernel code that can
   * wait, e.g. the network policy); resolves 'deny' on timeout. Recorded in
   * the audit trail. Inside a syscall handler use `approvals.require`.
   */
  approve(rule: string, detail: string, pid = 1): Promise<Decision> {
    return this.approvals.approve(rule, detail, pid);
  }

  // ---- file events (audit) --------------------------------------------------

  /** A regular file was opened for writing (created, truncated or to be written). */
  wrote(p: Process, path: string): void {
    if (!inTmp(path)) this.audit.record('file.write', p.pid, { path });
  }

  /** `path` (relative to `base`) was removed, or renamed to `to`. */
  removed(p: Process, base: Inode, path: string, to?: { base: Inode; path: string }): void {
    const abs = this.absolute(base, path);
    if (to) {
      const dest = this.absolute(to.base, to.path);
      if (!inTmp(abs) || !inTmp(dest)) this.audit.record('file.write', p.pid, { path: dest, from: abs });
    } else if (!inTmp(abs)) {
      this.audit.record('file.delete', p.pid, { path: abs });
    }
  }

  private absolute(base: Inode, path: string): string {
    if (path.startsWith('/')) return path;
    try {
      const d = this.k.vfs.pathOf(base);
      return d === '/' ? `/${path}` : `${d}/${path}`;
    } catch {
      return path;
    }
  }

  // ---- process hooks ---------------------------------------------------------

  /** `p` (a guest process) is about to spawn or exec `path`. */
  mayRun(p: Process, cwd: Inode, path: string, argv: readonly string[], spawning: boolean): void {
    if (spawning) this.limits.spawn(p);
    this.commands?.check(p.cred, cwd, path, argv);
    if (p.caps) mayRunCaps(this.k, p, cwd, path, argv);
  }

  /** May `p` exec the set-user-ID root program at `path` as root? Not when the policy says processes.sudo: false (recorded). */
  maySetuid(p: Process, path: string): boolean {
    if (this.policy.processes?.sudo !== false) return true;
    this.audit.record('policy', p.pid, { decision: 'deny', rule: 'processes.sudo', path });
    return false;
  }

  /** A process learnt its environment (at spawn, or exec). */
  environ(env: readonly string[]): void {
    this.secrets.learn(env);
  }

  /** An image started in `p` (spawn or exec). */
  started(p: Process, execShell: boolean): void {
    if (execShell) this.execShells.add(p);
    this.audit.record('process.start', p.pid, { ppid: p.ppid, argv: p.argv, exe: p.exe, uid: p.uid });
    this.limits.started(p, execShell);
  }

  exited(p: Process): void {
    const status = p.status;
    const signal = status & 0x7f;
    this.audit.record('process.exit', p.pid, {
      status, exitCode: signal ? 128 + signal : (status >> 8) & 0xff, signal: signal || undefined,
      durationMs: p.exitMs - p.startMs, cpuMs: this.limits.timed ? Math.round(this.limits.cpuMs(p)) : undefined,
    });
    this.limits.exited(p);
  }

  /** A host exec shell (its /proc entries are closed to other guest processes). */
  isExecShell(p: Process): boolean {
    return this.execShells.has(p);
  }

  /** The host starts (true) or ends (false) an exec in exec shell `pid`. */
  execShellActive(pid: number, active: boolean): void {
    const p = this.k.procs.get(pid);
    if (p && this.execShells.has(p)) this.limits.execShell(p, active);
  }

  shutdown(): void {
    this.limits.stop();
  }
}
