// Node host: the kernel worker's kernel, loaded by workers/kernel.node.ts once
// it has started the first process worker. The host's first message carries
// the base image (and the state directory of a persistent VM); the kernel
// boots on it.

import { expose } from 'comlink';
import { availableParallelism, totalmem } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { startKernel, type KernelBooted, type KernelInit } from '../src/host/worker/kernel-main.js';
import { nodeEndpoint } from '../src/host/node/endpoint.js';
import { HostFs } from '../src/host/node/worker/hostfs.js';
import { sealEndpoint } from '../src/host/sealed-endpoint.js';
import { DirLayerStore } from '../src/host/node/worker/layer-store.js';
import { nodeFetch } from '../src/host/node/worker/net-fetch.js';
import type { WorkerFactory } from '../src/kernel/runner.js';

/** Boot the kernel on the host's first message; `workers(heapMb)` makes its process workers. */
export function serveKernel(workers: (heapMb: number | undefined) => WorkerFactory): void {
  parentPort!.once('message', (init: KernelInit) => {
    startKernel(init, {
      workers: workers(init.heapMb),
      openStore: (i) => (i.state ? new DirLayerStore(i.state) : null),
      openMount: (m) => new HostFs(m.host!, m.readOnly ?? false),
      fetch: nodeFetch,
      hostMemory: totalmem(),
      cpus: availableParallelism(),
    }).then(
      (service) => {
        parentPort!.postMessage({ type: 'booted', pid: process.pid } satisfies KernelBooted);
        expose(service, sealEndpoint(nodeEndpoint(parentPort!), init.secret));
      },
      (e: unknown) => parentPort!.postMessage({ type: 'boot-error', message: e instanceof Error ? e.message : String(e) } satisfies KernelBooted),
    );
  });
}
