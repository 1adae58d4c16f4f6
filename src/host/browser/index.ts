// Browser host: boot an agentOS kernel in a Web Worker (needs crossOriginIsolated for SharedArrayBuffer).

import { wrap } from 'comlink';
import type { KernelBooted, KernelInit } from '../kernel-main.js';
import type { KernelService } from '../kernel-service.js';
import { AgentVM as BaseAgentVM, type AgentVMOptions } from '../agent-vm.js';
import { Machine } from '../machine.js';
import { NetPolicy, type NetworkPolicy } from '../../kernel/net/policy.js';

export { Machine } from '../machine.js';

/** `npm run build` copies dist/image here: a small manifest and the content-addressed image it names. */
const IMAGE_BASE = '/image/';
const IMAGE_CACHE = 'agentos-image';

interface ImageManifest {
  file: string;
  bytes: number;
  sha256: string;
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

export interface BootOptions {
  /** Name of a persistent VM: its writable layer lives in IndexedDB. Absent = ephemeral. */
  persist?: string;
  /** Take the VM over from another tab that has it open (that tab's VM stops). */
  takeover?: boolean;
  /** The VM's network policy; default 'none'. */
  network?: NetworkPolicy;
}

export async function boot(opts: BootOptions = {}): Promise<Machine> {
  if (!globalThis.crossOriginIsolated) {
    throw new Error('agentOS needs a cross-origin isolated page (COOP/COEP headers) for SharedArrayBuffer');
  }
  if (opts.network !== undefined) new NetPolicy(opts.network);
  const release = opts.persist === undefined ? () => {} : await lockVm(opts.persist, opts.takeover ?? false, () => worker.terminate());
  // The worker loads its code while the image is fetched.
  const worker = new Worker(new URL('../../../workers/kernel.browser.ts', import.meta.url), {
    type: 'module',
    name: 'agentos-kernel',
  });
  const stop = () => {
    worker.terminate();
    release();
  };
  try {
    const manifest = await loadManifest();
    const image = await loadBaseImage();
    const booted = new Promise<KernelBooted>((ok, fail) => {
      worker.addEventListener('message', (e) => ok(e.data as KernelBooted), { once: true });
      worker.addEventListener('error', (e) => fail(new Error(`agentOS: kernel worker failed: ${e.message}`)), { once: true });
    });
    // The kernel's first message is its image: transferred, not copied.
    worker.postMessage({ image, imageId: manifest.sha256, persist: opts.persist, network: opts.network } satisfies KernelInit, [image.buffer]);
    const answer = await booted;
    if (answer.type === 'boot-error') throw new Error(`agentOS: cannot open the VM: ${answer.message}`);
  } catch (e) {
    stop();
    throw e;
  }
  const machine = new Machine(wrap<KernelService>(worker), stop);
  await machine.status();
  return machine;
}

/**
 * One tab at a time per persistent VM (Web Locks). Resolves with the release
 * function; a second tab is refused with a clear message unless it takes
 * over, in which case the first tab's kernel is stopped (`lost`) at once.
 */
function lockVm(name: string, takeover: boolean, lost: () => void): Promise<() => void> {
  if (!navigator.locks) throw new Error('agentOS: this browser has no Web Locks API, so a persistent VM cannot be opened safely');
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    navigator.locks
      .request(`agentos-vm:${name}`, takeover ? { steal: true } : { ifAvailable: true }, async (lock) => {
        if (!lock) {
          reject(new Error(`agentOS: the VM '${name}' is in use by another tab (open it there, or boot with takeover)`));
          return;
        }
        resolve(release);
        await held;
      })
      .catch(() => lost()); // stolen by a takeover elsewhere: stop writing
  });
}

export type { AgentVMOptions, ExecResult, OutputListener } from '../agent-vm.js';

/** AgentVM in the browser: the same interface as on Node. */
export class AgentVM extends BaseAgentVM {
  constructor(options: AgentVMOptions & BootOptions = {}) {
    super(options, () => boot({ persist: options.persist, takeover: options.takeover, network: options.network }));
  }
}
