// BrowserVM: an agentOS VM in headless Chromium, driven from Node through
// Playwright, with AgentVM's interface. Each BrowserVM is one BrowserContext
// (its own storage, its own kernel) on the sandbox page of the built app;
// BrowserVMs with the same browser choice share one Chromium.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AgentVMOptions, Answer, ApprovalRequest, AuditEvent, AuditListener, ExecResult, OutputListener, Terminal, TerminalOptions } from '../agent-vm.js';
import type { ExecBytesResult, ExecOptions } from '../exec-session.js';
import type { DirEntry } from '../list-directory.js';
import type { RunOptions, RunResult } from '../machine.js';
import type { SnapshotInfo } from '../../kernel/persist/snapshots.js';
import { checkPolicy } from '../../kernel/policy/types.js';
import { NetPolicy } from '../../kernel/net/policy.js';
import { serveApp } from './app.js';
import { acquireBrowser, chromiumPath, CHROMIUM_ARGS, loadPlaywright, type BrowserChoice } from './browsers.js';
import {
  APPROVAL_BINDING, EVENT_BINDING, SANDBOX_PAGE, bytesOf, fromBase64, toBase64,
  type SandboxApi, type SandboxEvent, type SandboxMethod, type SandboxWindow, type WireExecOptions,
} from './protocol.js';
import { RemoteTerminal } from './remote-terminal.js';

export interface BrowserVMOptions extends Omit<AgentVMOptions, 'state' | 'mounts'>, BrowserChoice {
  /**
   * A persistent VM of this name: its writable layer lives in the browser
   * context's IndexedDB. A fresh context starts empty, so the layer outlives
   * the BrowserVM only with `userDataDir` (and a fixed `port`: storage is per origin).
   */
  persist?: string;
  /** A browser profile directory of this VM's own (a Chromium of its own, not shared). */
  userDataDir?: string;
  /** A Browser you launched or connected; stop() leaves it open. */
  browser?: Browser;
  /** The built app's directory; default dist/web beside this module. */
  app?: string;
  /** The app's base URL when it is served elsewhere (a remote browser cannot reach this host's localhost). */
  appUrl?: string;
  /** Port of the local app server; default 0, any free port. */
  port?: number;
  /** Page load plus kernel boot; default 60 s. */
  bootTimeoutMs?: number;
}

const dec = new TextDecoder();
const unsupported = (what: string, why: string) => new Error(`BrowserVM: ${what} is not supported (${why})`);

export class BrowserVM {
  private page: Page | null = null;
  private starting: Promise<void> | null = null;
  /** Undo what start() set up, in reverse order. */
  private cleanup: (() => Promise<void>)[] = [];
  private readonly outputListeners = new Set<OutputListener>();
  private readonly auditListeners = new Set<AuditListener>();
  private readonly terminals = new Map<number, RemoteTerminal>();
  /** Terminal output that arrived before openTerminal learned its id. */
  private readonly orphanData = new Map<number, Uint8Array[]>();
  private pageErrors: string[] = [];
  private gone: string | null = null;

  constructor(private readonly options: BrowserVMOptions = {}) {
    const o = options as BrowserVMOptions & Pick<AgentVMOptions, 'state' | 'mounts'>;
    if (o.state !== undefined) throw unsupported('the state option', 'a BrowserVM keeps its layer in the browser: use persist with userDataDir');
    if (o.mounts !== undefined && Object.keys(o.mounts).length) throw unsupported('the mounts option', 'the browser cannot reach host directories');
    if (options.network !== undefined) void new NetPolicy(options.network);
    checkPolicy(options.policy);
    if (options.userDataDir !== undefined && (options.browser || options.wsEndpoint)) throw new Error('BrowserVM: userDataDir launches a browser of its own; it cannot be combined with browser or wsEndpoint');
  }

  /** Open the browser context, load the sandbox page and boot the VM in it. */
  async start(): Promise<void> {
    if (this.page) return;
    this.starting ??= this.open().catch(async (e: unknown) => {
      await this.teardown();
      this.starting = null;
      throw e;
    });
    await this.starting;
  }

  private async open(): Promise<void> {
    const o = this.options;
    const timeout = o.bootTimeoutMs ?? 60_000;
    let base = o.appUrl;
    if (base === undefined) {
      const app = await serveApp(o.app, o.port);
      this.cleanup.push(app.release);
      base = app.value;
    }
    const context = await this.newContext();
    await context.exposeBinding(EVENT_BINDING, (_src, e: SandboxEvent) => this.event(e));
    await context.exposeFunction(APPROVAL_BINDING, (r: ApprovalRequest) => this.approve(r));
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
    page.on('crash', () => this.lost('the page crashed'));
    page.on('close', () => this.lost('the page was closed'));
    await page.goto(new URL(SANDBOX_PAGE, base).href, { timeout });
    await page.waitForFunction(() => 'agentos' in globalThis, null, { timeout: 10_000 }).catch(() => {
      throw new Error(`BrowserVM: the sandbox page did not load (${this.pageErrors.join('; ') || 'no window.agentos'})`);
    });
    this.page = page;
    await this.call('start', [{ persist: o.persist, env: o.env, cwd: o.cwd, policy: o.policy, network: o.network, approvals: o.onApproval !== undefined }]);
    if (this.outputListeners.size) await this.call('listen', ['output', true]);
    if (this.auditListeners.size) await this.call('listen', ['audit', true]);
  }

