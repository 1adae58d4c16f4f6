// The kernel worker's face to its host, exposed over Comlink.
// Every call runs as a syscall of init (pid 1), the host's process.

import type { Value } from '../../abi/codec.js';
import { SysError } from '../../abi/errno.js';
import { O_RDWR } from '../../abi/fcntl.js';
import type { Kernel } from '../../kernel/kernel.js';
import type { Process } from '../../kernel/process.js';
import type { ApprovalRequest, AuditEvent, SnapshotInfo, StorageEstimate } from '../../api/types.js';
import { sendSignal } from '../../kernel/signal.js';
import type { LayerInfo } from '../../kernel/persist/persister.js';
import { transfer, type Remote } from 'comlink';
import type { ResolvedLimits } from '../../kernel/policy/defaults.js';
import { ExecShell, type ExecBytesResult, type ExecOptions, type OutputChunk, type ExecShellOptions } from './exec-shell.js';
import { Machine } from '../api/machine.js';
import { HostPorts, type ListeningPorts } from './host-ports.js';
import { JobTable, type JobInfo, type JobOutput, type JobStartOptions, type JobStatus } from './jobs.js';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  argv: string[];
  uptimeMs: number;
}

export interface KernelStatus {
  uptimeMs: number;
  hostname: string;
  processes: ProcessInfo[];
  workers: { idle: number; running: number; unwinding: number; spawned: number };
  mounts: { target: string; type: string }[];
  /** The process limits in force: the policy's over the host's defaults; absent = none (kernel/policy/defaults.ts). */
  limits: ResolvedLimits;
}

export interface LayerStatus extends LayerInfo {
  /** Changes not yet durable. */
  dirty: boolean;
  /** The store's last failure, until a commit succeeds again. */
  lastError: string | null;
  /** Bytes the store uses and may use (whole disk or origin), when the host can tell. */
  storage: StorageEstimate | null;
}

/** What the host's event pump receives: new audit events and new approval requests. */
export interface HostEvents {
  audit: AuditEvent[];
  approvals: ApprovalRequest[];
}

/** An exec's result, and whether its shell lives on (`exit` ends it). */
export type ExecShellResult = ExecBytesResult & { alive: boolean };

/** Output chunks of the exec running in an exec shell, kept until the host's next shellOutput call. */
class OutputQueue {
  chunks: OutputChunk[] = [];
  ended = false;
  private wake: (() => void) | null = null;

  push(c: OutputChunk): void {
    this.chunks.push(c);
    this.poke();
  }

  end(): void {
    this.ended = true;
    this.poke();
  }

  private poke(): void {
    this.wake?.();
    this.wake = null;
  }

  /** The chunks so far (waiting for one if none), or null once the exec has ended and all were taken. */
  async take(): Promise<OutputChunk[] | null> {
    while (!this.chunks.length && !this.ended) await new Promise<void>((r) => (this.wake = r));
    if (!this.chunks.length) return null;
    const out = this.chunks;
    this.chunks = [];
    return out;
  }
}

/** Errors cross postMessage as plain data; the client rebuilds SysError from it. */
export type CallResult = { ok: true; value: Value } | { ok: false; errno: number; detail: string | undefined };

async function result(call: Promise<Value>): Promise<CallResult> {
  try {
    return { ok: true, value: await call };
  } catch (e) {
    if (e instanceof SysError) return { ok: false, errno: e.errno, detail: e.detail };
    throw e;
  }
}

export class KernelService {
  /** The host API over this very service, for code that runs here (exec shells). */
  private readonly local = new Machine(this as unknown as Remote<KernelService>, () => {});
  private readonly shells = new Map<number, { shell: ExecShell; output: OutputQueue | null }>();
  private lastShell = 0;
  private readonly jobs = new JobTable({
    m: this.local,
    mayStart: () => this.kernel.policy.limits.spawn(this.kernel.init),
    signalSession: (sid, sig) => this.signalSession(sid, sig),
  });

  private hostPorts: HostPorts | null = null;

  constructor(private readonly kernel: Kernel, private readonly releaseHost: () => void = () => {}) {}

  // ---- the host's connections into the VM's listeners (host-ports.ts; the host's side is api/port-connection.ts) ----

  private get ports(): HostPorts {
    return (this.hostPorts ??= new HostPorts(this.kernel.sockets));
  }

  portConnect(port: number): Promise<CallResult> {
    return result(this.ports.connect(port));
  }

  async portRead(id: number, max?: number): Promise<CallResult> {
    const r = await result(this.ports.read(id, max));
    return r.ok ? transfer(r, [(r.value as Uint8Array).buffer as ArrayBuffer]) : r;
  }

