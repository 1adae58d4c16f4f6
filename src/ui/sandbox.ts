// The sandbox page (sandbox.html): no terminal UI, one AgentVM that BrowserVM
// drives from Node through `window.agentos.call(method, args)`
// (src/host/playwright/protocol.ts). Bytes cross as base64.

import { AgentVM, type Terminal } from '../host/browser/index.js';
import {
  APPROVAL_BINDING, EVENT_BINDING, fromBase64, toBase64,
  type Answer, type ApprovalRequest, type Reply, type SandboxApi, type SandboxEvent, type SandboxMethod, type SandboxWindow, type WireExecOptions,
} from '../host/playwright/protocol.js';

type Bindings = {
  [EVENT_BINDING]?: (e: SandboxEvent) => Promise<void>;
  [APPROVAL_BINDING]?: (r: ApprovalRequest) => Promise<Answer>;
};
const host = globalThis as unknown as Bindings & { agentos: SandboxWindow };

let vm: AgentVM | null = null;
const terms = new Map<number, Terminal>();
let nextTerm = 1;
const unlisten: Partial<Record<'output' | 'audit', () => void>> = {};

const need = (): AgentVM => {
  if (!vm) throw new Error('BrowserVM: the sandbox is not started');
  return vm;
};
const emit = (e: SandboxEvent) => void host[EVENT_BINDING]?.(e);
const execOpts = (o: WireExecOptions) => ({ ...o, stdin: o.stdin === undefined ? undefined : fromBase64(o.stdin) });
const term = (id: number): Terminal => {
  const t = terms.get(id);
  if (!t) throw new Error(`BrowserVM: no terminal ${id}`);
  return t;
};

const api: SandboxApi = {
  async start(o) {
    if (vm) throw new Error('BrowserVM: already started');
    const approve = host[APPROVAL_BINDING];
    vm = new AgentVM({ ...o, onApproval: o.approvals && approve ? (r) => approve(r) : undefined });
    await vm.start();
  },
  async exec(cmd, o) {
    const r = await need().execBytes(cmd, execOpts(o));
    return { stdout: toBase64(r.stdout), stderr: toBase64(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut, ...(r.truncated ? { truncated: true } : {}) };
  },
  async run(argv, o) {
    const r = await need().run(argv, execOpts(o));
    return { stdout: toBase64(r.stdout), stderr: toBase64(r.stderr), status: r.status, exitCode: r.exitCode, signal: r.signal };
  },
  readFile: async (p) => toBase64(await need().readFile(p)),
  listDirectory: (p) => need().listDirectory(p),
  writeFile: (p, d, mode) => need().writeFile(p, fromBase64(d), mode ?? undefined),
  sync: () => need().sync(),
  audit: () => need().audit(),
  snapshot: (n) => need().snapshot(n),
  restore: (n) => need().restore(n),
  snapshotList: () => need().snapshots.list(),
  snapshotDelete: (n) => need().snapshots.delete(n),
  snapshotExport: async (n) => toBase64(await need().snapshots.export(n)),
  snapshotImport: (n, f) => need().snapshots.import(n, fromBase64(f)),
  async listen(kind, on) {
    unlisten[kind]?.();
    delete unlisten[kind];
    if (!on) return;
    unlisten[kind] = kind === 'output'
      ? need().on('output', (c) => emit({ type: 'output', stream: c.stream, data: toBase64(c.data) }))
      : need().on('audit', (e) => emit({ type: 'audit', event: e }));
  },
  async openTerminal(o) {
    const t = await need().openTerminal(o);
    const id = nextTerm++;
    terms.set(id, t);
    t.onData((b) => emit({ type: 'term-data', id, data: toBase64(b) }));
    void t.exited.then((code) => {
      terms.delete(id);
      emit({ type: 'term-exit', id, code });
    });
    return id;
  },
  termWrite: async (id, d) => term(id).write(fromBase64(d)),
  termResize: async (id, c, r) => term(id).resize(c, r),
  termClose: (id) => term(id).close(),
  async stop() {
    const v = vm;
    vm = null;
    await v?.stop();
  },
};

host.agentos = {
  async call(method, args) {
    try {
      const fn = api[method as SandboxMethod] as (...a: unknown[]) => Promise<unknown>;
      return { ok: true, value: await fn(...args) } as Reply<never>;
    } catch (e) {
      const err = e as Error & { code?: unknown };
      return { ok: false, message: err?.message ?? String(e), ...(typeof err?.code === 'string' ? { code: err.code } : {}) };
    }
  },
};
