// Confinement of guest code in a Node process worker (issue 6): before any
// program runs, the worker gives up every way to the host that is reachable
// from JavaScript, so programs reach the world only through their syscall
// channel. The worker entry keeps its own references (parentPort) first.
//
// - `process` (env, binding, dlopen, getBuiltinModule, kill, chdir, ...)
//   is replaced by a stand-in of plain values; ESM has no `require`,
//   `module`, `__dirname`.
// - fetch, WebSocket, EventSource and BroadcastChannel go too.
// - import(): program code is compiled with node:vm and a dynamic-import
//   callback that refuses, so `import('node:fs')` rejects — also from code the
//   program makes with Function or eval, whose imports are attributed to it.
//
// What this is not: a V8 isolate boundary. The program shares the worker's
// realm with the runtime; see docs/security.md.

import { constants as cryptoConstants } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { constants as osConstants } from 'node:os';
import vm from 'node:vm';
import { constants as zlibConstants } from 'node:zlib';
import { setCompiler, setExpressionCompiler, type Program } from '../../../runtimes/js/compile.js';

const REMOVED = ['fetch', 'WebSocket', 'EventSource', 'BroadcastChannel', 'navigator', 'require', 'module'];

/**
 * What stands in for `process`: engines the runtimes load (Pyodide, the Wasmer
 * SDK) look for it to know they run on Node, and read a few plain values.
 * Nothing in it reaches the host: no binding but the constants table, no env,
 * no exit, kill, chdir, dlopen or getBuiltinModule.
 */
function processStandIn(real: NodeJS.Process): object {
  // process.binding('constants')'s tables, from the modules: the binding itself is refused under Node's permission model (isolation 'process').
  const constants = JSON.parse(JSON.stringify({ os: osConstants, fs: fsConstants, crypto: cryptoConstants, zlib: zlibConstants })) as object;
  const stream = (fd: number) => Object.freeze({ fd, isTTY: false });
  return Object.freeze({
    versions: Object.freeze({ ...real.versions }),
    version: real.version,
    platform: real.platform,
    arch: real.arch,
    release: Object.freeze({ name: 'node' }),
    argv: Object.freeze([]),
    execArgv: Object.freeze([]),
    env: Object.freeze({}),
    stdin: stream(0),
    stdout: stream(1),
    stderr: stream(2),
    cwd: () => '/',
    umask: () => 0o022,
    getuid: () => 1000,
    getgid: () => 1000,
    hrtime: Object.assign((t?: [number, number]) => real.hrtime(t), { bigint: () => real.hrtime.bigint() }),
    nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => real.nextTick(fn, ...args),
    emitWarning: () => {},
    binding(name: string): unknown {
      if (name === 'constants') return constants;
      throw new Error('process.binding is not available to agentOS programs');
    },
  });
}

function refuseImport(): never {
  throw new Error('import() is not available to agentOS programs');
}

/**
 * The realm's function constructors compile through node:vm with the same
 * import() refusal: any JavaScript value a guest reaches (e.g. Pyodide's
 * proxies, from Python) leads to them through `.constructor`, and code they
 * made would otherwise count as the runtime's own module code.
 */
function guardFunctionConstructors(): void {
  const kinds: [object, string, string][] = [
    [Function.prototype, 'function', 'Function'],
    [Object.getPrototypeOf(async function () {}) as object, 'async function', 'AsyncFunction'],
    [Object.getPrototypeOf(function* () {}) as object, 'function*', 'GeneratorFunction'],
    [Object.getPrototypeOf(async function* () {}) as object, 'async function*', 'AsyncGeneratorFunction'],
  ];
  for (const [proto, kind, name] of kinds) {
    const Guarded = function (...args: unknown[]): unknown {
      const params = args.map(String);
      const body = params.pop() ?? '';
      const src = `(${kind} anonymous(${params.join(',')}\n) {\n${body}\n})`;
      return new vm.Script(src, { filename: 'anonymous', importModuleDynamically: refuseImport as never }).runInThisContext();
    };
    Object.defineProperty(Guarded, 'prototype', { value: proto });
    // Named and sized as the originals (inspectors tell an AsyncFunction by its constructor's name).
    Object.defineProperty(Guarded, 'name', { value: name });
    Object.defineProperty(Guarded, 'length', { value: 1 });
    Object.defineProperty(proto, 'constructor', { value: Guarded, writable: false, configurable: false });
    if (kind === 'function') Object.defineProperty(globalThis, 'Function', { value: Guarded, writable: false, configurable: false });
  }
}

export function confine(): void {
  // Configurable, so a runtime can give its program its own `process` for a run
  // (runtimes/node/globals.ts); what it restores is the stand-in, never the host's.
  const hide = (name: string, value: unknown) => {
    try {
      Object.defineProperty(globalThis, name, { value, configurable: true, writable: true, enumerable: false });
    } catch {
      delete (globalThis as Record<string, unknown>)[name];
    }
  };
  hide('process', processStandIn(process));
  for (const name of REMOVED) if (name in globalThis) hide(name, undefined);
  guardFunctionConstructors();
  setCompiler((source, filename) => {
    const script = new vm.Script(`(async function (agentos) {'use strict';\n${source}\n})`, {
      filename,
      lineOffset: -1,
      importModuleDynamically: refuseImport as never,
    });
    return script.runInThisContext() as Program;
  });
  // The node runtime's module wrappers: their import() is refused the same way
  // (the runtime routes the guest's own imports through its VFS loader first).
  setExpressionCompiler((source, filename) =>
    new vm.Script(source, { filename, importModuleDynamically: refuseImport as never }).runInThisContext());
}
