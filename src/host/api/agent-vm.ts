// The AgentVM API: start a VM, exec commands in a persistent shell (the exec
// shell), stream output, move files, stop. The same class serves the Node and
// browser hosts; each passes its own boot function.

import type { ExecClient } from './exec-client.js';
import type { ExecBytesResult, ExecOptions, OutputChunk } from '../worker/exec-shell.js';
import type { HostMount } from '../worker/kernel-main.js';
import { listDirectory, type DirEntry } from './list-directory.js';
import type { Machine, RunOptions, RunResult } from './machine.js';
import type { Terminal, TerminalOptions } from './terminal.js';
import type { VM } from './vm.js';
import { Agents, runAos } from './agents.js';
import type { Value } from '../../abi/codec.js';
import type { SyscallArgs } from '../../abi/syscall-types.js';
import type { Jobs } from './jobs.js';
import { checkPort, type ExposedPort, type ExposeOptions, type Exposer } from './expose.js';

export type { Terminal, TerminalOptions } from './terminal.js';
import type { NetworkPolicy, Policy } from '../../api/policy.js';
import type { Answer, ApprovalRequest, AuditEvent, SnapshotInfo } from '../../api/types.js';
import { checkPolicy, networkOf } from '../../kernel/policy/types.js';

export type { Answer, ApprovalRequest, AuditEvent, Policy };
import { NetPolicy } from '../../kernel/net/policy.js';

export interface AgentVMOptions {
  /** Environment of the exec shell (merged over HOME, USER, LANG, TERM). */
  env?: Record<string, string>;
  /** Working directory of the exec shell; default /home/user. */
  cwd?: string;
  /**
   * Node: host directory of a persistent writable layer (created if missing).
   * Every write is durable when `exec`, `writeFile` or `sync` returns.
   */
  state?: string;
  /**
   * Directories mounted into the VM, VM path → spec. Node: a host path (or
   * `{ host, readOnly }`). Browser: `{ opfs: NAME }` or `{ directory:
   * FileSystemDirectoryHandle }` from showDirectoryPicker(). Live and
   * two-way; nothing outside the directory is reachable through them.
   */
  mounts?: Record<string, string | MountSpec>;
  /**
   * Same as `policy.network` (kept for compatibility; giving both, different, is an error).
   * The guest's network: 'none' (default), 'all' (public addresses), or
   * { allow: [origin | host | { origin, methods?, private? }], hosts? } —
   * enforced by the kernel for every request (kernel/net/policy.ts).
   */
  network?: NetworkPolicy;
  /**
   * The VM's permission policy: filesystem rules, process limits, secrets
   * (README, "The policy"). Fixed for the VM's life; the guest cannot change it.
   */
  policy?: Policy;
  /**
   * Asked when a policy rule says `ask`: the guest's operation waits for the
   * answer (once / always / never for the rule / deny). Without it, every
   * ask is denied. No answer within policy.approvalTimeoutMs (60 s) denies.
   */
  onApproval?: (req: ApprovalRequest) => Promise<Answer> | Answer;
  /**
   * Node: where the VM runs. 'none' (default): its kernel and processes are
   * worker threads of this process. 'process': they run in a child Node
   * process under Node's permission model (reads of the VM's own files, the
   * state directory and mounts only; writes of the state directory and
   * read-write mounts only; no child processes, addons or inspector), so a
   * guest that escaped its worker's confinement still cannot reach the host,
   * and this process outlives anything the guest does. Same API either way.
   */
  isolation?: 'none' | 'process';
  /**
   * Node: the JavaScript heap cap of each of the VM's threads (kernel and
   * process workers), in MiB. Default: 2048 with isolation 'process', Node's
   * own otherwise. A thread over it ends (the process is killed), not the host.
   */
  heapMb?: number;
}

/** How a host boots machines for an AgentVM. */
export interface VmHost {
  boot(): Promise<Machine>;
  /** An ephemeral machine whose writable layer starts as `seed` (a snapshot frame). */
  fork(seed: Uint8Array): Promise<Machine>;
  /** How this host makes a VM port reachable from outside (vm.expose). */
  expose?: Exposer;
}

/** Node: `{ host }`, a host directory. Browser: `{ opfs }`, an OPFS directory by name, or `{ directory }`, a picked one. */
export type MountSpec = { readOnly?: boolean } & ({ host: string } | { opfs: string } | { directory: FileSystemDirectoryHandle });

