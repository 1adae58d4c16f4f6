// Node host: the JavaScript heap cap of a process worker.

import { resolveLimits } from '../../../kernel/policy/defaults.js';
import { checkPolicy } from '../../../kernel/policy/types.js';

/**
 * The smallest JavaScript heap a process worker gets, whatever maxMemoryBytes
 * says: the runtimes themselves (the shell, Pyodide's JavaScript side) need it.
 */
const MIN_HEAP_MIB = 64;

/** A process worker's heap cap in MiB (Infinity: Node's default) for the policy's memoryBytes and the VM's heapMb. */
export function processHeapCap(memoryBytes: number | undefined, heapMb: number | undefined): number {
  return Math.min(memoryBytes === undefined ? Infinity : Math.max(MIN_HEAP_MIB, Math.ceil(memoryBytes / 2 ** 20)), heapMb ?? Infinity);
}

/** The memory per process that `policy` gives on a host with `hostMemory` bytes, as the kernel will resolve it (throws on a bad policy). */
export function processHeapMemory(policy: unknown, hostMemory: number): number | undefined {
  return resolveLimits(checkPolicy(policy).processes, hostMemory).maxMemoryBytes;
}
