// The host-side handle on a running agentOS kernel: async syscalls as init
// (pid 1) plus conveniences to run programs and move files. Identical for the
// browser and Node hosts; only how the kernel worker is created differs.

import type { Remote } from 'comlink';
import { concatBytes } from '../../abi/bytes.js';
import type { Value } from '../../abi/codec.js';
import { SysError } from '../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../abi/fcntl.js';
import type { DirEntry, Stat } from '../../abi/stat.js';
import type { SyscallArgs, SyscallResult } from '../../abi/syscall-types.js';
import type { SyscallName } from '../../abi/syscalls.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../abi/wait.js';
import { longTimeout, timeoutOption } from '../../abi/long-timeout.js';
import { ExecClient } from './exec-client.js';
import type { Jobs } from './jobs.js';
import type { ExecShellOptions } from '../worker/exec-shell.js';
import { openTerminal, type Terminal, type TerminalIdentity, type TerminalOptions } from './terminal.js';
import type { ApprovalRequest, AuditEvent } from '../../api/types.js';
import type { HostEvents, KernelService, KernelStatus, LayerStatus } from '../worker/kernel-service.js';
import { UserFiles } from './user-files.js';
import { readDirectory } from './read-directory.js';
import { PortConnection, type ListeningPorts } from './port-connection.js';

export interface RunOptions {
  /** Path of the program; default argv[0]. */
  path?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Bytes or text for stdin; default /dev/null. */
  stdin?: Uint8Array | string;
  /** Kill it and its process group (what it started) with SIGKILL after this long (0 or Infinity: never). */
  timeoutMs?: number;
  /** Run as this user (default: root, like the host itself). */
  uid?: number;
  gid?: number;
}

export interface RunResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Raw Linux wait status. */
  status: number;
  /** Shell-style: exit code, or 128 + signal. */
  exitCode: number;
  signal: number | null;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * 256 KiB of `bytes` from `off`, as a copy: a view would be structured-cloned
 * to the kernel worker with its whole underlying buffer, every chunk.
 */
const chunk = (bytes: Uint8Array, off: number): Uint8Array => new Uint8Array(bytes.subarray(off, off + 256 * 1024));

/** What the host gives every program it starts (PATH is always the guest's default: see kernel/env.ts). */
export const DEFAULT_ENV: Record<string, string> = {
  HOME: '/home/user',
  USER: 'user',
  LANG: 'C.UTF-8',
};

/** Node: where the kernel runs: in the embedding process, or in a process of its own under Node's permission model. */
export interface KernelHost {
  isolation: 'none' | 'process';
  /** The pid of the process the kernel worker runs in. */
  pid: number;
}

export class Machine {
  /** The VM's files as its user sees them: uid 1000 and the policy, checked by the kernel (user-files.ts). */
  readonly user: UserFiles;

  constructor(
    private readonly service: Remote<KernelService>,
    private readonly terminate: () => Promise<void> | void,
    /** Node: where the kernel runs (null in a browser). */
    readonly host: KernelHost | null = null,
  ) {
    this.user = new UserFiles(service);
  }

  /** A syscall as init (pid 1), typed by abi/syscall-types.ts. Throws SysError. */
  async syscall<N extends SyscallName>(name: N, ...args: SyscallArgs<N>): Promise<SyscallResult<N>> {
    // Every argument type of the table is a codec value (CheckWire in abi/syscall-types.ts).
    const r = await this.service.syscall(name, args as readonly Value[] as Value[]);
    if (!r.ok) throw new SysError(r.errno, r.detail ?? `${name}${typeof args[0] === 'string' ? ` ${args[0]}` : ''}`);
    return r.value as SyscallResult<N>;
  }

  status(): Promise<KernelStatus> {
    return this.service.status();
  }

  /** Resolves when every write made so far is durable (immediately for an ephemeral VM). */
  sync(): Promise<void> {
    return this.service.sync();
  }

