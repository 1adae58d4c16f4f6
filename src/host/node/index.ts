// Node host: boot an agentOS kernel in a worker_threads worker. No browser needed.

import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AgentVM as BaseAgentVM, mountList, type AgentVMOptions } from '../api/agent-vm.js';
import { boot as bootWith, type HostAdapter, type KernelOptions } from '../api/boot.js';
import { Machine } from '../api/machine.js';
import type { HostMount } from '../worker/kernel-main.js';
import { lockStateDir } from './dir-lock.js';
import { exposeOnHost } from './expose.js';
import { startIsolatedKernel } from './isolation.js';
import { startLocalKernel } from './kernel-thread.js';
import { DirLayerStore } from './worker/layer-store.js';
import { repairLayer, type RepairReport } from '../../kernel/persist/repair.js';

export { Machine } from '../api/machine.js';
export type { KernelHost, RunOptions, RunResult } from '../api/machine.js';
export { DEFAULT_HEAP_MB, isolationFlags, type IsolationOptions } from './isolation.js';

/** Where the kernel runs: 'none', a worker of this process; 'process', a process of its own under Node's permission model. */
export type Isolation = 'none' | 'process';

/** The options every host's boot takes (policy, network, seed), and this host's own. */
export interface BootOptions extends KernelOptions {
  /** Host directory of a persistent writable layer (created if missing); absent = ephemeral. */
  state?: string;
  /** Host directories to mount (see AgentVMOptions.mounts). */
  mounts?: HostMount[];
  /** Where the kernel runs (default 'none'; see AgentVMOptions.isolation). */
  isolation?: Isolation;
  /** JavaScript heap cap of each of the VM's threads, MiB (see AgentVMOptions.heapMb). */
  heapMb?: number;
}

/** The Node adapter: the kernel in a worker of this process, or in a process of its own; the state directory locked. */
function nodeAdapter(opts: BootOptions): HostAdapter {
  return {
    async start({ policy, network, seed, secret }) {
      const isolation = opts.isolation ?? 'none';
      if (isolation !== 'none' && isolation !== 'process') throw new Error(`agentOS: unknown isolation '${String(isolation)}' (none or process)`);
      const heapMb = opts.heapMb;
      if (heapMb !== undefined && !(Number.isInteger(heapMb) && heapMb >= 16)) throw new Error(`agentOS: heapMb must be an integer of at least 16, got ${heapMb}`);
      const state = opts.state === undefined ? undefined : resolve(opts.state);
      const unlock = state === undefined ? () => {} : lockStateDir(state);
      const mounts = opts.mounts?.map((m) => ({ ...m, host: resolve(m.host!) }));
      const init = { state, mounts, seed, policy, secret, network };
      let link;
      try {
        // Isolated, the heap cap is a flag of the VM's process; in this process, a resource limit of each worker.
        link = isolation === 'process' ? await startIsolatedKernel(init, heapMb) : await startLocalKernel({ ...init, heapMb });
      } catch (e) {
        unlock();
        throw e;
      }
      const stop = async () => {
        await link.terminate();
        unlock();
      };
      return { endpoint: link.endpoint, stop, died: link.died, host: link.host };
    },
  };
}

/** Boot a kernel; resolves once it answers. */
export function boot(opts: BootOptions = {}): Promise<Machine> {
  return bootWith(nodeAdapter(opts), opts);
}

export type { RepairReport } from '../../kernel/persist/repair.js';
/** File names are bytes: a name's bytes, and the string that names a file with those bytes (abi/bytestr.ts). */
export { encodeBytes as nameBytes, decodeBytes as nameFromBytes } from '../../abi/bytestr.js';
/** The one interface of every agentOS VM (src/host/api/vm.ts). */
export type { Snapshots, VM } from '../api/vm.js';
export type { DirEntry } from '../api/list-directory.js';
export type { AgentRunOptions, AgentRunResult, Agents, RunningAgent, TraceEvent } from '../api/agents.js';
export type { AgentVMOptions, Answer, ApprovalRequest, AuditEvent, AuditListener, ExecResult, ExtraShell, OutputListener, Policy, SpawnedProcess, Terminal, TerminalOptions } from '../api/agent-vm.js';
export type { ExecBytesResult, ExecOptions, OutputChunk } from '../worker/exec-shell.js';
export type { JobInfo, JobOutput, Jobs, JobStartOptions, JobStatus } from '../api/jobs.js';
export type { ExposedPort, ExposeOptions } from '../api/expose.js';

/** AgentVM on the Node host: `new AgentVM(options)`, then `start()`, `exec()`, `stop()`. */
export class AgentVM extends BaseAgentVM {
  constructor(options: AgentVMOptions = {}) {
    const mounts = mountList(options.mounts).map((m) => {
      if (m.host === undefined) throw new Error(`AgentVM: mount ${m.vmPath}: the Node host mounts host directories ({ host: PATH })`);
      return m;
    });
    const { policy, network, isolation, heapMb } = options;
    // A fork runs under the same policy, and as isolated, as its parent.
    super(options, {
      boot: () => boot({ state: options.state, mounts, policy, network, isolation, heapMb }),
      fork: (seed) => boot({ mounts, seed, policy, network, isolation, heapMb }),
      expose: exposeOnHost,
    });
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
