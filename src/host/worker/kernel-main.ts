// The body of the kernel worker, shared by both hosts: open the persistent
// layer if there is one, boot the kernel on the image, and report back. The
// worker entries (workers/kernel.*.ts) only supply the host's pieces.

import { bootKernel } from '../../kernel/boot.js';
import { MemFs } from '../../kernel/fs/memfs.js';
import { Persister } from '../../kernel/persist/persister.js';
import { layerFromFrame } from '../../kernel/persist/snapshots.js';
import type { LayerStore } from '../../kernel/persist/store.js';
import type { HostFetch } from '../../kernel/net/host.js';
import type { NetworkPolicy } from '../../api/policy.js';
import { NetPolicy } from '../../kernel/net/policy.js';
import { checkPolicy, networkOf } from '../../kernel/policy/types.js';
import { HostSecrets } from '../../kernel/net/secrets.js';
import { NetStack } from '../../kernel/net/stack.js';
import type { WorkerFactory } from '../../kernel/runner.js';
import type { FileSystem } from '../../kernel/vfs/types.js';
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
  /** Node: host directories mounted into the VM. */
  mounts?: HostMount[];
  /** An ephemeral VM's first writable layer, as a snapshot frame (fork). */
  seed?: Uint8Array;
  /** The VM's permission policy (kernel/policy/types.ts). */
  policy?: unknown;
  /** The control channel's secret: every later message must carry it (sealed-endpoint.ts). */
  secret: string;
  /** The VM's network policy (kernel/net/policy.ts); default 'none'. */
  network?: NetworkPolicy;
  /** Node: the JavaScript heap cap of each process worker, in MiB (Node's default when absent). */
  heapMb?: number;
}

/** Node: what the host gives the kernel worker as it starts (workerData), ahead of KernelInit: enough to start the first process worker. */
export interface KernelWorkerData {
  policy?: unknown;
  heapMb?: number;
}

/** Host storage to mount at `vmPath`: a host directory (Node), an OPFS directory or a picked one (browser). */
export interface HostMount {
  vmPath: string;
  readOnly?: boolean;
  host?: string;
  opfs?: string;
  directory?: FileSystemDirectoryHandle;
}

/** The host's pieces of a kernel: its layer store and its mountable filesystems. */
export interface HostParts {
  workers: WorkerFactory;
  openStore(init: KernelInit): LayerStore | null;
  openMount?(mount: HostMount): (FileSystem & { close?(): void }) | Promise<FileSystem & { close?(): void }>;
  /** The host's network (requests the policy allows are made through it). */
  fetch?: HostFetch | null;
  /** The host's memory in bytes: it sizes the default limits (kernel/policy/defaults.ts). */
  hostMemory?: number;
  /** The host's logical CPUs (os.availableParallelism, navigator.hardwareConcurrency). */
  cpus?: number;
}

/** The kernel worker's answer to KernelInit, before Comlink takes over the port. */
export type KernelBooted = { type: 'booted'; /** Node: the pid of the process the kernel runs in. */ pid?: number } | { type: 'boot-error'; message: string };

export async function startKernel(init: KernelInit, host: HostParts): Promise<KernelService> {
  const policy = checkPolicy(init.policy);
  const net = new NetStack(new NetPolicy(networkOf(policy, init.network)), host.fetch ?? null, new HostSecrets(policy.secrets));
  const mounts = await Promise.all((init.mounts ?? []).map(async (m) => {
    if (!host.openMount) throw new Error('this host cannot mount host directories');
    return { at: m.vmPath, fs: await host.openMount(m) };
  }));
  const store = host.openStore(init);
  if (store && init.seed) throw new Error('a forked VM is ephemeral');
  const persister = store ? await Persister.open(store, init.imageId, () => new MemFs()) : undefined;
  const upper = init.seed ? layerFromFrame(init.seed, init.imageId) : undefined;
  const kernel = bootKernel({ workers: host.workers, image: init.image, persister, upper, imageId: init.imageId, mounts, policy: init.policy, net, hostMemory: host.hostMemory, cpus: host.cpus });
  return new KernelService(kernel, () => mounts.forEach((m) => m.fs.close?.()));
}