  /** A context of its own: in the shared browser, or (userDataDir) a persistent one. */
  private async newContext(): Promise<BrowserContext> {
    const o = this.options;
    let context: BrowserContext;
    if (o.userDataDir !== undefined) {
      const { chromium } = await loadPlaywright();
      context = await chromium.launchPersistentContext(o.userDataDir, { executablePath: chromiumPath(o), headless: o.headless ?? true, args: CHROMIUM_ARGS });
    } else {
      let browser = o.browser;
      if (!browser) {
        const lease = await acquireBrowser(o);
        this.cleanup.push(lease.release);
        browser = lease.value;
      }
      context = await browser.newContext();
    }
    this.cleanup.push(() => context.close().catch(() => {}));
    return context;
  }

  private lost(why: string): void {
    this.gone ??= why;
    for (const t of this.terminals.values()) t.exit(-1);
    this.terminals.clear();
  }

  private event(e: SandboxEvent): void {
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

  private async approve(r: ApprovalRequest): Promise<Answer> {
    try {
      return (await this.options.onApproval?.(r)) ?? 'deny';
    } catch {
      return 'deny';
    }
  }

  /** One method of the page's window.agentos; its error rethrown here with its own message. */
  private async call<M extends SandboxMethod>(method: M, args: Parameters<SandboxApi[M]>): Promise<Awaited<ReturnType<SandboxApi[M]>>> {
    const page = this.page;
    if (!page) throw new Error('BrowserVM: not started (call start() first)');
    if (this.gone) throw new Error(`BrowserVM: ${this.gone}`);
    let r;
    try {
      r = await page.evaluate(([m, a]) => (globalThis as unknown as { agentos: SandboxWindow }).agentos.call(m, a as never), [method, args] as [SandboxMethod, unknown[]]);
    } catch (e) {
      throw new Error(`BrowserVM: ${this.gone ?? (e as Error).message}`);
    }
    if (!r.ok) throw Object.assign(new Error(r.message), r.code === undefined ? {} : { code: r.code });
    return r.value as Awaited<ReturnType<SandboxApi[M]>>;
  }

  /** The Playwright page the VM runs in (for screenshots, tracing, CDP). */
  get playwrightPage(): Page {
    if (!this.page) throw new Error('BrowserVM: not started (call start() first)');
    return this.page;
  }

  /** Run a command in the session; bytes exactly as the command wrote them. */
  async execBytes(cmd: string, opts: ExecOptions = {}): Promise<ExecBytesResult> {
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
  async run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
    if (opts.path !== undefined) throw unsupported('run() with path', 'the sandbox runs programs by argv[0]');
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
    if (event !== 'output' && event !== 'audit') throw new Error(`BrowserVM: unknown event ${event as string}`);
    const set = (event === 'output' ? this.outputListeners : this.auditListeners) as Set<unknown>;
    set.add(cb);
    // The page forwards events only while someone listens (each one is a round trip).
    if (set.size === 1 && this.page) void this.call('listen', [event, true]).catch(() => {});
    return () => {
      if (set.delete(cb) && set.size === 0 && this.page && !this.gone) void this.call('listen', [event, false]).catch(() => {});
    };
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

  spawn(): never {
    throw unsupported('spawn()', 'process streams live in the page; use exec() with stdin, or openTerminal()');
  }

  openExtraSession(): never {
    throw unsupported('openExtraSession()', 'one session per page; start another BrowserVM');
  }

  fork(): never {
    throw unsupported('fork()', 'export a snapshot and import it into another BrowserVM');
  }

  /** AgentVM's host-level Machine lives in the page. */
  get vm(): never {
    throw unsupported('vm (the Machine)', 'the kernel lives in the page; use exec, run, readFile, writeFile');
  }

  /** Stop the VM, close its context, and release the browser and the app server (the last user closes them). */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => {});
    if (this.page && !this.gone) await this.call('stop', []).catch(() => {});
    this.lost('stopped');
    await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.page = null;
    this.starting = null;
    const steps = this.cleanup.reverse();
    this.cleanup = [];
    for (const step of steps) await step().catch(() => {});
  }
}

function wire(o: ExecOptions): WireExecOptions {
  return { timeoutMs: o.timeoutMs, cwd: o.cwd, env: o.env, ...(o.stdin === undefined ? {} : { stdin: toBase64(bytesOf(o.stdin)) }) };
}
