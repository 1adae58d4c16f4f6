// Node host: start a kernel worker in this process and boot it on the base
// image. The library does this in the embedding process (isolation 'none');
// the VM's own process does it under Node's permission model (isolation
// 'process', vm-process.ts).

import type { Endpoint } from 'comlink';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { KernelBooted, KernelInit, KernelWorkerData } from '../worker/kernel-main.js';
import type { KernelHost } from '../api/machine.js';
import { nodeEndpoint } from './endpoint.js';

/** `npm run build` writes the base image beside dist/node. */
const IMAGE_DIR = new URL('../image/', import.meta.url);

/**
 * The current base image in a SharedArrayBuffer, and its sha256. Every kernel
 * of this process reads the same bytes in place (the image filesystem never
 * writes them, and what leaves the kernel is copied), so a VM costs no copy
 * of the image. Kept while a kernel worker of this process lives.
 */
let shared: SharedImage | null = null;

interface SharedImage {
  sha256: string;
  /** Read once, however many VMs boot at the same time. */
  image: Promise<Uint8Array<SharedArrayBuffer>>;
  /** Kernel workers using it. */
  users: number;
}

async function loadBaseImage(): Promise<{ image: Uint8Array<SharedArrayBuffer>; imageId: string; held: SharedImage }> {
  let manifest: { file: string; bytes: number; sha256: string };
  try {
    manifest = JSON.parse(await readFile(new URL('manifest.json', IMAGE_DIR), 'utf8'));
  } catch (e) {
    throw new Error(`agentOS: no base image at ${IMAGE_DIR.pathname} (run \`npm run build\`): ${(e as Error).message}`);
  }
  if (shared?.sha256 !== manifest.sha256) shared = { sha256: manifest.sha256, image: readImage(manifest), users: 0 };
  const held = shared;
  try {
    return { image: await held.image, imageId: manifest.sha256, held };
  } catch (e) {
    if (shared === held) shared = null;
    throw e;
  }
}

async function readImage(manifest: { file: string; bytes: number }): Promise<Uint8Array<SharedArrayBuffer>> {
  const buf = await readFile(new URL(manifest.file, IMAGE_DIR));
  if (buf.length !== manifest.bytes) throw new Error(`agentOS: ${manifest.file} is ${buf.length} bytes, manifest says ${manifest.bytes}`);
  const image = new Uint8Array(new SharedArrayBuffer(buf.length));
  image.set(buf);
  return image;
}

/** Keep the shared image while `worker` lives. */
function holdImage(worker: Worker, held: SharedImage): void {
  held.users++;
  worker.once('exit', () => {
    if (--held.users === 0 && shared === held) shared = null;
  });
}

/** What the kernel worker needs besides the image (paths already absolute). */
export type KernelThreadInit = Omit<KernelInit, 'image' | 'imageId' | 'persist'>;

/** A booted kernel worker and the pid of the process it runs in. */
export interface KernelThread {
  worker: Worker;
  pid: number;
}

/** Start the kernel worker and boot it; resolves once it has booted, rejects (worker ended) if it cannot. */
export async function startKernelThread(init: KernelThreadInit): Promise<KernelThread> {
  // The worker loads its bundle while the image is read.
  // The policy goes ahead of the image: the kernel worker starts the first process worker with its limits at once.
  const workerData: KernelWorkerData = { policy: init.policy, heapMb: init.heapMb };
  const worker = new Worker(new URL('./kernel.worker.js', import.meta.url), { workerData, ...(init.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: init.heapMb } } : {}) });
  try {
    const { image, imageId, held } = await loadBaseImage();
    holdImage(worker, held);
    const booted = new Promise<KernelBooted>((ok, fail) => {
      worker.once('message', ok);
      worker.once('error', fail);
    });
    // The kernel's first message is its image: shared, not copied.
    const seed = init.seed;
    worker.postMessage({ ...init, image, imageId } satisfies KernelInit, seed ? [seed.buffer as ArrayBuffer] : []);
    const answer = await booted;
    if (answer.type === 'boot-error') throw new Error(`agentOS: cannot open the VM: ${answer.message}`);
    return { worker, pid: answer.pid ?? process.pid };
  } catch (e) {
    await worker.terminate();
    throw e;
  }
}

/** A running kernel as the host sees it, wherever it runs. */
export interface KernelLink {
  /** The kernel worker's control channel (the caller seals it). */
  endpoint: Endpoint;
  /** Rejects when the kernel is gone, with why. */
  died: Promise<never>;
  host: KernelHost;
  /** End the kernel (after its shutdown call) and wait until it is gone. */
  terminate(): Promise<void>;
}

/** The kernel as a worker of this process (isolation 'none'). */
export async function startLocalKernel(init: KernelThreadInit): Promise<KernelLink> {
  const { worker, pid } = await startKernelThread(init);
  const died = new Promise<never>((_, fail) => {
    worker.once('error', (e) => fail(new Error(`agentOS: the kernel failed: ${(e as Error).stack ?? String(e)}`)));
    worker.once('exit', () => fail(new Error('agentOS: the VM has stopped')));
  });
  return { endpoint: nodeEndpoint(worker), died, host: { isolation: 'none', pid }, terminate: async () => void (await worker.terminate()) };
}
