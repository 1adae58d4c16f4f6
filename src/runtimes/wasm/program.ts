// The program a wasm process runs: the Module the kernel compiled and sent
// (its cache is shared by every worker, decision 0021), checked for what a
// WASI command needs, or recognised as CRuby's reactor or a WASIX command. The kernel sends the reason instead when the file does
// not validate or asks for more memory than a process may have.

import { WASI_MODULE } from './preview1.js';
import { isRuby, isRubyImport } from './ruby.js';

export interface Program {
  module: WebAssembly.Module;
  /** CRuby's embedding interface rather than a command's _start (ruby.ts). */
  ruby?: boolean;
  /** A WASIX command, run through @wasmer/sdk (wasix.ts). */
  wasix?: boolean;
}

/** WASIX's import modules (wasix_32v1, wasix_64v1): Wasmer's extension of preview 1. */
const WASIX = /^wasix_/;

/** The program, or why it cannot run. */
export function checkProgram(module: WebAssembly.Module | string | undefined, provided: ReadonlySet<string>): Program | string {
  if (module === undefined) return 'the kernel sent no compiled module';
  if (typeof module === 'string') return module;
  const ruby = isRuby(module);
  const imports = WebAssembly.Module.imports(module);
  // Wasmer provides and checks a WASIX program's imports (threads import their memory).
  const wasix = imports.some((i) => WASIX.test(i.module));
  for (const imp of wasix ? [] : imports) {
    if (ruby && isRubyImport(imp)) continue;
    if (imp.module !== WASI_MODULE || imp.kind !== 'function' || !provided.has(imp.name)) {
      return `imports ${imp.module}.${imp.name} (${imp.kind}), which agentOS does not provide`;
    }
  }
  if (ruby) return { module, ruby };
  const exports = new Map(WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
  if (exports.get('_start') !== 'function') return `no _start function (not a ${wasix ? 'WASIX' : 'WASI'} command)`;
  if (wasix) return { module, wasix };
  if (exports.get('memory') !== 'memory') return 'exports no memory';
  return { module };
}