/** The `mounts` option as a list, VM paths checked. */
export function mountList(mounts: AgentVMOptions['mounts'] = {}): HostMount[] {
  return Object.entries(mounts).map(([vmPath, spec]) => {
    if (!vmPath.startsWith('/') || vmPath.split('/').some((n) => n === '..' || n === '.')) {
      throw new Error(`AgentVM: mount point '${vmPath}' must be an absolute path without '.' or '..'`);
    }
    if (/^\/(proc|dev|tmp)?\/?$/.test(vmPath)) throw new Error(`AgentVM: cannot mount over '${vmPath}'`);
    return { ...(typeof spec === 'string' ? { host: spec } : spec), vmPath: vmPath.replace(/\/+$/, ''), readOnly: (typeof spec !== 'string' && spec.readOnly) || false };
  });
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
  /** Present (true) when output beyond policy.processes.maxExecOutput was dropped. */
  truncated?: boolean;
}

export type AuditListener = (e: AuditEvent) => void;

export type OutputListener = (chunk: OutputChunk & { text: string }) => void;

/** A program started with `spawn`: its stdio as streams. */
export interface SpawnedProcess {
  pid: number;
  stdout: AsyncIterable<Uint8Array>;
  stderr: AsyncIterable<Uint8Array>;
  /** Write to its stdin. */
  write(data: Uint8Array | string): Promise<void>;
  closeStdin(): Promise<void>;
  kill(signal?: number): Promise<void>;
  /** Resolves with the shell-style exit code (128 + signal when killed). */
  wait(): Promise<number>;
}

/** One more exec shell beside the default one (its own cwd, variables, functions). */
export interface ExtraShell {
  exec(cmd: string, opts?: ExecOptions): Promise<ExecResult>;
  execBytes(cmd: string, opts?: ExecOptions): Promise<ExecBytesResult>;
  close(): Promise<void>;
}

const USER = { uid: 1000, gid: 1000 };
const dec = new TextDecoder();

export class AgentVM implements VM {
  private machine: Machine | null = null;
  private shell: ExecClient | null = null;
  private listeners = new Set<OutputListener>();
  private auditListeners = new Set<AuditListener>();
  private pumping: Machine | null = null;
  private persistent = false;
  private readonly exposed = new Set<ExposedPort>();

  constructor(
    private readonly options: AgentVMOptions = {},
    private readonly host: VmHost,
  ) {
    // A malformed network policy is refused here, before anything boots.
    if (options.network !== undefined) void new NetPolicy(options.network);
    // A bad policy is an error here, not at start(); so is a network given twice, differently.
    networkOf(checkPolicy(options.policy), options.network);
  }

  /** Boot the VM and open the exec shell; resolves when the shell is ready. */
  async start(): Promise<void> {
    if (this.machine) return;
    this.machine = await this.host.boot();
    this.persistent = (await this.machine.layer()) !== null;
    const p = this.options.policy;
    const netAsks = new NetPolicy(networkOf(p, this.options.network)).asks;
    if (this.options.onApproval || p?.fs?.ask?.length || p?.processes?.ask?.length || netAsks || this.auditListeners.size) this.pump();
    await this.openExecShell();
  }

  /** The exec shells' environment, directory and user (the kernel adds the policy's limits). */
  private shellOptions() {
    const env = { HOME: '/home/user', USER: 'user', LOGNAME: 'user', LANG: 'C.UTF-8', TERM: 'dumb', SHELL: '/bin/bash', ...this.options.env };
    return { env, cwd: this.options.cwd ?? '/home/user', ...USER };
  }

  /** Carry kernel events to the host: audit listeners, and approval requests to onApproval. */
  private pump(): void {
    const m = this.machine;
    if (!m || this.pumping === m) return;
    this.pumping = m;
    void (async () => {
      let seq = 0;
      let asked = 0;
      while (this.machine === m) {
        let ev;
        try {
          ev = await m.events(seq, asked);
        } catch {
          return; // stopped
        }
        for (const e of ev.audit) {
          seq = e.seq;
          this.auditListeners.forEach((l) => l(e));
        }
        for (const r of ev.approvals) {
          asked = Math.max(asked, r.id);
          void this.decide(m, r);
        }
      }
    })();
  }

  private async decide(m: Machine, req: ApprovalRequest): Promise<void> {
    // An agent's intent without a host callback is the operator's to decide (aos approve), not denied here.
    if (!this.options.onApproval && req.rule.startsWith('agent.ask:')) return;
    let answer: Answer = 'deny';
    try {
      if (this.options.onApproval) answer = await this.options.onApproval(req);
    } catch {
      answer = 'deny';
    }
    await m.answerApproval(req.id, answer).catch(() => {});
  }

  private async openExecShell(): Promise<ExecClient> {
    const s = await this.requireMachine().openExecShell(this.shellOptions());
    this.shell = s;
    return s;
  }

  private requireMachine(): Machine {
    if (!this.machine) throw new Error('AgentVM: not started (call start() first)');
    return this.machine;
  }

