// Node host: the process worker's entry (dist/node/process.worker.js). It runs
// the worker's code (workers/process.node.ts, built as one classic script)
// through node:vm with V8's code cache made by the build, so a new worker
// reads compiled bytecode instead of parsing and compiling the bundle again:
// Node 20 has no code cache for ES modules (module.enableCompileCache is Node
// 22). A cache V8 refuses (another Node version or flags) costs a compile, as
// an ES module would; so does a damaged one (its CRC-32 is checked first).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';

/** The script's and the cache's file names, hashed by the build from the script's bytes (so a cache never meets another script). */
declare const __AGENTOS_PROCESS_MAIN__: string;
declare const __AGENTOS_PROCESS_CACHE__: string;

const main = new URL(__AGENTOS_PROCESS_MAIN__, import.meta.url);
function codeCache(): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(new URL(__AGENTOS_PROCESS_CACHE__, import.meta.url));
  } catch {
    return undefined; // not built (a build that failed to make it): compile
  }
  // V8 checks a cache's header, not its bytes (release builds verify no checksum), and damaged bytecode
  // crashes the whole process: the build put a CRC-32 of the cache first, and a cache that fails it is compiled instead.
  const data = file.subarray(4);
  return file.length > 4 && file.readUInt32LE(0) === crc32(data) ? data : undefined;
}
// The script is one function expression (the build wrote it so): its text is read once and kept by V8,
// not copied ('utf8' reads straight into a string, with no buffer of the file between; esbuild writes ASCII).
const script = new vm.Script(readFileSync(main, 'utf8'), { filename: main.href, cachedData: codeCache() });
const run = script.runInThisContext() as (require: NodeJS.Require, url: string, hostImport: (spec: unknown) => Promise<unknown>) => void;
/**
 * The runtimes' import(): the build made each of the script's import() calls one of this (a script's import()
 * callback is lost with the cache on Node 20). On Node they import these three modules, nothing else: guest
 * code shares this realm, and a program that replaces `URL` or `process` in its pooled worker steers the
 * specifier a later process's runtime computes (Pyodide's browser loader imports `base + 'pyodide.mjs'`) to
 * a data: module, which would run with Node's whole loader. So the specifier is compared as a primitive,
 * calling nothing a guest could have replaced.
 */
async function hostImport(spec: unknown): Promise<unknown> {
  if (spec === 'node:fs/promises' || spec === 'node:crypto' || spec === '@wasmer/sdk/node') return import(spec);
  throw new Error('import() of that module is not available to agentOS runtimes on Node');
}
run(createRequire(main), main.href, hostImport);

// The build's own run of this worker makes the cache once the worker's code has loaded (its top level compiled).
if ((workerData as { agentosCodeCache?: boolean } | undefined)?.agentosCodeCache) parentPort!.postMessage({ type: 'code-cache', data: script.createCachedData() });
