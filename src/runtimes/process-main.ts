// The body of every process worker: wait for a program, run it on its runtime, report back, repeat.
// Host-agnostic: workers/process.*.ts only adapt the message port.

import { Errno, SysError } from '../abi/errno.js';
import type { RuntimeName } from '../abi/runtime.js';
import type { RunMessage, WorkerMessage } from '../abi/runtime.js';
import { SyscallClient } from '../libc/syscall-client.js';
import { ExecReplaced, Sys } from '../libc/sys.js';
import { shellMain } from '../shell/main.js';
import { makeApi } from './js/api.js';
import { runJs } from './js/run.js';
import { ProcessContext } from './context.js';
import { installLongTimers } from './long-timers.js';
import { consoleFor } from './guest-console.js';
import { onGuestError } from './guest-errors.js';

export interface Port {
  post(msg: WorkerMessage): void;
  onMessage(cb: (msg: RunMessage) => void): void;
}

export type Runtime = (ctx: ProcessContext) => unknown;

/**
 * Runtimes this worker can run; the kernel refuses others with ENOEXEC. The
 * shell is one of them (decision 0008): every pooled worker has it loaded and
 * compiled, so child shells for pipelines and subshells start in a millisecond.
 * The other runtimes are loaded the first time the worker runs one (then kept):
 * compiling them in every worker at boot cost more than starting the shell.
 */
const RUNTIMES: Record<RuntimeName, () => Runtime | Promise<Runtime>> = {
  js: () => runJs,
  sh: () => (ctx) => shellMain(makeApi(ctx, ctx.argv), ctx.file),
  node: async () => (await import('./node/run.js')).runNode,
  wasm: async () => (await import('./wasm/run.js')).runWasm,
  python: async () => (await import('./python/run.js')).runPython,
  linux: async () => (await import('./linux/run.js')).runLinux,
};

export function processMain(port: Port): void {
  installLongTimers();
  port.onMessage((msg) => {
    if (msg.type !== 'run') return;
    void run(port, msg);
  });
  // Booted: the kernel starts at most a few workers at a time (runner.ts).
  port.post({ type: 'ready' });
}

async function run(port: Port, msg: RunMessage): Promise<void> {
  const client = new SyscallClient(msg.channel, msg.doorbell);
  const ctx = new ProcessContext(new Sys(client), msg);
  consoleFor(ctx.sys);
  onGuestError((e) => ctx.fatal(e));
  try {
    const load = Object.hasOwn(RUNTIMES, msg.image.runtime) ? RUNTIMES[msg.image.runtime as RuntimeName] : undefined;
    if (!load) throw new SysError(Errno.ENOEXEC, `no runtime '${msg.image.runtime}'`);
    await (await load())(ctx);
    ctx.exit(0);
  } catch (e) {
    // After a successful execve the pid runs its new image in another worker: just unwind.
    if (!(e instanceof ExecReplaced) && !ctx.exited) ctx.fatal(e);
  } finally {
    consoleFor(null);
    onGuestError(null);
    client.invalidate();
    port.post({ type: ctx.retire ? 'retire' : 'idle' });
  }
}
