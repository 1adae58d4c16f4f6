// A kernel in this thread for /aos tests: a real Kernel and Vfs (MemFs root,
// /aos mounted), processes made directly in its table (no workers run), agent
// records made directly in kernel.agents, and syscalls run through the
// kernel's own dispatch (Call) as a given process.

import type { Value } from '../../src/abi/codec.js';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_RDONLY } from '../../src/abi/fcntl.js';
import type { AgentProc } from '../../src/kernel/agent/table.js';
import { FifoTable } from '../../src/kernel/fifo.js';
import type { OpenFile } from '../../src/kernel/file.js';
import { AosFs } from '../../src/kernel/fs/aosfs.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import { Kernel } from '../../src/kernel/kernel.js';
import { Process } from '../../src/kernel/process.js';
import type { WorkerPort } from '../../src/kernel/runner.js';
import { handlers } from '../../src/kernel/sys/table.js';
import { Call } from '../../src/kernel/syscall.js';
import { ROOT_CRED, Vfs } from '../../src/kernel/vfs/vfs.js';
import { WaitQueue } from '../../src/kernel/waitqueue.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

const idleWorker = (): WorkerPort => ({ post() {}, onMessage() {}, onError() {}, terminate() {} });

export function world(policy?: unknown) {
  const vfs = new Vfs(new MemFs());
  const root = vfs.root();
  for (const d of ['/tmp', '/aos', '/etc', '/etc/aos', '/etc/aos/agents.d', '/home']) vfs.mkdir(ROOT_CRED, root, d, 0o755);
  const k = new Kernel({ vfs, fifos: new FifoTable(), workers: idleWorker, warmWorkers: 0, policy });
  vfs.mount(ROOT_CRED, '/aos', new AosFs(k));
  writeAs(k, ROOT_CRED, '/etc/aos/agents.d/coder.yaml', 'model: mock\ntools: [bash]\n');
  writeAs(k, ROOT_CRED, '/etc/aos/models.yaml', 'models:\n  mock:\n    input_usd_per_mtok: 1\n    output_usd_per_mtok: 2\n');
  return k;
}

/** A process in the table (not running: no worker), child of `parent`. */
export function proc(k: Kernel, parent: Process, uid = 1000, comm = 'sh'): Process {
  const p = new Process(k.procs.allocPid(), k.vfs.root(), parent);
  p.uid = p.ruid = p.gid = p.rgid = uid;
  p.comm = comm;
  p.argv = [comm];
  parent.children.add(p);
  k.procs.add(p);
  return p;
}

/** Make `p` an agent record (what the model service's `begin` does). */
export function agent(k: Kernel, p: Process, name = 'coder'): AgentProc {
  const a = {
    pid: p.pid, ppid: p.ppid, agent: name, model: 'mock', status: 'running' as const,
    budget: { limitUsd: 1, spentUsd: 0.25, tokensLimit: Infinity, tokensUsed: 1234 },
    trace: [], intents: new Map(), exit: null, started: Date.now(), parent: null, tools: ['bash'], messages: [],
  };
  k.agents.add(a as unknown as AgentProc);
  return k.agents.get(p.pid)!;
}

/** A syscall as `p`, through the kernel's dispatch; resolves with its value, rejects with its SysError. */
export function sys(k: Kernel, p: Process, name: keyof typeof handlers, ...args: Value[]): Promise<Value> {
  return new Promise((resolve, reject) => {
    new Call(k, p, name, handlers[name], args, (errno, value) => (errno ? reject(new SysError(errno, typeof value === 'string' ? value : name)) : resolve(value))).attempt();
  });
}

export function open(k: Kernel, cred: { uid: number; gid: number; pid: number }, path: string, flags = O_RDONLY): OpenFile {
  const f = k.vfs.open({ ...cred, groups: [], umask: 0o022 }, k.vfs.root(), path, flags, 0o644);
  if (f instanceof WaitQueue) throw new Error('open would block');
  return f;
}

export function readAll(f: OpenFile): string | WaitQueue {
  let out = '';
  for (;;) {
    const b = f.ops.read(f, 65536);
    if (b instanceof WaitQueue) return b;
    if (b.byteLength === 0) return out;
    out += dec.decode(b);
  }
}

export function cat(k: Kernel, p: Process | { uid: number; gid: number; pid: number }, path: string): string {
  const f = open(k, p instanceof Process ? p.cred : p, path);
  try {
    const r = readAll(f);
    if (r instanceof WaitQueue) throw new Error('read would block');
    return r;
  } finally {
    f.unref();
  }
}

/** Open, write `text` (in pieces of `chunk`), close: what `echo > file` does. */
export function writeAs(k: Kernel, cred: { uid: number; gid: number; pid: number }, path: string, text: string | Uint8Array, flags = 0o1101 /* O_WRONLY|O_CREAT|O_TRUNC */, chunk = 65536): void {
  const f = open(k, cred, path, flags);
  try {
    const data = typeof text === 'string' ? enc.encode(text) : text;
    for (let i = 0; i < data.byteLength; i += chunk) {
      const n = f.ops.write(f, data.slice(i, i + chunk));
      if (n instanceof WaitQueue) throw new Error('write would block');
    }
  } finally {
    f.unref();
  }
}

export function errnoOf(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    if (e instanceof SysError) return e.errno;
    throw e;
  }
  return 0;
}

export async function errnoOfAsync(pr: Promise<unknown>): Promise<number> {
  try {
    await pr;
  } catch (e) {
    if (e instanceof SysError) return e.errno;
    throw e;
  }
  return 0;
}

export { Errno };
