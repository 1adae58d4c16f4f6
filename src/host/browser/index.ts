// Browser host: boot an agentOS kernel in a Web Worker (needs crossOriginIsolated for SharedArrayBuffer).

import { wrap } from 'comlink';
import type { KernelService } from '../kernel-service.js';
import { AgentVM as BaseAgentVM, type AgentVMOptions } from '../agent-vm.js';
import { Machine } from '../machine.js';

export { Machine } from '../machine.js';

/** `npm run build` copies dist/image here: a small manifest and the content-addressed image it names. */
const IMAGE_BASE = '/image/';
const IMAGE_CACHE = 'agentos-image';

interface ImageManifest {
  file: string;
  bytes: number;
}

/**
 * The manifest, fetched past the HTTP cache once per page: the image must match
 * the kernel code this page loaded, and a revalidation per boot costs a round trip.
 */
let manifest: Promise<ImageManifest> | null = null;

function loadManifest(): Promise<ImageManifest> {
  manifest ??= fetch(`${IMAGE_BASE}manifest.json`, { cache: 'no-cache' }).then((res) => {
    if (!res.ok) throw new Error(`agentOS: no base image manifest (${IMAGE_BASE}manifest.json: HTTP ${res.status})`);
    return res.json() as Promise<ImageManifest>;
  });
  manifest.catch(() => (manifest = null)); // a failed fetch is retried by the next boot
  return manifest;
}

/** The current base image: its name is its hash, so once in the Cache API it is never fetched again. */
async function loadBaseImage(): Promise<Uint8Array> {
  const { file, bytes } = await loadManifest();
  const url = new URL(`${IMAGE_BASE}${file}`, location.href).href;
  const cache = await caches.open(IMAGE_CACHE).catch(() => null);
  const hit = await cache?.match(url);
  let buf: ArrayBuffer;
  if (hit) {
    buf = await hit.arrayBuffer();
  } else {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`agentOS: fetch ${url}: HTTP ${r.status}`);
    const stored = cache?.put(url, r.clone()).then(() => prune(cache, url)).catch(() => {}); // a full cache only costs refetches
    buf = await r.arrayBuffer();
    await stored;
  }
  if (buf.byteLength !== bytes) throw new Error(`agentOS: ${url} is ${buf.byteLength} bytes, manifest says ${bytes}`);
  return new Uint8Array(buf);
}

/** Drop images other than the current one. */
async function prune(cache: Cache, keep: string): Promise<void> {
  for (const req of await cache.keys()) if (req.url !== keep) await cache.delete(req);
}

export async function boot(): Promise<Machine> {
  if (!globalThis.crossOriginIsolated) {
    throw new Error('agentOS needs a cross-origin isolated page (COOP/COEP headers) for SharedArrayBuffer');
  }
  // The worker loads its code while the image is fetched.
  const worker = new Worker(new URL('../../../workers/kernel.browser.ts', import.meta.url), {
    type: 'module',
    name: 'agentos-kernel',
  });
  let image: Uint8Array;
  try {
    image = await loadBaseImage();
  } catch (e) {
    worker.terminate();
    throw e;
  }
  // The kernel's first message is its image: transferred, not copied.
  worker.postMessage({ image }, [image.buffer]);
  const machine = new Machine(wrap<KernelService>(worker), () => worker.terminate());
  await machine.status();
  return machine;
}

export type { AgentVMOptions, ExecResult, OutputListener } from '../agent-vm.js';

/** AgentVM in the browser: the same interface as on Node. */
export class AgentVM extends BaseAgentVM {
  constructor(options: AgentVMOptions = {}) {
    super(options, boot);
  }
}
