// Browser host: the kernel worker. Process workers are nested dedicated workers.
// The page's first message carries the base image (and the name of a
// persistent VM); the kernel boots on it.

import { expose, type Endpoint } from 'comlink';
import { DirFs } from '../src/host/browser/worker/dirfs.js';
import { REPLY_BYTES } from '../src/host/browser/worker/dirfs-proxy.js';
import { IdbLayerStore } from '../src/host/browser/worker/layer-store.js';
import { browserFetch } from '../src/host/browser/worker/net-fetch.js';
import { startKernel, type HostMount, type KernelBooted, type KernelInit } from '../src/host/worker/kernel-main.js';
import { sealEndpoint } from '../src/host/sealed-endpoint.js';
import type { WorkerPort } from '../src/kernel/runner.js';
import { heldPort } from '../src/host/worker/held-port.js';

function processWorker(): WorkerPort {
  const w = new Worker(new URL('./process.browser.ts', import.meta.url), { type: 'module', name: 'agentos-process' });
  // What the early worker posts ('ready') or throws (its script failed to load) before the runner listens waits for it.
  return heldPort<unknown>({
    post: (m) => w.postMessage(m),
    terminate: () => w.terminate(),
    listen: (onMessage, onError) => {
      w.addEventListener('message', (e) => onMessage(e.data));
      w.addEventListener('error', (e) => onError(e.message ?? e));
    },
  });
}

/**
 * The first process worker starts now, before the page sends the image: its
 * script downloads and compiles while the image does, so the first prompt's
 * shell does not wait for it after the kernel boots (decision 0057). Its
 * 'ready', posted before the runner listens, is held for the runner (else the
 * runner counted it booting for good, one boot slot fewer).
 */
let early: WorkerPort | null = processWorker();

function createProcessWorker(): WorkerPort {
  const w = early ?? processWorker();
  early = null;
  return w;
}

/** A directory mount: its proxy worker, ready to serve, and the DirFs over it. */
async function openDirectory(m: HostMount): Promise<DirFs> {
  const w = new Worker(new URL('./dirfs.browser.ts', import.meta.url), { type: 'module', name: 'agentos-dirfs' });
  const reply = new SharedArrayBuffer(16 + REPLY_BYTES);
  const ready = new Promise<{ ready?: true; error?: string }>((ok) => w.addEventListener('message', (e) => ok(e.data), { once: true }));
  w.postMessage({ opfs: m.opfs, directory: m.directory, reply });
  const r = await ready;
  if (r.error) throw new Error(`mount ${m.vmPath}: ${r.error}`);
  const est = await navigator.storage.estimate().catch(() => null);
  const quota = est?.quota === undefined ? null : { usage: est.usage ?? 0, quota: est.quota };
  return new DirFs({ post: (req) => w.postMessage(req), reply }, m.readOnly ?? false, quota);
}

// Comlink listens only after this: listeners added during a dispatch miss that event.
self.addEventListener('message', (e: MessageEvent<KernelInit>) => {
  startKernel(e.data, {
    workers: createProcessWorker,
    openStore: (i) => (i.persist ? new IdbLayerStore(i.persist) : null),
    openMount: openDirectory,
    fetch: browserFetch,
    // Chromium reports at most 8 (GiB), rounded; absent elsewhere (then the defaults assume 4 GiB).
    hostMemory: ((navigator as { deviceMemory?: number }).deviceMemory ?? 0) * 2 ** 30 || undefined,
    cpus: navigator.hardwareConcurrency,
  }).then(
    (service) => {
      expose(service, sealEndpoint(self as unknown as Endpoint, e.data.secret));
      self.postMessage({ type: 'booted' } satisfies KernelBooted);
    },
    (err: unknown) => self.postMessage({ type: 'boot-error', message: err instanceof Error ? err.message : String(err) } satisfies KernelBooted),
  );
}, { once: true });
