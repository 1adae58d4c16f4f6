// Node host: the kernel worker. Process workers are worker_threads beside it.
// The host's first message carries the base image (and the state directory
// of a persistent VM); the kernel boots on it.

import { expose } from 'comlink';
import { availableParallelism, totalmem } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { resolveLimits } from '../src/kernel/policy/defaults.js';
import { checkPolicy } from '../src/kernel/policy/types.js';
import { startKernel, type KernelBooted, type KernelInit, type KernelWorkerData } from '../src/host/worker/kernel-main.js';
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

/** A process worker's heap cap in MiB (Infinity: Node's default) for the policy's memoryBytes and the VM's heapMb. */
function heapCap(memoryBytes: number | undefined, heapMb: number | undefined): number {
  return Math.min(memoryBytes === undefined ? Infinity : Math.max(MIN_HEAP_MIB, Math.ceil(memoryBytes / 2 ** 20)), heapMb ?? Infinity);
}

/**
 * A process worker. A heap past its limit ends the worker with
 * ERR_WORKER_OUT_OF_MEMORY, not the kernel or the host. What it posts or
 * throws before the runner listens is held for it (the first worker starts
 * before the kernel boots, below).
 */
function processWorker(cap: number): WorkerPort {
  // The worker's own stdout and stderr (what its original console, Node's
  // warnings and errors print) are not piped to the host's: guest code could
  // reach them. The program's output goes through its fds; these are dropped.
  const w = new Worker(processWorkerUrl, { stdout: true, stderr: true, ...(cap === Infinity ? {} : { resourceLimits: { maxOldGenerationSizeMb: cap } }) });
  w.stdout.resume();
  w.stderr.resume();
  const held: unknown[] = [];
  let deliver = (m: unknown) => void held.push(m);
  w.on('message', (m) => deliver(m));
  const errors: (Error & { code?: string })[] = [];
  let fail = (e: Error & { code?: string }) => void errors.push(e);
  w.on('error', (e) => fail(e));
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => {
      deliver = cb;
      for (const m of held.splice(0)) cb(m);
    },
    onError: (cb) => {
      fail = (e) => cb(e, e.code === 'ERR_WORKER_OUT_OF_MEMORY');
      for (const e of errors.splice(0)) fail(e);
    },
    terminate: () => void w.terminate(),
  };
}

/**
 * The first process worker starts now, beside the kernel's boot rather than
 * after it: the exec shell's worker was the second of two worker bootstraps in
 * series on the way to a VM's first exec. Its heap cap is the one the
 * kernel's policy will ask for (the host sends the policy ahead of the image);
 * if the kernel asks for another, it is not used.
 */
let early: { cap: number; port: WorkerPort } | null = null;
{
  const data = workerData as KernelWorkerData | undefined;
  try {
    if (data) {
      const cap = heapCap(resolveLimits(checkPolicy(data.policy).processes, totalmem()).maxMemoryBytes, data.heapMb);
      early = { cap, port: processWorker(cap) };
    }
  } catch {
    // A policy the kernel refuses: its boot reports why; no worker ahead of it.
  }
}

/**
 * Process workers, their heaps capped by the policy's maxMemoryBytes and
 * at most the VM's heap cap (KernelInit.heapMb).
 */
const processWorkers = (heapMb: number | undefined) => ({ memoryBytes }: WorkerLimits): WorkerPort => {
  const cap = heapCap(memoryBytes, heapMb);
  const first = early;
  early = null;
  if (first?.cap === cap) return first.port;
  first?.port.terminate();
  return processWorker(cap);
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
