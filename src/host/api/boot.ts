// Boot a kernel through a host adapter (main thread; nothing here blocks).
// What every host does is here: check the policy, make the control channel's
// secret, seal the channel and wait for the kernel's first answer. What differs
// (a worker_thread or a child process on Node; a Web Worker and the fetched
// image in a browser; their locks) is the adapter's `start`.

import { wrap, type Endpoint, type Remote } from 'comlink';
import type { KernelService } from '../worker/kernel-service.js';
import type { NetworkPolicy, Policy } from '../../api/policy.js';
import { NetPolicy } from '../../kernel/net/policy.js';
import { checkPolicy, networkOf } from '../../kernel/policy/types.js';
import { guardKernel } from './kernel-death.js';
import { Machine, type KernelHost } from './machine.js';
import { newSecret, sealEndpoint } from '../sealed-endpoint.js';

/** What every host's boot takes besides its own options. */
export interface KernelOptions {
  /** The VM's permission policy (README, "The policy"). */
  policy?: Policy;
  /** The VM's network policy; default 'none'. */
  network?: NetworkPolicy;
  /** Ephemeral VMs only: the writable layer starts as this snapshot frame (fork). */
  seed?: Uint8Array;
}

/** The checked options an adapter starts its kernel with. */
export interface KernelStart {
  policy: Readonly<Policy>;
  network: NetworkPolicy | undefined;
  seed: Uint8Array | undefined;
  /** The control channel's secret: the kernel accepts only messages that carry it (sealed-endpoint.ts). */
  secret: string;
}

/** A kernel an adapter started; it has answered its KernelInit. */
export interface StartedKernel {
  /** The kernel's control channel, unsealed. */
  endpoint: Endpoint;
  /** End the kernel and release what the adapter holds (locks). */
  stop(): Promise<void> | void;
  /** Rejects when the kernel is gone; calls pending then fail with its reason (kernel-death.ts). */
  died?: Promise<never>;
  /** Where the kernel runs (Node). */
  host?: KernelHost;
}

/** One host's way to start a kernel worker. */
export interface HostAdapter {
  /** Start a kernel; rejects (having released everything) if it cannot boot. */
  start(k: KernelStart): Promise<StartedKernel>;
}

/** Boot a kernel through `adapter`; resolves once it answers. A bad policy fails before anything starts. */
export async function boot(adapter: HostAdapter, opts: KernelOptions = {}): Promise<Machine> {
  const policy = checkPolicy(opts.policy);
  // A bad network policy is the caller's error here, not a boot failure inside the worker.
  if (opts.network !== undefined) new NetPolicy(opts.network);
  networkOf(policy, opts.network); // both given, differently: an error
  const secret = newSecret();
  const k = await adapter.start({ policy, network: opts.network, seed: opts.seed, secret });
  let service: Remote<KernelService> = wrap<KernelService>(sealEndpoint(k.endpoint, secret));
  if (k.died) service = guardKernel(service, k.died);
  const machine = new Machine(service, () => k.stop(), k.host ?? null);
  await machine.status();
  return machine;
}