  portWrite(id: number, data: Uint8Array): Promise<CallResult> {
    return result(this.ports.write(id, data).then(() => 0));
  }

  portShutdown(id: number): void {
    this.ports.shutdown(id);
  }

  portClose(id: number): void {
    this.ports.close(id);
  }

  /** Long poll: the VM's listening TCP ports once they change from what was seen at `seq` (-1: at once). */
  portsListening(seq: number): Promise<ListeningPorts> {
    return this.ports.listening(seq);
  }

  syscall(name: string, args: Value[]): Promise<CallResult> {
    return result(this.kernel.hostCall(name, args));
  }

  /**
   * spawn as init with the child's fds 0, 1 and 2 on /dev/null (Machine.spawn
   * without fds): one host round trip instead of three (open, spawn, close).
   */
  spawnOnNull(req: Value): Promise<CallResult> {
    const k = this.kernel;
    return result((async () => {
      const fd = (await k.hostCall('open', ['/dev/null', O_RDWR])) as number;
      try {
        return await k.hostCall('spawn', [{ ...(req as object), fds: [[0, fd], [1, fd], [2, fd]] }]);
      } finally {
        await k.hostCall('close', [fd]);
      }
    })());
  }

  /** A file syscall made as the VM user, with a guest's permissions and policy (Kernel.userCall). */
  userSyscall(name: string, args: Value[]): Promise<CallResult> {
    return result(this.kernel.userCall(name, args));
  }

  // ---- exec shells (exec-shell.ts; the host's side is api/exec-client.ts) ----

  async shellOpen(opts: ExecShellOptions): Promise<{ id: number; pid: number }> {
    // Exec shells that died outside an exec (a snapshot restore stops every process) are forgotten.
    for (const [id, e] of this.shells) if (!this.kernel.procs.get(e.shell.shellPid)?.alive) this.shells.delete(id);
    const limits = this.kernel.policy;
    const shell = new ExecShell(this.local, { ...opts, maxOutput: limits.limitValues.maxExecOutput, clocks: limits.limits.timed });
    await shell.start();
    const entry = { shell, output: null as OutputQueue | null };
    shell.onOutput((c) => entry.output?.push(c));
    this.shells.set(++this.lastShell, entry);
    return { id: this.lastShell, pid: shell.shellPid };
  }

  /** Run `cmd` in exec shell `id`; with `stream`, its output can be taken as it comes (shellOutput). */
  async shellExec(id: number, cmd: string, o: ExecOptions, stream: boolean): Promise<ExecShellResult> {
    const entry = this.shellEntry(id);
    const output = stream ? new OutputQueue() : null;
    entry.output = output;
    // The host syncs when the exec returns: background commits meanwhile are fewer (persister.ts).
    const release = this.kernel.persister?.hold();
    try {
      const r = await entry.shell.exec(cmd, o);
      const alive = entry.shell.alive;
      if (!alive) this.shells.delete(id);
      return transfer({ ...r, alive }, [r.stdout.buffer as ArrayBuffer, r.stderr.buffer as ArrayBuffer]);
    } finally {
      release?.();
      output?.end();
    }
  }

  /** Output chunks of the streamed exec in shell `id` (waits for one), or null when it is over. */
  shellOutput(id: number): Promise<OutputChunk[] | null> {
    return this.shells.get(id)?.output?.take() ?? Promise.resolve(null);
  }

  async shellClose(id: number): Promise<void> {
    const entry = this.shells.get(id);
    this.shells.delete(id);
    await entry?.shell.close();
  }

  private shellEntry(id: number): { shell: ExecShell; output: OutputQueue | null } {
    const entry = this.shells.get(id);
    if (!entry) throw new Error(`exec shell ${id} is closed`);
    return entry;
  }

  // ---- background jobs (jobs.ts; the host's side is api/jobs.ts) ----

  jobStart(cmd: string, shell: ExecShellOptions, o: JobStartOptions): Promise<number> {
    return this.jobs.start(cmd, shell, o);
  }

  jobOutput(id: number, cursor?: number): JobOutput {
    return this.jobs.output(id, cursor);
  }

  jobWait(id: number, o: { timeoutMs?: number }): Promise<JobStatus> {
    return this.jobs.wait(id, o);
  }

  jobKill(id: number, signal?: string | number): number {
    return this.jobs.kill(id, signal);
  }

  jobList(): JobInfo[] {
    return this.jobs.list();
  }

