// The body of the kernel worker, shared by both hosts: open the persistent
// layer if there is one, boot the kernel on the image, and report back. The
// worker entries (workers/kernel.*.ts) only supply the host's pieces.

import { bootKernel } from '../kernel/boot.js';
import { MemFs } from '../kernel/fs/memfs.js';
import { Persister } from '../kernel/persist/persister.js';
import type { LayerStore } from '../kernel/persist/store.js';
import type { HostFetch } from '../kernel/net/host.js';
import { NetPolicy, type NetworkPolicy } from '../kernel/net/policy.js';
import { NetStack } from '../kernel/net/stack.js';
import type { WorkerFactory } from '../kernel/runner.js';
import { KernelService } from './kernel-service.js';

/** The host's first message to the kernel worker. */
export interface KernelInit {
  image: Uint8Array;
  /** Identity of the image (its sha256): a layer remembers the image it was written over. */
  imageId: string;
  /** Node: host directory of the persistent layer. */
  state?: string;
  /** Browser: name of the persistent VM (its IndexedDB database). */
  persist?: string;
  /** The VM's network policy (kernel/net/policy.ts); default 'none'. */
  network?: NetworkPolicy;
}

/** The kernel worker's answer to KernelInit, before Comlink takes over the port. */
export type KernelBooted = { type: 'booted' } | { type: 'boot-error'; message: string };

export async function startKernel(
  init: KernelInit,
  workers: WorkerFactory,
  openStore: (init: KernelInit) => LayerStore | null,
  hostFetch: HostFetch | null = null,
): Promise<KernelService> {
  const net = new NetStack(new NetPolicy(init.network ?? 'none'), hostFetch);
  const store = openStore(init);
  const persister = store ? await Persister.open(store, init.imageId, () => new MemFs()) : undefined;
  return new KernelService(bootKernel({ workers, image: init.image, persister, imageId: init.imageId, net }));
}
