// Node host: the kernel worker's entry. Process workers are worker_threads
// beside it. It starts the first one, then loads the kernel
// (workers/kernel-serve.node.ts), which boots on the host's first message.

import { totalmem } from 'node:os';
import { Worker, workerData } from 'node:worker_threads';
import type { KernelWorkerData } from '../src/host/worker/kernel-main.js';
import { processHeapCap, processHeapMemory } from '../src/host/node/worker/process-heap.js';
import type { WorkerFactory, WorkerLimits, WorkerPort } from '../src/kernel/runner.js';
import { heldPort } from '../src/host/worker/held-port.js';

const processWorkerUrl = new URL('./process.worker.js', import.meta.url);

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
  return heldPort<Error & { code?: string }>({
    post: (m) => w.postMessage(m),
    terminate: () => void w.terminate(),
    listen: (onMessage, onError) => {
      w.on('message', onMessage);
      w.on('error', onError);
    },
  }, (cb, e) => cb(e, e.code === 'ERR_WORKER_OUT_OF_MEMORY'));
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
      const cap = processHeapCap(processHeapMemory(data.policy, totalmem()), data.heapMb);
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
const processWorkers = (heapMb: number | undefined): WorkerFactory => ({ memoryBytes }: WorkerLimits): WorkerPort => {
  const cap = processHeapCap(memoryBytes, heapMb);
  const first = early;
  early = null;
  if (first?.cap === cap) return first.port;
  first?.port.terminate();
  return processWorker(cap);
};

// The kernel itself loads only now, with the first process worker already
// starting: that worker's bootstrap overlaps the kernel bundle's compile.
void import('./kernel-serve.node.js').then(({ serveKernel }) => serveKernel(processWorkers));
