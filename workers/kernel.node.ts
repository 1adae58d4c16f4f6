// Node host: the kernel worker. Process workers are worker_threads beside it.
// The host's first message carries the base image; the kernel boots on it.

import { expose } from 'comlink';
import { parentPort, Worker } from 'node:worker_threads';
import { KernelService } from '../src/host/kernel-service.js';
import { nodeEndpoint } from '../src/host/node/endpoint.js';
import { bootKernel } from '../src/kernel/boot.js';
import type { WorkerPort } from '../src/kernel/runner.js';

const processWorkerUrl = new URL('./process.worker.js', import.meta.url);

function createProcessWorker(): WorkerPort {
  const w = new Worker(processWorkerUrl);
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.on('message', cb),
    onError: (cb) => w.on('error', cb),
    terminate: () => void w.terminate(),
  };
}

parentPort!.once('message', ({ image }: { image: Uint8Array }) => {
  const kernel = bootKernel({ workers: createProcessWorker, image });
  expose(new KernelService(kernel), nodeEndpoint(parentPort!));
});
