// Node host: the kernel worker. Process workers are worker_threads beside it.
// The host's first message carries the base image (and the state directory
// of a persistent VM); the kernel boots on it.

import { expose } from 'comlink';
import { parentPort, Worker } from 'node:worker_threads';
import { startKernel, type KernelBooted, type KernelInit } from '../src/host/kernel-main.js';
import { nodeEndpoint } from '../src/host/node/endpoint.js';
import { HostFs } from '../src/host/node/hostfs.js';
import { sealEndpoint } from '../src/host/sealed-endpoint.js';
import { DirLayerStore } from '../src/host/node/layer-store.js';
import { nodeFetch } from '../src/host/node/net-fetch.js';
import type { WorkerPort } from '../src/kernel/runner.js';

const processWorkerUrl = new URL('./process.worker.js', import.meta.url);

function createProcessWorker(): WorkerPort {
  // The worker's own stdout and stderr (what its original console, Node's
  // warnings and errors print) are not piped to the host's: guest code could
  // reach them. The program's output goes through its fds; these are dropped.
  const w = new Worker(processWorkerUrl, { stdout: true, stderr: true });
  w.stdout.resume();
  w.stderr.resume();
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.on('message', cb),
    onError: (cb) => w.on('error', cb),
    terminate: () => void w.terminate(),
  };
}

parentPort!.once('message', (init: KernelInit) => {
  startKernel(init, {
    workers: createProcessWorker,
    openStore: (i) => (i.state ? new DirLayerStore(i.state) : null),
    openMount: (m) => new HostFs(m.host!, m.readOnly ?? false),
    fetch: nodeFetch,
  }).then(
    (service) => {
      parentPort!.postMessage({ type: 'booted' } satisfies KernelBooted);
      expose(service, sealEndpoint(nodeEndpoint(parentPort!), init.secret));
    },
    (e: unknown) => parentPort!.postMessage({ type: 'boot-error', message: e instanceof Error ? e.message : String(e) } satisfies KernelBooted),
  );
});
