// Pyodide on the Node host without its Node mode (decision 0026).
//
// In Node mode Pyodide imports node:fs, node:child_process, node:net, `ws` and
// more into the worker, and Python reaches them (mountNodeFS, ctypes'
// system(), sockets to the host's loopback). On Node the process worker
// therefore runs Pyodide as if it were elsewhere:
// - Both files are compiled as guest code (evaluateGuest), not imported as
//   modules, so that an import() anywhere in them is refused as a program's
//   is (src/host/node/worker/confine.ts): Pyodide still has Node-only paths that
//   import node:net and friends, and some are reachable from its API object.
// - pyodide.mjs (the loader) runs with `process` undefined and our own
//   `read`/`load`/`readbuffer` in scope: its "shell" mode, which reads its
//   files through `readbuffer` — here only the assets the engine holds, by
//   exact name. Nothing of this is global.
// - pyodide.asm.mjs (Emscripten) decides per call of its factory, from the
//   globals, in the factory's synchronous start: it is called with `process`
//   hidden and a `WorkerGlobalScope`, i.e. as in a web worker (which the
//   browser host runs too; Emscripten's shell mode has no random source).

import type { PyodideAPI } from 'pyodide';
import { evaluateGuest } from '../js/compile.js';

export type LoadPyodide = (options: Record<string, unknown>) => Promise<PyodideAPI>;
export type Factory = (settings: Record<string, unknown>) => Promise<unknown>;

/** Where the loader thinks its files are: a name only, served by `readAsset`. */
export const SHELL_INDEX = '/pyodide/';

/** The module's last statement, `export default X;` or `export { X as loadPyodide, ... };`. */
const EXPORT = /\bexport\s*(?:default\s+([\w$]+)|\{[^}]*?\b([\w$]+)\s+as\s+loadPyodide\b[^}]*\})\s*;?\s*(?:\/\/# sourceMappingURL=\S*\s*)?$/;

/** An ES module's source as a function of `params` returning its export; `import.meta.url` becomes `moduleUrl`. */
function compileModule(source: string, filename: string, params: string[]): (...args: unknown[]) => unknown {
  const tail = EXPORT.exec(source);
  const body = source.slice(0, tail?.index).replaceAll('import.meta.url', 'moduleUrl');
  if (!tail || /\bimport\.meta\b/.test(body)) throw new Error(`python: ${filename} is not the module this runtime expects`);
  const fn = `(function (${['moduleUrl', ...params].join(', ')}) {'use strict';\n${body}\nreturn ${tail[1] ?? tail[2]};\n})`;
  // Named as the worker's other runtime frames are shown to a guest (runtimes/host-frames.ts).
  return evaluateGuest(fn, `agentos:${filename}`) as (...args: unknown[]) => unknown;
}

/** pyodide.mjs's `loadPyodide`, in its shell mode, reading files through `readAsset` only. */
export function shellLoader(source: string, readAsset: (name: string) => ArrayBuffer): LoadPyodide {
  const refuse = (): never => {
    throw new Error('python: Pyodide reads no files but its own assets');
  };
  const readbuffer = (path: string): ArrayBuffer => (path.startsWith(SHELL_INDEX) ? readAsset(path.slice(SHELL_INDEX.length)) : refuse());
  const make = compileModule(source, 'pyodide.mjs', ['process', 'require', 'read', 'load', 'readbuffer']);
  return make(SHELL_INDEX + 'pyodide.mjs', undefined, undefined, refuse, refuse, readbuffer) as LoadPyodide;
}

/**
 * What Emscripten's factory must see while it starts: no `process` (else Node
 * mode), a `WorkerGlobalScope` (web-worker mode), and no `MessageChannel`
 * (Pyodide would keep a port per interpreter open, and with it the whole
 * interpreter; it then schedules with setTimeout).
 */
const AS_WEB_WORKER: Record<string, unknown> = {
  process: undefined,
  WorkerGlobalScope: function WorkerGlobalScope() {},
  MessageChannel: undefined,
};

/** pyodide.asm.mjs's module factory, starting each interpreter as in a web worker. */
export function webWorkerFactory(source: string): Factory {
  const factory = compileModule(source, 'pyodide.asm.mjs', [])(SHELL_INDEX + 'pyodide.asm.mjs') as Factory;
  return (settings) => {
    const g = globalThis as Record<string, unknown>;
    const saved = Object.keys(AS_WEB_WORKER).map((k) => [k, Object.getOwnPropertyDescriptor(g, k)] as const);
    for (const [k, v] of Object.entries(AS_WEB_WORKER)) Object.defineProperty(g, k, { value: v, configurable: true, writable: true });
    try {
      // Synchronous up to the environment checks (and beyond): no other code runs meanwhile.
      return factory(settings);
    } finally {
      for (const [k, d] of saved) {
        if (d) Object.defineProperty(g, k, d);
        else delete g[k];
      }
    }
  };
}
