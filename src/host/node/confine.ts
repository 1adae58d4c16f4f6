// Confinement of guest code in a Node process worker (issue 6): before any
// program runs, the worker gives up every way to the host that is reachable
// from JavaScript, so programs reach the world only through their syscall
// channel. The worker entry keeps its own references (parentPort) first.
//
// - `process` (env, binding, dlopen, getBuiltinModule, kill, chdir, ...)
//   goes from the global scope; ESM has no `require`, `module`, `__dirname`.
// - fetch, WebSocket, EventSource and BroadcastChannel go too.
// - import(): program code is compiled with node:vm and a dynamic-import
//   callback that refuses, so `import('node:fs')` rejects — also from code the
//   program makes with Function or eval, whose imports are attributed to it.
//
// What this is not: a V8 isolate boundary. The program shares the worker's
// realm with the runtime; see docs/security.md.

import vm from 'node:vm';
import { setCompiler, type Program } from '../../runtimes/js/compile.js';

const REMOVED = ['process', 'fetch', 'WebSocket', 'EventSource', 'BroadcastChannel', 'navigator', 'require', 'module'];

function refuseImport(): never {
  throw new Error('import() is not available to agentOS programs');
}

export function confine(): void {
  for (const name of REMOVED) {
    if (!(name in globalThis)) continue;
    try {
      Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false, enumerable: false });
    } catch {
      delete (globalThis as Record<string, unknown>)[name];
    }
  }
  setCompiler((source, filename) => {
    const script = new vm.Script(`(async function (agentos) {'use strict';\n${source}\n})`, {
      filename,
      lineOffset: -1,
      importModuleDynamically: refuseImport as never,
    });
    return script.runInThisContext() as Program;
  });
}
