// Browser host: the kernel worker. Process workers are nested dedicated workers.
// The page's first message carries the base image (and the name of a
// persistent VM); the kernel boots on it.

import { expose } from 'comlink';
import { IdbLayerStore } from '../src/host/browser/layer-store.js';
import { browserFetch } from '../src/host/browser/net-fetch.js';
import { startKernel, type KernelBooted, type KernelInit } from '../src/host/kernel-main.js';
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
self.addEventListener('message', (e: MessageEvent<KernelInit>) => {
  startKernel(e.data, createProcessWorker, (i) => (i.persist ? new IdbLayerStore(i.persist) : null), browserFetch).then(
    (service) => {
      expose(service);
      self.postMessage({ type: 'booted' } satisfies KernelBooted);
    },
    (err: unknown) => self.postMessage({ type: 'boot-error', message: err instanceof Error ? err.message : String(err) } satisfies KernelBooted),
  );
}, { once: true });