  /** Snapshots of the writable layer: see kernel/persist/snapshots.ts. */
  readonly snapshots = {
    create: (name: string) => this.service.snapshotCreate(name),
    list: () => this.service.snapshotList(),
    delete: (name: string) => this.service.snapshotDelete(name),
    export: (name: string) => this.service.snapshotExport(name),
    import: (name: string, file: Uint8Array) => this.service.snapshotImport(name, file),
    restore: (name: string) => this.service.snapshotRestore(name),
  };

  /** The writable layer as it is now, as a snapshot frame (for fork). */
  layerFrame(): Promise<Uint8Array> {
    return this.service.layerFrame();
  }

  // ---- policy ----------------------------------------------------------------

  /** The VM's audit trail (kernel/policy/audit.ts). */
  audit(): Promise<AuditEvent[]> {
    return this.service.audit();
  }

  /** Long poll for audit events after `auditSeq` and approval requests after `approvalId`. */
  events(auditSeq: number, approvalId: number): Promise<HostEvents> {
    return this.service.events(auditSeq, approvalId);
  }

  answerApproval(req: ApprovalRequest | number, answer: 'once' | 'always' | 'never' | 'deny'): Promise<boolean> {
    return this.service.answerApproval(typeof req === 'number' ? req : req.id, answer);
  }

  // async: in the kernel worker the service is the kernel's own object, whose answers are not promises.
  async execShellActive(pid: number, active: boolean): Promise<void> {
    await this.service.execShellActive(pid, active);
  }

  async killSession(sid: number, sinceMs = 0): Promise<number> {
    return await this.service.killSession(sid, sinceMs);
  }

  /** A persistent shell for exec, an exec shell (the protocol runs in the kernel worker: worker/exec-shell.ts). */
  async openExecShell(opts: ExecShellOptions): Promise<ExecClient> {
    const { id, pid } = await this.service.shellOpen(opts);
    return new ExecClient(this.service, id, pid);
  }

  /** Background jobs (worker/jobs.ts), as the user and in the directory that `shell` gives. */
  jobs(shell: ExecShellOptions): Jobs {
    const s = this.service;
    return {
      start: (cmd, o = {}) => s.jobStart(cmd, shell, o),
      output: async (id, cursor) => await s.jobOutput(id, cursor),
      wait: (id, o = {}) => s.jobWait(id, o),
      kill: async (id, signal) => void (await s.jobKill(id, signal)),
      list: async () => await s.jobList(),
    };
  }

  /** A connection from the host to the server listening on the VM's `port` (vm.expose, previews). */
  connectPort(port: number): Promise<PortConnection> {
    return PortConnection.open(this.service, port);
  }

  /** The VM's listening TCP ports once they change from what was seen at `seq` (-1: now). */
  listeningPorts(seq: number): Promise<ListeningPorts> {
    return this.service.portsListening(seq);
  }

  /** The persistent layer's state, or null for an ephemeral VM. */
  layer(): Promise<LayerStatus | null> {
    return this.service.layer();
  }

  async stop(): Promise<void> {
    try {
      await this.service.shutdown();
    } finally {
      await this.terminate();
    }
  }

  // ---- files ---------------------------------------------------------------

