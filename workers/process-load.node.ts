// Node host: the process worker's entry (dist/node/process.worker.js). It runs
// the worker's code (workers/process.node.ts, built as one classic script)
// through node:vm with V8's code cache made by the build, so a new worker
// reads compiled bytecode instead of parsing and compiling the bundle again:
// Node 20 has no code cache for ES modules (module.enableCompileCache is Node
// 22). A cache V8 refuses (another Node version or flags) costs a compile, as
// an ES module would.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';

/** The script's and the cache's file names, hashed by the build from the script's bytes (so a cache never meets another script). */
declare const __AGENTOS_PROCESS_MAIN__: string;
declare const __AGENTOS_PROCESS_CACHE__: string;

const main = new URL(__AGENTOS_PROCESS_MAIN__, import.meta.url);
function codeCache(): Buffer | undefined {
  try {
    return readFileSync(new URL(__AGENTOS_PROCESS_CACHE__, import.meta.url));
  } catch {
    return undefined; // not built (a build that failed to make it): compile
  }
}
// The script is one function expression (the build wrote it so): its text is read once and kept by V8,
// not copied ('utf8' reads straight into a string, with no buffer of the file between; esbuild writes ASCII).
const script = new vm.Script(readFileSync(main, 'utf8'), { filename: main.href, cachedData: codeCache() });
const run = script.runInThisContext() as (require: NodeJS.Require, url: string, hostImport: (spec: string) => Promise<unknown>) => void;
// The runtimes import() the engines they load (Pyodide, the Wasmer SDK) and Node's modules; the build
// made each import() a call of this module's own (a script's import() callback is lost with the cache on Node 20).
run(createRequire(main), main.href, (spec) => import(spec));

// The build's own run of this worker makes the cache once the worker's code has loaded (its top level compiled).
if ((workerData as { agentosCodeCache?: boolean } | undefined)?.agentosCodeCache) parentPort!.postMessage({ type: 'code-cache', data: script.createCachedData() });
