// Compiled WebAssembly images, kept by the kernel for every process worker
// (decision 0021). The kernel reads and compiles a `\0asm` file itself, once
// per file identity (dev, ino, mtime, ctime, size), and posts the Module with the run
// message: Modules are shared, not copied, between workers of one host, so the
// second run of a program skips reading and compiling it whichever pooled
// worker runs it. The kernel never takes a Module from a worker: what runs is
// always what the kernel compiled from the file exec resolved.

import type { Inode } from './vfs/types.js';
import { MAX_MEMORY_PAGES, capMemory } from '../abi/wasm-limits.js';

/** Enough for the programs a session alternates between; each entry pins compiled code. */
const MAX_MODULES = 16;

/** A compiled module, or why the file cannot run (it does not validate, or asks for too much memory). */
export type Compiled = WebAssembly.Module | string;

export class WasmModules {
  private map = new Map<string, Compiled | Promise<Compiled>>();
  compiles = 0;

  /** `maxPages`: each process's memory ceiling in this VM (policy.processes.maxMemoryBytes, at most 1 GiB). */
  constructor(private readonly maxPages = MAX_MEMORY_PAGES) {}

  /** The module for `inode`: at once when cached, otherwise a promise of it (concurrent execs share one compile). */
  get(inode: Inode): Compiled | Promise<Compiled> {
    // ctime too (abi/runtime.ts programKey): utimes can put an old mtime back on new bytes.
    const key = `${inode.fs.dev}:${inode.ino}:${inode.mtimeMs}:${inode.ctimeMs}:${inode.size}`;
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key); // most recently used goes last
      this.map.set(key, hit);
      return hit;
    }
    this.compiles++;
    // compile() copies the bytes before returning, so a view of the file's storage is enough.
    const bytes = capMemory(inode.fs.read(inode, 0, inode.size), this.maxPages);
    const pending: Promise<Compiled> = typeof bytes === 'string'
      ? Promise.resolve(bytes)
      : WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>).then(
        (m) => m,
        (e: Error) => `invalid WebAssembly module (${e.message})`,
      );
    this.map.set(key, pending);
    void pending.then((m) => {
      if (this.map.get(key) === pending) this.map.set(key, m);
    });
    if (this.map.size > MAX_MODULES) this.map.delete(this.map.keys().next().value!);
    return pending;
  }
}