  status(): KernelStatus {
    const k = this.kernel;
    const now = Date.now();
    return {
      uptimeMs: now - k.bootMs,
      hostname: k.hostname,
      processes: k.procs.all().map((p) => ({
        pid: p.pid, ppid: p.ppid, pgid: p.pgid, sid: p.sid, state: p.state, argv: p.argv, uptimeMs: now - p.startMs,
      })),
      workers: k.runner.stats,
      mounts: k.vfs.mounts().map((m: { target: string; type: string }) => ({ target: m.target, type: m.type })),
      limits: { ...k.policy.limitValues },
    };
  }

  /** Make every write so far durable (no-op for an ephemeral VM). */
  async sync(): Promise<void> {
    await this.kernel.persister?.sync();
  }

  /** Where the writable layer persists, or null for an ephemeral VM. */
  layer(): LayerStatus | null {
    const p = this.kernel.persister;
    return p ? { ...p.info, dirty: p.dirty, lastError: p.lastError?.message ?? null, storage: p.storage } : null;
  }

  // ---- snapshots of the writable layer (kernel/persist/snapshots.ts) ----

  snapshotCreate(name: string): Promise<SnapshotInfo> {
    return this.kernel.snapshots.create(name);
  }

  snapshotList(): Promise<SnapshotInfo[]> {
    return this.kernel.snapshots.list();
  }

  snapshotDelete(name: string): Promise<void> {
    return this.kernel.snapshots.delete(name);
  }

  async snapshotExport(name: string): Promise<Uint8Array> {
    const file = await this.kernel.snapshots.export(name);
    return transfer(file, [file.buffer as ArrayBuffer]);
  }

  layerFrame(): Uint8Array {
    const frame = this.kernel.snapshots.frame();
    return transfer(frame, [frame.buffer as ArrayBuffer]);
  }

  snapshotImport(name: string, file: Uint8Array): Promise<SnapshotInfo> {
    return this.kernel.snapshots.import(name, file);
  }

  /** Every process is stopped and the layer replaced; the host reopens its exec shells. */
  snapshotRestore(name: string): Promise<void> {
    return this.kernel.snapshots.restore(name);
  }

  // ---- policy (kernel/policy/): audit trail, approvals, per-exec clocks ----

  /** The audit trail as kept (the last 10,000 events). */
  audit(): AuditEvent[] {
    return this.kernel.policy.audit.since(0);
  }

  /**
   * Long poll: audit events after `auditSeq` and approval requests after
   * `approvalId`, as soon as there is at least one.
   */
  events(auditSeq: number, approvalId: number): Promise<HostEvents> {
    const pol = this.kernel.policy;
    const now = (): HostEvents => ({ audit: pol.audit.since(auditSeq), approvals: pol.approvals.list().filter((r) => r.id > approvalId) });
    const first = now();
    if (first.audit.length || first.approvals.length) return Promise.resolve(first);
    return new Promise((resolve) => {
      let fired = false;
      const done = () => {
        if (fired) return;
        fired = true;
        offAudit();
        offAsk();
        // After the current kernel turn, so a burst of events travels in one message.
        setTimeout(() => resolve(now()), 0);
      };
      const offAudit = pol.audit.onRecord(done);
      const offAsk = pol.approvals.onRequest(done);
    });
  }

  /** The host's answer to approval request `id` ('once' | 'always' | 'never' | 'deny'). */
  answerApproval(id: number, answer: string): boolean {
    return this.kernel.policy.approvals.answer(id, answer);
  }

  /** Exec shell `pid` starts (true) or ends (false) an exec: its CPU and wall clocks restart. */
  execShellActive(pid: number, active: boolean): void {
    this.kernel.policy.execShellActive(pid, active);
  }

  /**
   * SIGKILL every process of session `sid` but its leader started at or after
   * `sinceMs` (Date.now()), in one kernel turn: a fork bomb cannot outrun it.
   */
  killSession(sid: number, sinceMs = 0): number {
    return this.signalSession(sid, 9, (p) => p.pid !== sid && p.startMs >= sinceMs);
  }

  /** Send `sig` to every live process of session `sid` that `which` picks, in one kernel turn; how many. */
  private signalSession(sid: number, sig: number, which: (p: Process) => boolean = () => true): number {
    const k = this.kernel;
    let n = 0;
    for (const p of k.procs.all()) {
      if (p.sid === sid && p.alive && which(p)) {
        sendSignal(k, p, sig);
        n++;
      }
    }
    return n;
  }

  /** Stop every process, then write the layer's last changes. */
  async shutdown(): Promise<void> {
    this.kernel.shutdown();
    try {
      await this.kernel.persister?.close();
    } finally {
      this.releaseHost();
    }
  }
}
