// The body of every process worker: wait for a program, run it on its runtime, report back, repeat.
// Host-agnostic: workers/process.*.ts only adapt the message port.

import { Errno, SysError } from '../abi/errno.js';
import type { RunMessage, WorkerMessage } from '../kernel/runner.js';
import { SyscallClient } from '../user/syscall-client.js';
import { Sys } from '../user/sys.js';
import { runJs } from './js/run.js';
import { ProcessContext } from './context.js';

export interface Port {
  post(msg: WorkerMessage): void;
  onMessage(cb: (msg: RunMessage) => void): void;
}

export type Runtime = (ctx: ProcessContext) => unknown;

/** Runtimes this worker can run; the kernel refuses others with ENOEXEC. */
export const RUNTIMES: Record<string, Runtime> = { js: runJs };

export function processMain(port: Port): void {
  port.onMessage((msg) => {
    if (msg.type !== 'run') return;
    void run(port, msg);
  });
}

async function run(port: Port, msg: RunMessage): Promise<void> {
  const client = new SyscallClient(msg.channel, msg.doorbell);
  const ctx = new ProcessContext(new Sys(client), msg);
  try {
    const runtime = RUNTIMES[msg.image.runtime];
    if (!runtime) throw new SysError(Errno.ENOEXEC, `no runtime '${msg.image.runtime}'`);
    await runtime(ctx);
    ctx.exit(0);
  } catch (e) {
    if (!ctx.exited) ctx.fatal(e);
  } finally {
    client.invalidate();
    port.post({ type: 'idle' });
  }
}
