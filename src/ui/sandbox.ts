// The sandbox page (sandbox.html): no terminal UI, one AgentVM, driven
// through the API of src/host/playwright/protocol.ts. Two drivers:
// - BrowserVM, from Node: `window.agentos.call(method, args)` through
//   Playwright, events and approvals through its bindings.
// - The page that embeds this one in a frame (<agentos-terminal
//   sandbox-origin>, FrameVM): postMessage, with the origin named by the
//   `embedder` query parameter only — messages from anywhere else are ignored,
//   and nothing is sent anywhere else. Guest code then runs in this page's
//   origin, never in the embedder's.
// Bytes cross as base64.

import { AgentVM, type Terminal } from '../host/browser/index.js';
import type { Value } from '../abi/codec.js';
import type { AgentRunResult } from '../host/api/agents.js';
import type { SyscallArgs } from '../abi/syscall-types.js';
import type { SyscallName } from '../abi/syscalls.js';
import {
  APPROVAL_BINDING, EMBEDDER_PARAM, EVENT_BINDING, fromBase64, toBase64,
  type Answer, type ApprovalRequest, type FrameMessage, type FrameRequest, type Reply, type SandboxApi, type SandboxEvent, type SandboxMethod,
  type SandboxWindow, type WireExecOptions,
} from '../host/playwright/protocol.js';

type Bindings = {
  [EVENT_BINDING]?: (e: SandboxEvent) => Promise<void>;
  [APPROVAL_BINDING]?: (r: ApprovalRequest) => Promise<Answer>;
};
const host = globalThis as unknown as Bindings & { agentos: SandboxWindow };

let vm: AgentVM | null = null;
/** Agents vm.agents.run started, by pid: their results until the driver asks (agentWait). */
const agents = new Map<number, Promise<AgentRunResult>>();
const terms = new Map<number, Terminal>();
let nextTerm = 1;
const unlisten: Partial<Record<'output' | 'audit', () => void>> = {};

const need = (): AgentVM => {
  if (!vm) throw new Error('BrowserVM: the sandbox is not started');
  return vm;
};
/** Where events and approval requests go: BrowserVM's bindings, or the embedding page. */
let emit = (e: SandboxEvent): void => void host[EVENT_BINDING]?.(e);
let askHost = (): ((r: ApprovalRequest) => Promise<Answer>) | undefined => host[APPROVAL_BINDING];
/**
 * The name a persistent VM has in this origin's storage. Serving an embedder,
 * its VMs are named for it: storage here is shared by every origin of a site
 * that frames this page (browsers partition it by top-level site, not origin)
 * and by this origin's own pages, so a name alone would open another's VM.
 */
let storedName = (name: string): string => name;
const execOpts = (o: WireExecOptions) => ({ ...o, stdin: o.stdin === undefined ? undefined : fromBase64(o.stdin) });
const term = (id: number): Terminal => {
  const t = terms.get(id);
  if (!t) throw new Error(`BrowserVM: no terminal ${id}`);
  return t;
};

const api: SandboxApi = {
  async start(o) {
    if (vm) throw new Error('BrowserVM: already started');
    if (!crossOriginIsolated) throw new Error('agentOS: the sandbox page is not cross-origin isolated (serve it with Document-Isolation-Policy: isolate-and-require-corp, which isolates it in any page in Chromium; or with Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp and, in a frame, Cross-Origin-Resource-Policy: cross-origin, the embedding page with COOP/COEP too)');
    const approve = askHost();
    const persist = o.persist === undefined ? undefined : storedName(o.persist);
    vm = new AgentVM({ ...o, persist, onApproval: o.approvals && approve ? (r) => approve(r) : undefined });
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
  jobStart: (cmd, o) => need().jobs.start(cmd, o),
  jobOutput: (id, cursor) => need().jobs.output(id, cursor),
  jobWait: (id, o) => need().jobs.wait(id, o),
  jobKill: (id, signal) => need().jobs.kill(id, signal),
  jobList: () => need().jobs.list(),
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
  // Name and arguments arrive as data from the page's driver: the kernel checks them, as it does a process's.
  syscall: (name, args) => need().vm.syscall(name as SyscallName, ...(args as SyscallArgs<SyscallName>)) as Promise<Value>,
  async agentRun(prompt, o) {
    const a = await need().agents.run(prompt, o);
    const done = a.wait();
    done.catch(() => {}); // a VM stopped before anyone waited: not an unhandled rejection in the page
    agents.set(a.pid, done);
    return a.pid;
  },
  async agentWait(pid) {
    const done = agents.get(pid);
    if (!done) throw new Error(`BrowserVM: no agent ${pid} that vm.agents.run started and no one waited for`);
    try {
      return await done;
    } finally {
      agents.delete(pid);
    }
  },
  async stop() {
    const v = vm;
    vm = null;
    agents.clear();
    await v?.stop();
  },
};

async function call(method: string, args: unknown[]): Promise<Reply<unknown>> {
  try {
    if (!Object.hasOwn(api, method)) throw new Error(`agentOS sandbox: no method ${method}`);
    const fn = api[method as SandboxMethod] as (...a: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn(...args) };
  } catch (e) {
    const err = e as Error & { code?: unknown };
    return { ok: false, message: err?.message ?? String(e), ...(typeof err?.code === 'string' ? { code: err.code } : {}) };
  }
}

host.agentos = { call: call as SandboxWindow['call'] };

/** In a frame whose URL names the embedding origin: the same API over postMessage, with that origin only. */
function serveEmbedder(embedder: string): void {
  const parent = window.parent;
  const post = (m: FrameMessage) => parent.postMessage(m, embedder); // delivered only if the parent is still that origin
  const answers = new Map<number, (a: Answer) => void>();
  let nextAsk = 1;
  storedName = (name) => `${embedder} ${name}`;
  emit = (event) => post({ agentos: 'event', event });
  askHost = () => (request) => new Promise<Answer>((resolve) => {
    const id = nextAsk++;
    answers.set(id, resolve);
    post({ agentos: 'ask', id, request });
  });
  window.addEventListener('message', (ev: MessageEvent<FrameRequest>) => {
    if (ev.origin !== embedder || ev.source !== parent) return; // anyone else: ignored, unanswered
    const m = ev.data;
    if (m?.agentos === 'call' && Array.isArray(m.args)) {
      void call(m.method, m.args).then((reply) => post({ agentos: 'reply', id: m.id, reply }));
    } else if (m?.agentos === 'answer') {
      answers.get(m.id)?.(m.answer);
      answers.delete(m.id);
    }
  });
  post({ agentos: 'ready' });
}

const embedder = new URLSearchParams(location.search).get(EMBEDDER_PARAM);
if (embedder !== null && window.parent !== window) {
  // Only an exact origin: a URL with a path, or 'null', or '*', would widen who is answered.
  let origin: string | null = null;
  try {
    origin = new URL(embedder).origin;
  } catch {
    // not a URL
  }
  if (origin !== embedder || origin === 'null') throw new Error(`agentOS sandbox: ${EMBEDDER_PARAM}=${embedder} is not an origin`);
  serveEmbedder(embedder);
}
