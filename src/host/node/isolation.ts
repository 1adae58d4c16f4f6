// Node host, isolation 'process' (defense in depth): the VM's kernel, and so
// every guest process, runs in a child Node process under Node's permission
// model. The child reads only the VM's own files (its bundles, base image,
// Pyodide, the Wasmer SDK), the state directory and the mounts; writes only
// the state directory and read-write mounts; starts no child processes, loads
// no addons, opens no inspector; its environment is empty and its heaps are
// capped. So a guest that escaped the JavaScript confinement of its worker
// still cannot reach the host's files, and the embedding process survives
// whatever the guest does to its own process. The host's end of the process,
// its control channel and its stderr, is vm-link.ts's.

import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostMount } from '../worker/kernel-main.js';
import type { KernelLink, KernelThreadInit } from './kernel-thread.js';
import { packageDir, WASMER_SDK } from './package-dir.js';
import { linkVmProcess, spawnVmProcess } from './vm-link.js';

/** The JavaScript heap cap of each thread of the VM's process (MiB) unless the host gives one. */
export const DEFAULT_HEAP_MB = 2048;

const NODE_DIR = fileURLToPath(new URL('./', import.meta.url));
const DIST_DIR = dirname(NODE_DIR);
const VM_PROCESS = join(NODE_DIR, 'vm.process.js');
/** Loaded first in every thread of the VM's process (workers/vm-guard.node.ts). */
const VM_GUARD = join(NODE_DIR, 'vm-guard.cjs');

/** A path as given and as the file system resolves it (Node checks the path it is handed, symlinks unresolved). */
function bothSpellings(path: string): string[] {
  // Node's permission flags read '*' as a wildcard; a path with one cannot be granted exactly.
  if (path.includes('*')) throw new Error(`agentOS: isolation 'process' cannot grant access to a path containing '*': ${path}`);
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // not there (yet): the VM reports it when it opens it
  }
  return real === path ? [path] : [path, real];
}

export interface IsolationOptions {
  /** Absolute path of the persistent layer's directory. */
  state?: string;
  /** Host mounts, host paths absolute. */
  mounts?: HostMount[];
  /** JavaScript heap cap of each thread, MiB (default DEFAULT_HEAP_MB). */
  heapMb?: number;
}

/**
 * Node's flags for the VM's process: the permission model with reads of the
 * VM's own files, the state directory and the mounts; writes of the state
 * directory and the read-write mounts; worker threads (the kernel and the
 * processes are workers, which inherit every restriction); no child
 * processes, addons, WASI or inspector (not granted); a heap cap per thread.
 */
export function isolationFlags(o: IsolationOptions = {}): string[] {
  // The VM's own files, and the package repository `agentos-software install NAME` reads.
  const read = ['node', 'image', 'pyodide', 'repository.json', 'clang', 'clang.files.json', 'ruby', 'ruby.files.json']
    .map((d) => join(DIST_DIR, d))
    .filter((d) => existsSync(d));
  const sdk = packageDir(WASMER_SDK, fileURLToPath(import.meta.url));
  if (sdk) read.push(sdk);
  const write: string[] = [];
  const grant = (path: string, writable: boolean) => {
    for (const p of bothSpellings(path)) {
      read.push(p);
      if (writable) write.push(p);
    }
  };
  if (o.state !== undefined) grant(o.state, true);
  for (const m of o.mounts ?? []) grant(m.host!, !m.readOnly);
  return [
    `--require=${VM_GUARD}`,
    '--experimental-permission',
    ...read.map((p) => `--allow-fs-read=${p}`),
    ...write.map((p) => `--allow-fs-write=${p}`),
    '--allow-worker',
    `--max-old-space-size=${o.heapMb ?? DEFAULT_HEAP_MB}`,
    // Node's notes about experimental features would go to the host's stderr on every boot.
    '--no-warnings',
  ];
}

/** The VM process's environment: nothing of the host's but the time zone. */
function vmEnv(): NodeJS.ProcessEnv {
  return process.env.TZ === undefined ? {} : { TZ: process.env.TZ };
}

/** Start the VM's process and boot its kernel; resolves once the kernel has booted. */
export function startIsolatedKernel(init: KernelThreadInit, heapMb?: number): Promise<KernelLink> {
  const child = spawnVmProcess(VM_PROCESS, isolationFlags({ state: init.state, mounts: init.mounts, heapMb }), vmEnv());
  return linkVmProcess(child, init);
}
