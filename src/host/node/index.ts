// Node host: boot an agentOS kernel in a worker_threads worker. No browser needed.

import { wrap } from 'comlink';
import { Worker } from 'node:worker_threads';
import type { KernelService } from '../kernel-service.js';
import { Machine } from '../machine.js';
import { nodeEndpoint } from './endpoint.js';

export { Machine } from '../machine.js';
export type { RunOptions, RunResult } from '../machine.js';

/** Boot a kernel; resolves once it answers. */
export async function boot(): Promise<Machine> {
  const worker = new Worker(new URL('./kernel.worker.js', import.meta.url));
  const service = wrap<KernelService>(nodeEndpoint(worker));
  const machine = new Machine(service, async () => {
    await worker.terminate();
  });
  await machine.status();
  return machine;
}
