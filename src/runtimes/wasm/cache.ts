// Compiled modules by file identity (dev, ino, mtime, size), per worker: the
// second run of a program in a worker skips reading and compiling it. A module
// is checked once, when compiled, for what a WASI command needs.

import type { Sys } from '../../user/sys.js';
import { WASI_MODULE } from './preview1.js';

/** Enough for the programs a session alternates between; each entry pins compiled code. */
const MAX_MODULES = 16;

export interface Program {
  module: WebAssembly.Module;
  /** Why the module cannot run as a WASI command (checked once, at compile time). */
  problem?: string;
}

/** The syscalls loading needs (a narrow interface, so the cache can be tested on its own). */
export type ModuleFiles = Pick<Sys, 'open' | 'fstat' | 'read' | 'close'>;

export class ModuleCache {
  private map = new Map<string, Program>();
  compiles = 0;
  hits = 0;

  constructor(private readonly provided: ReadonlySet<string>) {}

  /** The program at `path`; throws WebAssembly.CompileError for a module that does not validate. */
  async load(sys: ModuleFiles, path: string): Promise<Program> {
    const fd = sys.open(path);
    let bytes: Uint8Array;
    let key: string;
    try {
      const st = sys.fstat(fd);
      key = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
      const hit = this.map.get(key);
      if (hit) {
        this.hits++;
        this.map.delete(key); // most recently used goes last
        this.map.set(key, hit);
        return hit;
      }
      bytes = readSize(sys, fd, st.size);
    } finally {
      sys.close(fd);
    }
    const module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    this.compiles++;
    const program: Program = { module, problem: this.check(module) };
    this.map.set(key, program);
    if (this.map.size > MAX_MODULES) this.map.delete(this.map.keys().next().value!);
    return program;
  }

  private check(module: WebAssembly.Module): string | undefined {
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.module !== WASI_MODULE || imp.kind !== 'function' || !this.provided.has(imp.name)) {
        return `imports ${imp.module}.${imp.name} (${imp.kind}), which agentOS does not provide`;
      }
    }
    const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
    if (exports.get('_start') !== 'function') return 'no _start function (not a WASI command)';
    if (exports.get('memory') !== 'memory') return 'exports no memory';
    return undefined;
  }
}

/** Read a file of known size in as few syscalls as it takes (no extra read for EOF). */
function readSize(sys: ModuleFiles, fd: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let off = 0;
  while (off < size) {
    const b = sys.read(fd, size - off);
    if (!b.byteLength) break;
    out.set(b, off);
    off += b.byteLength;
  }
  return off === size ? out : out.subarray(0, off);
}
