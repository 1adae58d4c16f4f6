// Browser host: boot an agentOS kernel in a Web Worker (needs crossOriginIsolated for SharedArrayBuffer).

import type { Endpoint } from 'comlink';
// The bundled kernel worker's URL (Vite: `?worker&url`).
import kernelWorkerUrl from '../../../workers/kernel.browser.ts?worker&url';
import type { HostMount, KernelBooted, KernelInit } from '../worker/kernel-main.js';
import { AgentVM as BaseAgentVM, mountList, type AgentVMOptions } from '../api/agent-vm.js';
import { Machine } from '../api/machine.js';
import { boot as bootWith, type HostAdapter, type KernelOptions } from '../api/boot.js';
import { repairLayer, type RepairReport } from '../../kernel/persist/repair.js';
import { IdbLayerStore } from './worker/layer-store.js';
import { loadBaseImage, loadManifest } from './base-image.js';
import { previewExposer } from './preview.js';

export { Machine } from '../api/machine.js';

/**
 * The kernel worker's script. Its URL, as the build rewrote it, also locates the
 * base image (`npm run build` copies dist/image to `image/` beside `assets/`):
 * so a page anywhere, or the `<agentos-terminal>` module loaded from another
 * directory, finds both relative to the code, not to the page.
 */
const KERNEL_URL = new URL(kernelWorkerUrl, import.meta.url);
const IMAGE_BASE = new URL('../image/', KERNEL_URL);
/** dist/web's service worker (coi-sw.js): cross-origin isolation, and the previews of vm.expose. */
const SW_URL = new URL('../coi-sw.js', KERNEL_URL);

/** Boot stages, for a progress indicator; `image` reports bytes as they arrive. */
export type BootProgress =
  | { stage: 'manifest' }
  | { stage: 'image'; loaded: number; total: number; cached: boolean }
  | { stage: 'kernel' }
  | { stage: 'ready' };

/** The options every host's boot takes (policy, network, seed), and this host's own. */
export interface BootOptions extends KernelOptions {
  /** Name of a persistent VM: its writable layer lives in IndexedDB. Absent = ephemeral. */
  persist?: string;
  /** Take the VM over from another tab that has it open (that tab's VM stops). */
  takeover?: boolean;
  /** OPFS or picked directories to mount (see AgentVMOptions.mounts). */
  mounts?: HostMount[];
  /** Called at each boot stage (and as the image downloads). */
  onProgress?: (p: BootProgress) => void;
}

/** The browser adapter: the kernel in a Web Worker, booted on the fetched image; a persistent VM locked to this tab. */
function browserAdapter(opts: BootOptions, progress: (p: BootProgress) => void): HostAdapter {
  return {
    async start({ policy, network, seed, secret }) {
      let kernel: Worker | undefined; // the lock can be lost (a takeover elsewhere) before the worker is made
      const release = opts.persist === undefined ? () => {} : await lockVm(opts.persist, opts.takeover ?? false, () => kernel?.terminate());
      // The worker loads its code while the image is fetched.
      const worker = (kernel = new Worker(KERNEL_URL, {
        type: 'module',
        name: 'agentos-kernel',
      }));
      const stop = () => {
        worker.terminate();
        release();
      };
      try {
        progress({ stage: 'manifest' });
        const manifest = await loadManifest(IMAGE_BASE);
        const image = await loadBaseImage(IMAGE_BASE, progress);
        progress({ stage: 'kernel' });
        const booted = new Promise<KernelBooted>((ok, fail) => {
          worker.addEventListener('message', (e) => ok(e.data as KernelBooted), { once: true });
          worker.addEventListener('error', (e) => fail(new Error(`agentOS: kernel worker failed: ${e.message}`)), { once: true });
        });
        // The kernel's first message is its image: transferred, not copied.
        worker.postMessage({ image, imageId: manifest.sha256, persist: opts.persist, seed, mounts: opts.mounts, policy, secret, network } satisfies KernelInit, [image.buffer, ...(seed ? [seed.buffer as ArrayBuffer] : [])]);
        const answer = await booted;
        if (answer.type === 'boot-error') throw new Error(`agentOS: cannot open the VM: ${answer.message}`);
      } catch (e) {
        stop();
        throw e;
      }
      return { endpoint: worker as unknown as Endpoint, stop };
    },
  };
}