  /** Run a command in the exec shell; bytes exactly as the command wrote them. */
  async execBytes(cmd: string, opts: ExecOptions = {}): Promise<ExecBytesResult> {
    this.requireMachine();
    const s = this.shell?.alive ? this.shell : await this.openExecShell();
    // Chunks cross from the kernel as they come only while someone listens.
    const emit = this.listeners.size ? (c: OutputChunk) => this.listeners.forEach((l) => l({ ...c, text: dec.decode(c.data) })) : undefined;
    const r = await s.exec(cmd, opts, emit);
    await this.sync();
    return r;
  }

  /** Resolves when every write made so far is durable (at once for an ephemeral VM). */
  async sync(): Promise<void> {
    if (this.persistent) await this.requireMachine().sync();
  }

  /** Run a command in the exec shell (output decoded as UTF-8). */
  async exec(cmd: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const r = await this.execBytes(cmd, opts);
    const out: ExecResult = { stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut };
    if (r.truncated) out.truncated = true;
    return out;
  }

  /**
   * `output`: output chunks as they arrive, for every exec. `audit`: the
   * audit trail's events as they are recorded. Returns a function that unsubscribes.
   */
  on(event: 'output', cb: OutputListener): () => void;
  on(event: 'audit', cb: AuditListener): () => void;
  on(event: 'output' | 'audit', cb: OutputListener | AuditListener): () => void {
    if (event === 'audit') {
      const l = cb as AuditListener;
      this.auditListeners.add(l);
      this.pump();
      return () => this.auditListeners.delete(l);
    }
    if (event !== 'output') throw new Error(`AgentVM: unknown event ${event as string}`);
    const l = cb as OutputListener;
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** The audit trail so far (the kernel keeps the last 10,000 events): policy decisions, processes, file changes, approvals. */
  audit(): Promise<AuditEvent[]> {
    return this.requireMachine().audit();
  }

  private agentsApi: Agents | null = null;

  /** Agent processes: run one, list them, follow their traces, decide their intents (docs/agents.md). */
  get agents(): Agents {
    this.agentsApi ??= new Agents({
      syscall: (name, args: Value[]) => this.requireMachine().syscall(name, ...(args as SyscallArgs<typeof name>)),
      run: (prompt, opts) => runAos((argv) => this.spawn(argv), prompt, opts),
    });
    return this.agentsApi;
  }

  /** Background jobs: commands that run on beside exec, their output kept in a bounded log (README, "Background jobs"). */
  get jobs(): Jobs {
    return this.requireMachine().jobs(this.shellOptions());
  }

  /** Run a program directly (no shell), as the VM's user. */
  run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
    return this.requireMachine().run(argv, { cwd: '/home/user', ...USER, ...opts });
  }

  /** Start a program (no shell) with its stdin, stdout and stderr as streams; as the VM's user, with the exec shells' environment and directory unless `opts` say. */
  async spawn(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<SpawnedProcess> {
    const m = this.requireMachine();
    const shellOpts = this.shellOptions();
    const pipes = await Promise.all([0, 1, 2].map(() => m.syscall('pipe', 0o2000000) as Promise<[number, number]>));
    const [[inR, inW], [outR, outW], [errR, errW]] = pipes;
    let pid: number;
    try {
      pid = await m.spawn(argv, { cwd: opts.cwd ?? shellOpts.cwd, env: { ...shellOpts.env, ...opts.env }, ...USER, fds: [[0, inR], [1, outW], [2, errW]] });
    } finally {
      for (const fd of [inR, outW, errW]) await m.syscall('close', fd);
    }
    const stream = (fd: number): AsyncIterable<Uint8Array> => ({ [Symbol.asyncIterator]: () => m.readStream(fd) });
    let stdinOpen = true;
    return {
      pid,
      stdout: stream(outR),
      stderr: stream(errR),
      write: async (data) => {
        const b = typeof data === 'string' ? new TextEncoder().encode(data) : data;
        for (let off = 0; off < b.length; ) off += (await m.syscall('write', inW, b.subarray(off, off + 65536))) as number;
      },
      closeStdin: async () => {
        if (stdinOpen) await m.syscall('close', inW);
        stdinOpen = false;
      },
      kill: (signal = 15) => m.kill(pid, signal),
      wait: async () => {
        const st = await m.wait(pid);
        if (stdinOpen) await m.syscall('close', inW).catch(() => {});
        stdinOpen = false;
        return (st & 0x7f) === 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f);
      },
    };
  }

  /**
   * An interactive shell on a pseudo-terminal, as the VM's user: keystrokes in,
   * screen bytes out (for xterm.js or a real terminal). Default: `bash -l`.
   */
  openTerminal(opts: TerminalOptions = {}): Promise<Terminal> {
    const env = { SHELL: '/bin/bash', ...this.options.env };
    return this.requireMachine().openTerminal(opts, { ...USER, env, cwd: this.options.cwd ?? '/home/user' });
  }

