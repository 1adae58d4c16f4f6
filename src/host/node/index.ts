// Node host: boot an agentOS kernel in a worker_threads worker. No browser needed.

import { wrap } from 'comlink';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { KernelService } from '../kernel-service.js';
import { AgentVM as BaseAgentVM, mountList, type AgentVMOptions } from '../agent-vm.js';
import { guardKernel } from '../kernel-death.js';
import { Machine } from '../machine.js';
import type { HostMount, KernelBooted, KernelInit } from '../kernel-main.js';
import { lockStateDir } from './dir-lock.js';
import { DirLayerStore } from './layer-store.js';
import { repairLayer, type RepairReport } from '../../kernel/persist/repair.js';
import { nodeEndpoint } from './endpoint.js';
import { newSecret, sealEndpoint } from '../sealed-endpoint.js';
import { checkPolicy, networkOf, type Policy } from '../../kernel/policy/types.js';
import { NetPolicy, type NetworkPolicy } from '../../kernel/net/policy.js';

export { Machine } from '../machine.js';
export type { RunOptions, RunResult } from '../machine.js';

/** `npm run build` writes the base image beside dist/node. */
const IMAGE_DIR = new URL('../image/', import.meta.url);

/** The current base image, in an ArrayBuffer of its own so it can be transferred, and its sha256. */
async function loadBaseImage(): Promise<{ image: Uint8Array; imageId: string }> {
  let manifest: { file: string; bytes: number; sha256: string };
  try {
    manifest = JSON.parse(await readFile(new URL('manifest.json', IMAGE_DIR), 'utf8'));
  } catch (e) {
    throw new Error(`agentOS: no base image at ${IMAGE_DIR.pathname} (run \`npm run build\`): ${(e as Error).message}`);
  }
  const buf = await readFile(new URL(manifest.file, IMAGE_DIR));
  if (buf.length !== manifest.bytes) throw new Error(`agentOS: ${manifest.file} is ${buf.length} bytes, manifest says ${manifest.bytes}`);
  const own = buf.byteOffset === 0 && buf.buffer.byteLength === buf.length;
  return { image: own ? new Uint8Array(buf.buffer, 0, buf.length) : new Uint8Array(buf), imageId: manifest.sha256 };
}

export interface BootOptions {
  /** Host directory of a persistent writable layer (created if missing); absent = ephemeral. */
  state?: string;
  /** Host directories to mount (see AgentVMOptions.mounts). */
  mounts?: HostMount[];
  /** Ephemeral VMs only: the writable layer starts as this snapshot frame (fork). */
  seed?: Uint8Array;
  /** The VM's permission policy (README, "The policy"). */
  policy?: Policy;
  /** The VM's network policy; default 'none'. */
  network?: NetworkPolicy;
}

/** Boot a kernel; resolves once it answers. */
export async function boot(opts: BootOptions = {}): Promise<Machine> {
  const state = opts.state === undefined ? undefined : resolve(opts.state);
  const policy = checkPolicy(opts.policy); // a bad policy fails here, before anything starts
  const secret = newSecret();
  // A bad policy is the caller's error here, not a boot failure inside the worker.
  if (opts.network !== undefined) new NetPolicy(opts.network);
  networkOf(policy, opts.network); // both given, differently: an error
  const unlock = state === undefined ? () => {} : lockStateDir(state);
  // The worker loads its bundle while the image is read.
  const worker = new Worker(new URL('./kernel.worker.js', import.meta.url));
  const stopWorker = async () => {
    await worker.terminate();
    unlock();
  };
  try {
    const { image, imageId } = await loadBaseImage();
    const booted = new Promise<KernelBooted>((ok, fail) => {
      worker.once('message', ok);
      worker.once('error', fail);
    });
    // The kernel's first message is its image: transferred, not copied.
    const mounts = opts.mounts?.map((m) => ({ ...m, host: resolve(m.host!) }));
    const seed = opts.seed;
    worker.postMessage({ image, imageId, state, mounts, seed, policy, secret, network: opts.network } satisfies KernelInit, [image.buffer as ArrayBuffer, ...(seed ? [seed.buffer as ArrayBuffer] : [])]);
    const answer = await booted;
    if (answer.type === 'boot-error') throw new Error(`agentOS: cannot open the VM: ${answer.message}`);
  } catch (e) {
    await stopWorker();
    throw e;
  }
  const died = new Promise<never>((_, fail) => {
    worker.once('error', (e) => fail(new Error(`agentOS: the kernel failed: ${(e as Error).stack ?? String(e)}`)));
    worker.once('exit', () => fail(new Error('agentOS: the VM has stopped')));
  });
  const machine = new Machine(guardKernel(wrap<KernelService>(sealEndpoint(nodeEndpoint(worker), secret)), died), stopWorker);
  await machine.status();
  return machine;
}

export type { RepairReport } from '../../kernel/persist/repair.js';
/** File names are bytes: a name's bytes, and the string that names a file with those bytes (abi/bytestr.ts). */
export { encodeBytes as nameBytes, decodeBytes as nameFromBytes } from '../../abi/bytestr.js';
export type { DirEntry } from '../list-directory.js';
export type { AgentVMOptions, Answer, ApprovalRequest, AuditEvent, AuditListener, ExecResult, OutputListener, Policy, Terminal, TerminalOptions } from '../agent-vm.js';
export type { ExecBytesResult, ExecOptions, OutputChunk } from '../exec-session.js';

/** AgentVM on the Node host: `new AgentVM(options)`, then `start()`, `exec()`, `stop()`. */
export class AgentVM extends BaseAgentVM {
  constructor(options: AgentVMOptions = {}) {
    const mounts = mountList(options.mounts).map((m) => {
      if (m.host === undefined) throw new Error(`AgentVM: mount ${m.vmPath}: the Node host mounts host directories ({ host: PATH })`);
      return m;
    });
    // A fork runs under the same policy as its parent.
    super(options, { boot: () => boot({ state: options.state, mounts, policy: options.policy, network: options.network }), fork: (seed) => boot({ mounts, seed, policy: options.policy, network: options.network }) });
  }

  /**
   * Repair the damaged layer in state directory `state` (no VM may have it
   * open): it keeps what the commits before the damage made, and copies of
   * the damaged files in `state/damaged-<time>/`. An intact layer is left as it is.
   */
  static async repair(state: string): Promise<RepairReport> {
    const dir = resolve(state);
    if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new Error(`agentOS: no state directory ${dir}`);
    const unlock = lockStateDir(dir);
    const store = new DirLayerStore(dir);
    try {
      return await repairLayer(store);
    } finally {
      await store.close();
      unlock();
    }
  }
}
