// Node host: boot an agentOS kernel in a worker_threads worker. No browser needed.

import { wrap } from 'comlink';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { KernelService } from '../kernel-service.js';
import { AgentVM as BaseAgentVM, type AgentVMOptions } from '../agent-vm.js';
import { Machine } from '../machine.js';
import type { KernelBooted, KernelInit } from '../kernel-main.js';
import { lockStateDir } from './dir-lock.js';
import { nodeEndpoint } from './endpoint.js';
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
  /** The VM's network policy; default 'none'. */
  network?: NetworkPolicy;
}

/** Boot a kernel; resolves once it answers. */
export async function boot(opts: BootOptions = {}): Promise<Machine> {
  const state = opts.state === undefined ? undefined : resolve(opts.state);
  // A bad policy is the caller's error here, not a boot failure inside the worker.
  if (opts.network !== undefined) new NetPolicy(opts.network);
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
    worker.postMessage({ image, imageId, state, network: opts.network } satisfies KernelInit, [image.buffer as ArrayBuffer]);
    const answer = await booted;
    if (answer.type === 'boot-error') throw new Error(`agentOS: cannot open the VM: ${answer.message}`);
  } catch (e) {
    await stopWorker();
    throw e;
  }
  const machine = new Machine(wrap<KernelService>(nodeEndpoint(worker)), stopWorker);
  await machine.status();
  return machine;
}

export type { AgentVMOptions, ExecResult, OutputListener } from '../agent-vm.js';
export type { ExecBytesResult, ExecOptions, OutputChunk } from '../exec-session.js';

/** AgentVM on the Node host: `new AgentVM(options)`, then `start()`, `exec()`, `stop()`. */
export class AgentVM extends BaseAgentVM {
  constructor(options: AgentVMOptions = {}) {
    super(options, () => boot({ state: options.state, network: options.network }));
  }
}
