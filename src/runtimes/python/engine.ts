// Loading Pyodide in a process worker: lazily, from the host (never the VFS or
// the network), and fast on the second start.
//
// Per worker we keep what is immutable across interpreters: the Emscripten
// module factory, the lock file, the compiled WebAssembly.Module and the
// memory snapshot of an initialised interpreter (made at build time by
// scripts/build-python.mjs). Each process still gets a fresh interpreter from
// the snapshot; after one ends, the next is prepared while the worker idles.

import type { PyodideAPI } from 'pyodide';
import { capMemory } from '../../abi/wasm-limits.js';
import { HOST_DIST_DIR } from '../host-dir.js';
import { shellLoader, SHELL_INDEX, webWorkerFactory, type LoadPyodide } from './web-mode.js';
import { pollImport } from './poll.js';
import { zoneImports } from './tz.js';

/** Where the build copies the Pyodide assets on Node, in its directory (dist/pyodide/). */
const ASSET_DIR = 'pyodide/';
const LOAD_TIMEOUT_MS = 120_000;
/** EACCES in Emscripten's errno numbering (Python's errno module has the same). */
const EM_EACCES = 2;
/** A variable, so that neither bundler resolves it (it is only reached in Node). */
const NODE_FS = 'node:fs/promises';

export type Pyodide = PyodideAPI;
type Settings = Record<string, unknown> & { instantiateWasm?: InstantiateWasm };
type InstantiateWasm = (imports: WasmImports, done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) => object;
type WasmImports = Record<string, Record<string, unknown>> & { env: Record<string, unknown> };
type Factory = (settings: Settings) => Promise<unknown>;

interface Assets {
  indexURL: string;
  loadPyodide: LoadPyodide;
  factory: Factory;
  lock: unknown;
  snapshot: Uint8Array | null;
}

let assets: Promise<Assets> | null = null;
let compiled: { module: WebAssembly.Module; env: Record<string, unknown> } | null = null;
let ready: Promise<PyodideAPI> | null = null;
/** wasm32's whole address space (4 GiB), which Pyodide's module declares as its maximum. */
const ALL_PAGES = 65536;
/** The interpreter's memory ceiling in pages: the VM's maxMemoryBytes, fixed by the worker's first python (a worker serves one VM). */
let memoryPages = ALL_PAGES;

/** On Node, a file of the asset directory: a path made of constants and the directory found when the worker's code loaded (host-dir.ts). */
async function readHostAsset(dir: string, name: string): Promise<Uint8Array | null> {
  const { readFile } = (await import(/* @vite-ignore */ NODE_FS)) as typeof import('node:fs/promises');
  return readFile(dir + name).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength), () => null);
}

async function fetchBytes(url: string): Promise<Uint8Array | null> {
  const r = await fetch(url);
  return r.ok ? new Uint8Array(await r.arrayBuffer()) : null;
}

const ownBuffer = (b: Uint8Array): ArrayBuffer =>
  (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b.buffer : b.slice().buffer) as ArrayBuffer;