  async writeFile(path: string, data: Uint8Array | string, mode = 0o644): Promise<void> {
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    const fd = await this.syscall('open', path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    try {
      for (let off = 0; off < bytes.byteLength; ) {
        off += await this.syscall('write', fd, chunk(bytes, off));
      }
    } finally {
      await this.syscall('close', fd);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const fd = await this.syscall('open', path, O_RDONLY);
    try {
      return await this.readAll(fd);
    } finally {
      await this.syscall('close', fd);
    }
  }

  async readText(path: string): Promise<string> {
    return dec.decode(await this.readFile(path));
  }

  async mkdirp(path: string, mode = 0o755): Promise<void> {
    let cur = '';
    for (const part of path.split('/').filter(Boolean)) {
      cur += '/' + part;
      try {
        await this.syscall('mkdir', cur, mode);
      } catch (e) {
        if (!(e instanceof SysError && e.code === 'EEXIST')) throw e;
      }
    }
  }

  stat(path: string): Promise<Stat> {
    return this.syscall('stat', path);
  }

  readdir(path: string): Promise<DirEntry[]> {
    return readDirectory((name, ...args) => this.syscall(name, ...args), path);
  }


  private async readAll(fd: number): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for (;;) {
      const b = await this.syscall('read', fd, 256 * 1024);
      if (b.byteLength === 0) return concatBytes(parts);
      parts.push(b);
    }
  }

  /** `fd`'s bytes as they arrive, until end of file; closes `fd` when done or abandoned. */
  async *readStream(fd: number): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for (;;) {
        const b = await this.syscall('read', fd, 65536);
        if (!b.byteLength) return;
        yield b;
      }
    } finally {
      await this.syscall('close', fd).catch(() => {});
    }
  }

  // ---- processes -------------------------------------------------------------

  /** Run a program to completion with stdin from bytes (or /dev/null) and captured stdout/stderr. */
  async run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
    const ms = timeoutOption('run: timeoutMs', opts.timeoutMs);
    const [outR, outW] = await this.syscall('pipe');
    const [errR, errW] = await this.syscall('pipe');
    let inR: number;
    let inW = -1;
    if (opts.stdin === undefined) inR = await this.syscall('open', '/dev/null', O_RDONLY);
    else [inR, inW] = await this.syscall('pipe');
    let pid: number;
    try {
      // A process group of its own, so the timeout ends what it started too (a background child would hold the pipes open).
      pid = await this.spawn(argv, { ...opts, pgid: 0, fds: [[0, inR], [1, outW], [2, errW]] });
    } finally {
      for (const fd of [inR, outW, errW]) await this.syscall('close', fd);
    }
    const timer = ms === undefined ? null : longTimeout(() => void this.syscall('kill', -pid, 9).catch(() => {}), ms);
    const feed = inW >= 0 ? this.feed(inW, opts.stdin!) : Promise.resolve();
    const [stdout, stderr] = await Promise.all([this.drain(outR), this.drain(errR), feed]);
    const [, status] = await this.syscall('waitpid', pid, 0);
    timer?.clear();
    const signal = WIFEXITED(status) ? null : WTERMSIG(status);
    return { stdout, stderr, status, exitCode: signal === null ? WEXITSTATUS(status) : 128 + signal, signal };
  }

  /** Start a program as a child of init; returns its pid. Without `fds`, its stdio is /dev/null. */
  async spawn(argv: string[], opts: RunOptions & { fds?: [number, number][]; pgid?: number } = {}): Promise<number> {
    const env = Object.entries({ ...DEFAULT_ENV, ...opts.env }).map(([k, v]) => `${k}=${v}`);
    const req = { path: opts.path ?? argv[0], argv, env, cwd: opts.cwd, pgid: opts.pgid, uid: opts.uid, gid: opts.gid ?? opts.uid };
    if (opts.fds) return this.syscall('spawn', { ...req, fds: opts.fds });
    // No fds: 0, 1 and 2 on /dev/null, opened and closed by the kernel in the same call.
    const r = await this.service.spawnOnNull(req);
    if (!r.ok) throw new SysError(r.errno, r.detail ?? `spawn ${req.path}`);
    return r.value as number;
  }

  /** A shell (or `opts.argv`) on a new pseudo-terminal, in a POSIX session of its own; runs as root unless `who` says. */
  openTerminal(opts: TerminalOptions = {}, who: TerminalIdentity = {}): Promise<Terminal> {
    return openTerminal(this, opts, { ...who, env: { ...DEFAULT_ENV, ...who.env } });
  }

  async wait(pid: number): Promise<number> {
    const [, status] = await this.syscall('waitpid', pid, 0);
    return status;
  }

  async kill(pid: number, sig: number): Promise<void> {
    await this.syscall('kill', pid, sig);
  }

  private async drain(fd: number): Promise<Uint8Array> {
    try {
      return await this.readAll(fd);
    } finally {
      await this.syscall('close', fd);
    }
  }

  private async feed(fd: number, data: Uint8Array | string): Promise<void> {
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    try {
      for (let off = 0; off < bytes.byteLength; ) {
        off += await this.syscall('write', fd, chunk(bytes, off));
      }
    } catch (e) {
      if (!(e instanceof SysError && e.code === 'EPIPE')) throw e;
    } finally {
      await this.syscall('close', fd);
    }
  }
}
