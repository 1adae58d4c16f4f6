// AgentVM's interface over the sandbox page's API (src/host/playwright/protocol.ts,
// served by src/ui/sandbox.ts), whatever carries the calls: Playwright from Node
// (BrowserVM) or postMessage from the page that embeds the sandbox in a frame of
// another origin (FrameVM, for <agentos-terminal sandbox-origin>). Subclasses
// give `call` and feed the page's events to `event`.

import type { AuditEvent, AuditListener, ExecResult, OutputListener, Terminal, TerminalOptions } from './agent-vm.js';
import type { ExecBytesResult, ExecOptions } from '../worker/exec-shell.js';
import { Agents, type AgentRunResult } from './agents.js';
import type { DirEntry } from './list-directory.js';
import type { Jobs } from './jobs.js';
import type { RunOptions, RunResult } from './machine.js';
import type { SnapshotInfo } from '../../api/types.js';
import { bytesOf, fromBase64, toBase64, type SandboxApi, type SandboxEvent, type SandboxMethod, type WireExecOptions } from '../playwright/protocol.js';
import { RemoteTerminal } from '../playwright/remote-terminal.js';

const dec = new TextDecoder();

export abstract class SandboxClient {
  private readonly outputListeners = new Set<OutputListener>();
  private readonly auditListeners = new Set<AuditListener>();
  private readonly terminals = new Map<number, RemoteTerminal>();
  /** Terminal output that arrived before openTerminal learned its id. */
  private readonly orphanData = new Map<number, Uint8Array[]>();
  /** The last listen() sent: calls that produce events wait for it, since some engines run scripts concurrently. */
  private listening: Promise<unknown> = Promise.resolve();

  /** @param name how errors name this VM ('BrowserVM', ...) */
  constructor(protected readonly name: string) {}

  /** One method of the sandbox page's API; its failure rethrown with its own message (and code). */
  protected abstract call<M extends SandboxMethod>(method: M, args: Parameters<SandboxApi[M]>): Promise<Awaited<ReturnType<SandboxApi[M]>>>;

  /** True while calls can reach the page (events are forwarded only to a live one). */
  protected abstract get connected(): boolean;

  protected unsupported(what: string, why: string): Error {
    return new Error(`${this.name}: ${what} is not supported (${why})`);
  }

  /** Ask the page to forward the events someone already listens to (after it starts). */
  protected async relisten(): Promise<void> {
    if (this.outputListeners.size) await this.call('listen', ['output', true]);
    if (this.auditListeners.size) await this.call('listen', ['audit', true]);
  }

  /** An event from the page. */
  protected event(e: SandboxEvent): void {
    if (e.type === 'output') {
      const data = fromBase64(e.data);
      this.outputListeners.forEach((l) => l({ stream: e.stream, data, text: dec.decode(data) }));
    } else if (e.type === 'audit') {
      this.auditListeners.forEach((l) => l(e.event));
    } else if (e.type === 'term-data') {
      const t = this.terminals.get(e.id);
      if (t) t.data(fromBase64(e.data));
      else this.orphanData.set(e.id, [...(this.orphanData.get(e.id) ?? []), fromBase64(e.data)]);
    } else {
      this.terminals.get(e.id)?.exit(e.code);
      this.terminals.delete(e.id);
    }
  }

  /** The page is gone: its terminals end, and nothing follows its agents' traces. */
  protected endTerminals(): void {
    for (const t of this.terminals.values()) t.exit(-1);
    this.terminals.clear();
    this.agentsApi?.close();
  }

  private agentsApi: Agents | null = null;

  /** Agent processes (AgentVM's `agents`): run by the page's VM, read and decided through its kernel calls. */
  get agents(): Agents {
    this.agentsApi ??= new Agents({
      syscall: (name, args) => this.call('syscall', [name, args]),
      run: async (prompt, opts) => {
        const pid = await this.call('agentRun', [prompt, opts]);
        let done: Promise<AgentRunResult> | null = null;
        return { pid, wait: () => (done ??= this.call('agentWait', [pid])) };
      },
    });
    return this.agentsApi;
  }