export async function boot(opts: BootOptions = {}): Promise<Machine> {
  if (!globalThis.crossOriginIsolated) {
    throw new Error('agentOS needs a cross-origin isolated page (COOP/COEP headers) for SharedArrayBuffer');
  }
  const progress = opts.onProgress ?? (() => {});
  const machine = await bootWith(browserAdapter(opts, progress), opts);
  progress({ stage: 'ready' });
  return machine;
}

/** navigator.storage.persist(), once granted remembered by the browser; false where there is none (workers, old engines). */
async function keepStorage(): Promise<boolean> {
  const s = globalThis.navigator?.storage;
  if (!s?.persist) return false;
  try {
    return (await s.persisted()) || (await s.persist());
  } catch {
    return false;
  }
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
    let granted = false;
    navigator.locks
      .request(`agentos-vm:${name}`, takeover ? { steal: true } : { ifAvailable: true }, async (lock) => {
        if (!lock) {
          reject(new Error(`agentOS: the VM '${name}' is in use by another tab (open it there, or boot with takeover)`));
          return;
        }
        granted = true;
        resolve(release);
        await held;
      })
      // Stolen by a takeover elsewhere: stop writing. Refused before it was granted: the boot fails.
      .catch((e: unknown) => (granted ? lost() : reject(new Error(`agentOS: cannot lock the VM '${name}': ${(e as Error)?.message ?? e}`))));
  });
}

export type { RepairReport } from '../../kernel/persist/repair.js';
/** File names are bytes: a name's bytes, and the string that names a file with those bytes (abi/bytestr.ts). */
export { encodeBytes as nameBytes, decodeBytes as nameFromBytes } from '../../abi/bytestr.js';
/** The one interface of every agentOS VM (src/host/api/vm.ts). */
export type { Snapshots, VM } from '../api/vm.js';
export type { DirEntry } from '../api/list-directory.js';
export type { AgentVMOptions, Answer, ApprovalRequest, AuditEvent, AuditListener, ExecResult, ExtraShell, OutputListener, Policy, SpawnedProcess, Terminal, TerminalOptions } from '../api/agent-vm.js';
export type { ExecBytesResult, ExecOptions, OutputChunk } from '../worker/exec-shell.js';
export type { JobInfo, JobOutput, Jobs, JobStartOptions, JobStatus } from '../api/jobs.js';
export type { ExposedPort, ExposeOptions } from '../api/expose.js';

/** AgentVM in the browser: the same interface as on Node. */
export class AgentVM extends BaseAgentVM {
  /**
   * A persistent VM asks the browser to keep its storage (not evict it under
   * pressure) when it starts: true when granted, false when refused or not
   * possible here. Undefined for an ephemeral VM or before start(). It may
   * settle late (a browser can ask the user); boot does not wait for it.
   */
  persisted: Promise<boolean> | undefined;
  private readonly keeps: boolean;

  constructor(options: AgentVMOptions & Omit<BootOptions, 'mounts' | 'seed'> = {}) {
    const mounts = mountList(options.mounts).map((m) => {
      if (m.host !== undefined) throw new Error(`AgentVM: mount ${m.vmPath}: a browser mounts { opfs: NAME } or { directory: handle }, not host paths`);
      return m;
    });
    // A fork runs under the same policy as its parent.
    super(options, {
      boot: () => boot({ persist: options.persist, takeover: options.takeover, mounts, onProgress: options.onProgress, policy: options.policy, network: options.network }),
      fork: (seed) => boot({ seed, mounts, policy: options.policy, network: options.network }),
      expose: previewExposer(SW_URL),
    });
    this.keeps = options.persist !== undefined;
  }

  override async start(): Promise<void> {
    await super.start();
    if (this.keeps) this.persisted ??= keepStorage();
  }

  /**
   * Repair the damaged layer of persistent VM `name` (no tab may have it
   * open): it keeps what the commits before the damage made, and a copy of
   * the damaged bytes under key 'damaged:<time>' of its database. An intact
   * layer is left as it is.
   */
  static async repair(name: string): Promise<RepairReport> {
    const release = await lockVm(name, false, () => {});
    try {
      return await repairLayer(new IdbLayerStore(name));
    } finally {
      release();
    }
  }
}