  /** Open another exec shell, independent of the default one. */
  async openExtraSession(): Promise<ExtraShell> {
    const s = await this.requireMachine().openExecShell(this.shellOptions());
    return {
      execBytes: async (cmd, o) => {
        const r = await s.exec(cmd, o);
        await this.sync();
        return r;
      },
      exec: async (cmd, o) => {
        const r = await s.exec(cmd, o);
        await this.sync();
        const out: ExecResult = { stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut };
        if (r.truncated) out.truncated = true;
        return out;
      },
      close: () => s.close(),
    };
  }

  /** Save the writable layer (everything written since the base image) as snapshot `name`. */
  async snapshot(name: string): Promise<SnapshotInfo> {
    return this.requireMachine().snapshots.create(name);
  }

  /**
   * Make snapshot `name` the VM's state, atomically. Every process stops (the
   * exec shell too: the next exec opens a fresh one, in the restored files).
   */
  async restore(name: string): Promise<void> {
    const m = this.requireMachine();
    await m.snapshots.restore(name);
    this.shell = null;
  }

  /**
   * A second, ephemeral VM that starts from this one's files as they are now
   * (its writable layer is a copy; the base image is shared; host mounts are
   * shared, live). Processes and shell state are not copied. Start it yourself.
   */
  async fork(): Promise<AgentVM> {
    const seed = await this.requireMachine().layerFrame();
    return new AgentVM({ ...this.options, state: undefined }, { ...this.host, boot: () => this.host.fork(seed) });
  }

  /** The snapshots, their management and their portable files. */
  get snapshots(): Machine['snapshots'] {
    return this.requireMachine().snapshots;
  }

  // The file calls act for whoever the host passes them on to (an agent, a
  // page's visitor), so they see the VM as its user does: uid 1000, with the
  // policy (hidden paths ENOENT, read-only EROFS, `ask` asks). The host's own
  // access, as root and exempt from the rules, is `vm.vm.readFile` etc.

  /** A regular file's bytes, read as the VM user. */
  readFile(path: string): Promise<Uint8Array> {
    return this.requireMachine().user.readFile(path);
  }

  /**
   * Create or replace a regular file as the VM user (a new one is the user's,
   * mode `mode` or 0644; an existing one keeps its owner, and its mode unless
   * `mode` is given).
   */
  async writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
    await this.requireMachine().user.writeFile(path, data, mode);
    await this.sync();
  }

  /**
   * The entries of directory `path` (name, type, size, mode), sorted, listed
   * as the VM user. Names are bytes: one that is not UTF-8 comes as a string
   * whose invalid bytes are U+DC80..U+DCFF (nameBytes() gives the bytes
   * back), and that string names the same file when passed to readFile,
   * writeFile or exec.
   */
  listDirectory(path: string): Promise<DirEntry[]> {
    return listDirectory(this.requireMachine().user, path);
  }

  /** The underlying machine: host-level syscalls, as root and exempt from the policy's rules. */
  get vm(): Machine {
    return this.requireMachine();
  }

  /**
   * Make the server listening on the VM's `vmPort` reachable from outside,
   * until `close()`, `unexpose(vmPort)` or stop(). Node: a TCP server on the
   * host's 127.0.0.1 (`hostPort`, default any free one), each connection piped
   * into a new connection to the VM's listener; refused there, the host
   * connection is reset. Browser: a preview URL served by the page's service
   * worker. Nothing in the VM can do this by itself.
   */
  async expose(vmPort: number, opts: ExposeOptions = {}): Promise<ExposedPort> {
    const m = this.requireMachine();
    checkPort(vmPort, 'expose');
    if (!this.host.expose) throw new Error('AgentVM: this host cannot expose ports');
    const e = await this.host.expose(m, vmPort, opts);
    const close = e.close;
    const handle: ExposedPort = { ...e, close: async () => {
      this.exposed.delete(handle);
      await close();
    } };
    this.exposed.add(handle);
    return handle;
  }

  /** Close every exposure of the VM's `vmPort`. */
  async unexpose(vmPort: number): Promise<void> {
    await Promise.all([...this.exposed].filter((e) => e.vmPort === vmPort).map((e) => e.close()));
  }

  /** The VM's listening TCP ports once they differ from what was seen at `seq` (-1: at once); for port-open events. */
  listeningPorts(seq = -1): Promise<{ seq: number; ports: number[] }> {
    return this.requireMachine().listeningPorts(seq);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.exposed].map((e) => e.close().catch(() => {})));
    const m = this.machine;
    this.machine = null;
    this.shell = null;
    this.agentsApi?.close();
    await m?.stop();
  }
}