  /** Run a command in the session; bytes exactly as the command wrote them. */
  async execBytes(cmd: string, opts: ExecOptions = {}): Promise<ExecBytesResult> {
    await this.listening;
    const r = await this.call('exec', [cmd, wire(opts)]);
    const out: ExecBytesResult = { stdout: fromBase64(r.stdout), stderr: fromBase64(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut };
    if (r.truncated) out.truncated = true;
    return out;
  }

  /** Run a command in the session (output decoded as UTF-8). */
  async exec(cmd: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const r = await this.execBytes(cmd, opts);
    const out: ExecResult = { stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut };
    if (r.truncated) out.truncated = true;
    return out;
  }

  /** Run a program directly (no shell), as the VM's user unless uid/gid say otherwise. */
  async run(argv: string[], opts: Omit<RunOptions, 'path'> = {}): Promise<RunResult> {
    // Typed away; refused for untyped callers too.
    if ((opts as RunOptions).path !== undefined) throw this.unsupported('run() with path', 'the sandbox runs programs by argv[0]');
    await this.listening;
    const r = await this.call('run', [argv, { ...wire(opts), uid: opts.uid, gid: opts.gid }]);
    return { stdout: fromBase64(r.stdout), stderr: fromBase64(r.stderr), status: r.status, exitCode: r.exitCode, signal: r.signal };
  }

  /** Resolves when every write made so far is durable (at once for an ephemeral VM). */
  sync(): Promise<void> {
    return this.call('sync', []);
  }

  on(event: 'output', cb: OutputListener): () => void;
  on(event: 'audit', cb: AuditListener): () => void;
  on(event: 'output' | 'audit', cb: OutputListener | AuditListener): () => void {
    if (event !== 'output' && event !== 'audit') throw new Error(`${this.name}: unknown event ${event as string}`);
    const set = (event === 'output' ? this.outputListeners : this.auditListeners) as Set<unknown>;
    set.add(cb);
    // The page forwards events only while someone listens (each one is a round trip).
    if (set.size === 1 && this.connected) this.listen(event, true);
    return () => {
      if (set.delete(cb) && set.size === 0 && this.connected) this.listen(event, false);
    };
  }

  private listen(event: 'output' | 'audit', on: boolean): void {
    this.listening = this.call('listen', [event, on]).catch(() => {});
  }

  audit(): Promise<AuditEvent[]> {
    return this.call('audit', []);
  }

  /** An interactive shell on a pseudo-terminal in the VM (default `bash -l`). */
  async openTerminal(opts: TerminalOptions = {}): Promise<Terminal> {
    const id = await this.call('openTerminal', [opts]);
    const t = new RemoteTerminal({
      write: (d) => this.call('termWrite', [id, d]),
      resize: (c, r) => this.call('termResize', [id, c, r]),
      close: () => this.call('termClose', [id]),
    });
    this.terminals.set(id, t);
    for (const b of this.orphanData.get(id) ?? []) t.data(b);
    this.orphanData.delete(id);
    return t;
  }

  /** Save the writable layer as snapshot `name`. */
  snapshot(name: string): Promise<SnapshotInfo> {
    return this.call('snapshot', [name]);
  }

  /** Make snapshot `name` the VM's state; every process stops, the next exec opens a fresh session. */
  restore(name: string): Promise<void> {
    return this.call('restore', [name]);
  }

  /** The snapshots, their management and their portable files (AgentVM's `snapshots`). */
  get snapshots() {
    return {
      create: (name: string) => this.snapshot(name),
      list: () => this.call('snapshotList', []),
      delete: (name: string) => this.call('snapshotDelete', [name]),
      export: async (name: string) => fromBase64(await this.call('snapshotExport', [name])),
      import: (name: string, file: Uint8Array) => this.call('snapshotImport', [name, toBase64(file)]),
      restore: (name: string) => this.restore(name),
    };
  }

  /** Background jobs, run by the page's kernel (AgentVM's `jobs`). */
  readonly jobs: Jobs = {
    start: (cmd, o = {}) => this.call('jobStart', [cmd, o]),
    output: (id, cursor = 0) => this.call('jobOutput', [id, cursor]),
    // JSON has no Infinity (it would arrive as null): no bound is no timeoutMs.
    wait: (id, o = {}) => this.call('jobWait', [id, o.timeoutMs === Infinity ? {} : o]),
    kill: (id, signal = 'TERM') => this.call('jobKill', [id, signal]),
    list: () => this.call('jobList', []),
  };

  /** As the VM user, with the policy (AgentVM's readFile). */
  async readFile(path: string): Promise<Uint8Array> {
    return fromBase64(await this.call('readFile', [path]));
  }

  /** As the VM user, with the policy (AgentVM's writeFile). */
  writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
    return this.call('writeFile', [path, toBase64(bytesOf(data)), mode ?? null]);
  }

  /** name, type, size and mode of each entry of a directory, listed as the VM user. */
  listDirectory(path: string): Promise<DirEntry[]> {
    return this.call('listDirectory', [path]);
  }
}

function wire(o: ExecOptions): WireExecOptions {
  return { timeoutMs: o.timeoutMs, cwd: o.cwd, env: o.env, ...(o.stdin === undefined ? {} : { stdin: toBase64(bytesOf(o.stdin)) }) };
}