function parseLock(bytes: Uint8Array | null, base: string): unknown {
  if (!bytes) throw new Error(`python: Pyodide assets missing at ${base} (run npm run build)`);
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** In a browser: Pyodide's web-worker mode, its files fetched from the page's origin (the worker's fetch allows only those). */
async function loadWebAssets(base: string): Promise<Assets> {
  const [mod, asm, lockBytes, snapshot] = await Promise.all([
    import(/* @vite-ignore */ base + 'pyodide.mjs') as Promise<{ loadPyodide: LoadPyodide }>,
    import(/* @vite-ignore */ base + 'pyodide.asm.mjs') as Promise<{ default: Factory }>,
    fetchBytes(base + 'pyodide-lock.json'),
    fetchBytes(base + 'snapshot.bin'),
  ]);
  return { indexURL: base, loadPyodide: mod.loadPyodide, factory: asm.default, lock: parseLock(lockBytes, base), snapshot };
}

/** On Node: compiled as guest code, without Node mode (web-mode.ts); the loader reads the two files it wants from memory. */
async function loadNodeAssets(base: string): Promise<Assets> {
  const [loader, asm, lockBytes, snapshot, stdlib, wasm] = await Promise.all([
    readHostAsset(base, 'pyodide.mjs'), readHostAsset(base, 'pyodide.asm.mjs'), readHostAsset(base, 'pyodide-lock.json'),
    readHostAsset(base, 'snapshot.bin'), readHostAsset(base, 'python_stdlib.zip'), readHostAsset(base, 'pyodide.asm.wasm'),
  ]);
  const lock = parseLock(lockBytes, base);
  if (!loader || !asm || !stdlib || !wasm) throw new Error(`python: Pyodide assets missing at ${base} (run npm run build)`);
  const zip = ownBuffer(stdlib);
  let wasmBytes: ArrayBuffer | null = ownBuffer(wasm);
  const readAsset = (name: string): ArrayBuffer => {
    if (name === 'python_stdlib.zip') return zip;
    if (name === 'pyodide.asm.wasm') {
      // Asked for at every start, compiled only at the first (cachingFactory): then no longer kept.
      if (compiled) wasmBytes = null;
      return wasmBytes ?? new ArrayBuffer(0);
    }
    throw new Error(`python: no Pyodide asset ${name}`);
  };
  const text = new TextDecoder();
  return {
    indexURL: SHELL_INDEX,
    loadPyodide: shellLoader(text.decode(loader), readAsset),
    factory: webWorkerFactory(text.decode(asm)),
    lock,
    snapshot,
  };
}

function loadAssets(): Promise<Assets> {
  // The asset directory: beside the worker bundles on Node, under the origin in a browser.
  return HOST_DIST_DIR !== null ? loadNodeAssets(HOST_DIST_DIR + ASSET_DIR) : loadWebAssets(new URL('/pyodide/', self.location.href).href);
}

/**
 * Instantiate from the cached Module: the first instantiation goes through
 * Pyodide's own loader, and we keep the module and the two helper imports it
 * adds; later ones skip fetching and compiling 9 MiB of WebAssembly.
 */
function cachingFactory(factory: Factory, fail: (e: unknown) => void): Factory {
  return (settings) => {
    const own = settings.instantiateWasm;
    settings.instantiateWasm = (imports, done) => {
      const wasmEnv = imports.env as Record<string, { sig?: string }>;
      // Same signatures (dlsym converts them to wasm functions).
      const replace = (name: string, f: () => number) => {
        wasmEnv[name] = Object.assign(f, { sig: wasmEnv[name]?.sig });
      };
      // emscripten_run_script* evaluate JavaScript from C, and ctypes lets Python call them.
      for (const name of ['emscripten_run_script', 'emscripten_run_script_int', 'emscripten_run_script_string']) replace(name, () => 0);
      // No Emscripten sockets: they would be WebSockets opened from the worker, outside the
      // kernel's network policy. socket(2) says EACCES (Emscripten's number) for "denied";
      // Python's socket module is the kernel's instead (socket-module.ts).
      replace('__syscall_socket', () => -EM_EACCES);
      // Local time in the process's TZ, not the worker's (tz.ts).
      let memory: WebAssembly.Memory | null = null;
      for (const [name, f] of Object.entries(zoneImports(() => memory!.buffer as ArrayBuffer))) replace(name, f as () => number);
      // select/poll wait in the kernel's poll (poll.ts).
      const emPoll = wasmEnv.__syscall_poll as unknown as Parameters<typeof pollImport>[1];
      replace('__syscall_poll', pollImport(() => memory!.buffer as ArrayBuffer, emPoll) as () => number);
      const ready = (instance: WebAssembly.Instance, module: WebAssembly.Module) => {
        memory = instance.exports.memory as WebAssembly.Memory;
        done(instance, module);
      };
      if (!compiled && own) {
        const restore = capInstantiation(memoryPages, fail);
        return own(imports, (instance, module) => {
          restore();
          compiled = { module, env: { Jsv_GetError_import: imports.env.Jsv_GetError_import, JsvError_Check: imports.env.JsvError_Check } };
          ready(instance, module);
        });
      }
      const { module, env } = compiled!;
      Object.assign(imports.env, env);
      // Emscripten's hook has no error path: a failure (out of memory) must fail the load, not hang it.
      WebAssembly.instantiate(module, imports as WebAssembly.Imports).then((instance) => ready(instance, module), fail);
      return {};
    };
    return factory(settings);
  };
}

/**
 * Pyodide's module defines its own memory, declared up to 4 GiB. Its loader
 * compiles the module itself, so until the returned function is called,
 * WebAssembly.instantiate (and instantiateStreaming, in browsers) rewrite the
 * bytes they get to at most `pages` (wasm-limits.ts): past it memory.grow
 * fails, malloc returns NULL and Python raises MemoryError.
 */
function capInstantiation(pages: number, fail: (e: unknown) => void): () => void {
  const W = WebAssembly;
  const { instantiate, instantiateStreaming } = W;
  const restore = () => Object.assign(W, { instantiate, instantiateStreaming });
  const capped = (bytes: ArrayBuffer | ArrayBufferView, imports?: WebAssembly.Imports) => {
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
    const out = capMemory(view, pages);
    if (typeof out === 'string') {
      restore();
      const e = new RangeError(`python: the interpreter ${out} (policy processes.maxMemoryBytes)`);
      fail(e);
      throw e;
    }
    return instantiate(out as Uint8Array<ArrayBuffer>, imports);
  };
  Object.assign(W, {
    instantiate: (src: WebAssembly.Module | BufferSource, imports?: WebAssembly.Imports) =>
      src instanceof W.Module ? instantiate(src, imports) : capped(src, imports),
    instantiateStreaming: async (src: Response | PromiseLike<Response>, imports?: WebAssembly.Imports) =>
      capped(await (await src).arrayBuffer(), imports),
  });
  return restore;
}

async function load(snapshotOnly = false): Promise<PyodideAPI> {
  assets ??= loadAssets();
  const a = await assets;
  const useSnapshot = !!a.snapshot && !snapshotOnly;
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  // Pyodide's own first instantiation only logs its failures: give up rather than wait forever.
  const timer = setTimeout(() => fail(new Error('python: Pyodide did not load within 120 s')), LOAD_TIMEOUT_MS);
  const loading = a.loadPyodide({
    indexURL: a.indexURL,
    lockFileContents: a.lock,
    packageBaseUrl: a.indexURL,
    createPyodideModule: cachingFactory(a.factory, fail),
    checkAPIVersion: true,
    env: { HOME: '/' },
    // What `import js` would give: nothing of the worker's (the driver also takes the module away).
    jsglobals: Object.create(null),
    ...(useSnapshot ? { _loadSnapshot: a.snapshot } : { _makeSnapshot: snapshotOnly }),
    // Output before the process takes over (there should be none) is dropped.
    stdout: () => {},
    stderr: () => {},
  });
  return Promise.race([loading, failed]).finally(() => clearTimeout(timer));
}

/** A fresh interpreter for one process: the one prepared in the background if any. `memoryBytes`: the VM's limit per process. */
export function takeInterpreter(memoryBytes?: number): Promise<PyodideAPI> {
  if (!compiled && !ready) memoryPages = memoryBytes === undefined ? ALL_PAGES : Math.min(ALL_PAGES, Math.floor(memoryBytes / 65536));
  const p = ready ?? load();
  ready = null;
  return p;
}

/** Start preparing the next process's interpreter (the worker is idle meanwhile). */
export function prepareNext(): void {
  if (ready) return;
  ready = load();
  ready.catch(() => {
    ready = null;
  });
}

/** For the build (snapshot.ts): an interpreter loaded so that its memory can be snapshotted. */
export function loadForSnapshot(): Promise<PyodideAPI> {
  return load(true);
}
