// The program a wasm process runs: the Module the kernel compiled and sent
// (its cache is shared by every worker, decision 0021), checked for what a
// WASI command needs. Only a file that does not validate comes without one:
// it is read and compiled here so that the error names what is wrong.

import type { Sys } from '../../user/sys.js';
import { WASI_MODULE } from './preview1.js';
import { isRuby, isRubyImport } from './ruby.js';

export interface Program {
  module: WebAssembly.Module;
  /** Why the module cannot run as a WASI command. */
  problem?: string;
  /** CRuby's embedding interface rather than a command's _start (ruby.ts). */
  ruby?: boolean;
}

/** The syscalls loading needs (a narrow interface, so loading can be tested on its own). */
export type ModuleFiles = Pick<Sys, 'open' | 'fstat' | 'read' | 'close'>;

/** WASIX's import modules (wasix_32v1, wasix_64v1): Wasmer's extension of preview 1. */
const WASIX = /^wasix_/;

/** The program at `path`, from `module` if the kernel sent one; throws WebAssembly.CompileError for bytes that do not validate. */
export async function loadProgram(
  sys: ModuleFiles, path: string, module: WebAssembly.Module | undefined, provided: ReadonlySet<string>,
): Promise<Program> {
  const m = module ?? (await WebAssembly.compile(readFile(sys, path) as Uint8Array<ArrayBuffer>));
  const ruby = isRuby(m);
  return { module: m, problem: check(m, provided, ruby), ruby };
}

function check(module: WebAssembly.Module, provided: ReadonlySet<string>, ruby: boolean): string | undefined {
  const imports = WebAssembly.Module.imports(module);
  const wasix = imports.find((i) => WASIX.test(i.module));
  if (wasix) {
    return `WASIX program (imports ${wasix.module}.${wasix.name}): WASIX is not supported, only WASI preview 1 (decision 0021)`;
  }
  for (const imp of imports) {
    if (ruby && isRubyImport(imp)) continue;
    if (imp.module !== WASI_MODULE || imp.kind !== 'function' || !provided.has(imp.name)) {
      return `imports ${imp.module}.${imp.name} (${imp.kind}), which agentOS does not provide`;
    }
  }
  if (ruby) return undefined;
  const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  if (exports.get('_start') !== 'function') return 'no _start function (not a WASI command)';
  if (exports.get('memory') !== 'memory') return 'exports no memory';
  return undefined;
}

/** Read a whole file in as few syscalls as its size allows. */
function readFile(sys: ModuleFiles, path: string): Uint8Array {
  const fd = sys.open(path);
  try {
    const size = sys.fstat(fd).size;
    const out = new Uint8Array(size);
    let off = 0;
    while (off < size) {
      const b = sys.read(fd, size - off);
      if (!b.byteLength) break;
      out.set(b, off);
      off += b.byteLength;
    }
    return off === size ? out : out.subarray(0, off);
  } finally {
    sys.close(fd);
  }
}
