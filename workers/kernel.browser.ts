// Browser host: the kernel worker. Process workers are nested dedicated workers.
// The page's first message carries the base image; the kernel boots on it.

import { expose } from 'comlink';
import { KernelService } from '../src/host/kernel-service.js';
import { bootKernel } from '../src/kernel/boot.js';
import type { WorkerPort } from '../src/kernel/runner.js';

function createProcessWorker(): WorkerPort {
  const w = new Worker(new URL('./process.browser.ts', import.meta.url), { type: 'module', name: 'agentos-process' });
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data)),
    onError: (cb) => w.addEventListener('error', (e) => cb(e.message ?? e)),
    terminate: () => w.terminate(),
  };
}

// Comlink listens only after this: listeners added during a dispatch miss that event.
self.addEventListener('message', (e: MessageEvent<{ image: Uint8Array }>) => {
  const kernel = bootKernel({ workers: createProcessWorker, image: e.data.image });
  expose(new KernelService(kernel));
}, { once: true });
