// Node host: the kernel worker. Process workers are worker_threads beside it.
// The host's first message carries the base image (and the state directory
// of a persistent VM); the kernel boots on it.

import { expose } from 'comlink';
import { availableParallelism, totalmem } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { startKernel, type KernelBooted, type KernelInit } from '../src/host/worker/kernel-main.js';
import { nodeEndpoint } from '../src/host/node/endpoint.js';
import { HostFs } from '../src/host/node/worker/hostfs.js';
import { sealEndpoint } from '../src/host/sealed-endpoint.js';
import { DirLayerStore } from '../src/host/node/worker/layer-store.js';
import { nodeFetch } from '../src/host/node/worker/net-fetch.js';
import type { WorkerLimits, WorkerPort } from '../src/kernel/runner.js';

const processWorkerUrl = new URL('./process.worker.js', import.meta.url);

/**
 * The smallest JavaScript heap a process worker gets, whatever maxMemoryBytes
 * says: the runtimes themselves (the shell, Pyodide's JavaScript side) need it.
 */
const MIN_HEAP_MIB = 64;

/**
 * Process workers. A heap past its limit ends the worker with
 * ERR_WORKER_OUT_OF_MEMORY, not the kernel or the host. The limit is the
 * policy's maxMemoryBytes, and at most the VM's heap cap (KernelInit.heapMb).
 */
const processWorkers = (heapMb: number | undefined) => ({ memoryBytes }: WorkerLimits): WorkerPort => {
  const caps = [memoryBytes === undefined ? Infinity : Math.max(MIN_HEAP_MIB, Math.ceil(memoryBytes / 2 ** 20)), heapMb ?? Infinity];
  const cap = Math.min(...caps);
  // The worker's own stdout and stderr (what its original console, Node's
  // warnings and errors print) are not piped to the host's: guest code could
  // reach them. The program's output goes through its fds; these are dropped.
  const w = new Worker(processWorkerUrl, { stdout: true, stderr: true, ...(cap === Infinity ? {} : { resourceLimits: { maxOldGenerationSizeMb: cap } }) });
  w.stdout.resume();
  w.stderr.resume();
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.on('message', cb),
    onError: (cb) => w.on('error', (e: Error & { code?: string }) => cb(e, e.code === 'ERR_WORKER_OUT_OF_MEMORY')),
    terminate: () => void w.terminate(),
  };
};

parentPort!.once('message', (init: KernelInit) => {
  startKernel(init, {
    workers: processWorkers(init.heapMb),
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
