// Browser host: boot an agentOS kernel in a Web Worker (needs crossOriginIsolated for SharedArrayBuffer).

import { wrap } from 'comlink';
import type { KernelService } from '../kernel-service.js';
import { Machine } from '../machine.js';

export { Machine } from '../machine.js';

export async function boot(): Promise<Machine> {
  if (!globalThis.crossOriginIsolated) {
    throw new Error('agentOS needs a cross-origin isolated page (COOP/COEP headers) for SharedArrayBuffer');
  }
  const worker = new Worker(new URL('../../../workers/kernel.browser.ts', import.meta.url), {
    type: 'module',
    name: 'agentos-kernel',
  });
  const machine = new Machine(wrap<KernelService>(worker), () => worker.terminate());
  await machine.status();
  return machine;
}
