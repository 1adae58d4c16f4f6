// A VM shown on an XtermView, with its terminal: boots the VM, opens the
// TTY, reopens it when the shell exits (on the next key) or after a snapshot
// restore (which stops every process), and offers the exec interface that
// `window.agentos` and the component's `vm` property expose. The VM is this
// page's own AgentVM, or one in a sandbox frame of another origin (FrameVM).

import { AgentVM, type AgentVMOptions, type BootProgress, type ExecResult, type Policy, type Terminal, type TerminalOptions } from '../../host/browser/index.js';
import type { Machine } from '../../host/api/machine.js';
import type { SnapshotInfo } from '../../api/types.js';
import { InTerminalRunner } from './in-terminal.js';
import type { XtermView } from './xterm-view.js';

export interface VmViewOptions {
  /** Persistent VM name (IndexedDB); absent = ephemeral. */
  persist?: string;
  cwd?: string;
  env?: Record<string, string>;
  onProgress?: (p: BootProgress) => void;
  /** Take a persistent VM over from another tab. */
  takeover?: boolean;
  /** The shell in the terminal ended with this status. */
  onExit?: (code: number) => void;
  /** The VM's policy (fixed for its life). */
  policy?: Policy;
  /** Answers the policy's `ask` rules (absent: every ask is denied). */
  onApproval?: AgentVMOptions['onApproval'];
  /** Runs before the VM boots; its error is the boot's (e.g. a page that cannot be isolated). */
  beforeStart?: () => Promise<void>;
}

export interface ExecOptions {
  stdin?: Uint8Array | string;
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string>;
  /** Run in the visible terminal session (typed there; cwd/env options do not apply). */
  inTerminal?: boolean;
}

/** What a VmView needs of its VM: AgentVM has it, and so does FrameVM (the VM in a sandbox frame). */
export interface ViewedVM {
  start(): Promise<void>;
  stop(): Promise<void>;
  exec(cmd: string, opts?: Omit<ExecOptions, 'inTerminal'>): Promise<ExecResult>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void>;
  snapshot(name: string): Promise<SnapshotInfo>;
  restore(name: string): Promise<void>;
  openTerminal(opts?: TerminalOptions): Promise<Terminal>;
  /** Host-level syscalls (the in-terminal runner's scratch files). */
  readonly vm: Pick<Machine, 'syscall'>;
}

/** The interface of `window.agentos` and `<agentos-terminal>.vm`: the Node AgentVM's, plus inTerminal. */
export interface AgentosApi<V extends ViewedVM = AgentVM> {
  readonly ready: Promise<void>;
  exec(cmd: string, opts?: ExecOptions): Promise<ExecResult>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void>;
  snapshot(name: string): Promise<SnapshotInfo>;
  restore(name: string): Promise<void>;
  /** The underlying AgentVM (snapshots list/delete/export, spawn, sync, ...), or FrameVM. */
  readonly vm: V;
}

/** This page's own VM for a view's options. */
export function localVM(opts: VmViewOptions): AgentVM {
  return new AgentVM({
    persist: opts.persist, cwd: opts.cwd, env: opts.env, onProgress: opts.onProgress, takeover: opts.takeover,
    policy: opts.policy, onApproval: opts.onApproval,
  });
}

export class VmView<V extends ViewedVM = AgentVM> {
  private term: Terminal | null = null;
  private runner: InTerminalRunner;
  private opening: Promise<void> | null = null;
  private started: Promise<void> | null = null;

  constructor(private readonly view: XtermView, readonly vm: V, private readonly opts: VmViewOptions) {
    this.runner = new InTerminalRunner(this.vm, view);
    // After the shell exited, the next key starts a new one.
    view.xterm.onData(() => {
      if (!view.attached && this.term === null && this.started) void this.openTerm();
    });
  }

  /**
   * Boot the VM and open the terminal (idempotent). A terminal that cannot
   * open is reported on the screen; the VM stays usable through exec.
   */
  start(): Promise<void> {
    this.started ??= Promise.resolve(this.opts.beforeStart?.()).then(() => this.vm.start()).then(() =>
      this.openTerm().catch((e: unknown) => this.view.xterm.write(`\x1b[31magentOS: no terminal: ${(e as Error).message ?? e}\x1b[0m\r\n`)));
    return this.started;
  }

  get running(): boolean {
    return this.term !== null;
  }

  private openTerm(): Promise<void> {
    this.opening ??= (async () => {
      const { xterm } = this.view;
      // A login shell by its full path: the shell re-runs itself by argv[0] for subshells.
      const argv = ['/bin/bash', '-l'];
      const t = await this.vm.openTerminal({ argv, cols: xterm.cols, rows: xterm.rows, cwd: this.opts.cwd, env: this.opts.env });
      this.term = t;
      this.view.attach(t);
      void t.exited.then((code) => {
        if (this.term !== t) return;
        this.term = null;
        this.view.detach();
        this.opts.onExit?.(code);
        xterm.write(`\r\n\x1b[2m[shell exited with status ${code}; press any key for a new session]\x1b[0m\r\n`);
      });
    })().finally(() => (this.opening = null));
    return this.opening;
  }

  /** Restore a snapshot: every process stops, so the terminal gets a fresh shell in the restored files. */
  async restore(name: string): Promise<void> {
    const old = this.term;
    this.term = null;
    this.view.detach();
    await this.vm.restore(name);
    await old?.close().catch(() => {});
    this.view.xterm.write(`\r\n\x1b[2m[restored snapshot '${name}']\x1b[0m\r\n`);
    await this.openTerm();
  }

  api(): AgentosApi<V> {
    const ready = this.start();
    return {
      ready,
      vm: this.vm,
      exec: async (cmd, o = {}) => {
        await ready;
        if (!o.inTerminal) return this.vm.exec(cmd, o);
        if (!this.term) await this.openTerm();
        return this.runner.exec(cmd, o);
      },
      readFile: async (p) => (await ready, this.vm.readFile(p)),
      writeFile: async (p, d, m) => (await ready, this.vm.writeFile(p, d, m)),
      snapshot: async (n) => (await ready, this.vm.snapshot(n)),
      restore: async (n) => (await ready, this.restore(n)),
    };
  }

  async stop(): Promise<void> {
    this.runner.dispose();
    const t = this.term;
    this.term = null;
    this.view.detach();
    await t?.close().catch(() => {});
    await this.vm.stop();
  }
}
