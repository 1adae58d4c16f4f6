// The host's handle on an exec shell that runs in the kernel worker
// (worker/exec-shell.ts): one message to run a command, one back with its result.
// Output chunks cross as they arrive only when the caller asks for them.

import type { Remote } from 'comlink';
import type { ExecBytesResult, ExecOptions, OutputChunk } from '../worker/exec-shell.js';
import type { KernelService } from '../worker/kernel-service.js';

export class ExecClient {
  private queue: Promise<unknown> = Promise.resolve();
  /** False once the shell has ended (`exit`, a kill): the next exec needs a new shell. */
  alive = true;

  constructor(
    private readonly service: Remote<KernelService>,
    private readonly id: number,
    readonly shellPid: number,
  ) {}

  /** Run one command, giving `emit` its output as it comes; calls are serialised, as in a terminal. */
  exec(cmd: string, o: ExecOptions = {}, emit?: (c: OutputChunk) => void): Promise<ExecBytesResult> {
    const run = this.queue.then(() => this.run(cmd, o, emit));
    this.queue = run.catch(() => {});
    return run;
  }

  private async run(cmd: string, o: ExecOptions, emit?: (c: OutputChunk) => void): Promise<ExecBytesResult> {
    const done = this.service.shellExec(this.id, cmd, o, emit !== undefined);
    // Awaited after the stream; meanwhile a kernel that dies fails both, and that failure must not count as
    // unhandled (Node would end the host process for it).
    done.catch(() => {});
    // Every chunk is delivered before the result: the kernel ends the stream (null) only once the command is done.
    if (emit) {
      for (let chunks = await this.service.shellOutput(this.id); chunks; chunks = await this.service.shellOutput(this.id)) {
        chunks.forEach(emit);
      }
    }
    const { alive, ...result } = await done;
    this.alive = alive;
    return result;
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    this.alive = false;
    await this.service.shellClose(this.id);
  }
}
