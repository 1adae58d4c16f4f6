// Node host, isolation 'process': loaded with --require before anything else
// in every thread of the VM's process (src/host/node/isolation.ts), it closes
// what Node 20's permission model leaves open to code with a thread's powers:
//
// - New workers: the model lets a worker's own execArgv, or NODE_OPTIONS in
//   its env, turn the model off or grant more (`--allow-worker` "could
//   invalidate the permission model", says Node). Worker is replaced by one
//   that refuses both, and eval, and any file but the VM's own worker scripts
//   (dist/node) and the Wasmer SDK's, so every thread starts with the same
//   flags, and with this guard.
// - Signals: process.kill could stop the embedding process or, with SIGUSR1
//   (as process._debugProcess does), open its inspector, reachable over TCP
//   (the model does not restrict the network); both are refused.
//
// Refusals throw ERR_ACCESS_DENIED, as the permission model's do.

import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir, WASMER_SDK } from '../src/host/node/package-dir.js';

function denied(what: string): Error {
  return Object.assign(new Error(`Access to this API has been restricted: ${what} (agentOS VM process)`), { code: 'ERR_ACCESS_DENIED' });
}

const roots = [__dirname, packageDir(WASMER_SDK, __filename)].filter((d): d is string => d !== null).map((d) => d + sep);

/** The file a worker would run, if it is one of the VM's own scripts. */
function workerScript(file: unknown): string {
  let path: string | null = null;
  if (typeof file === 'string' && !file.startsWith('data:') && !file.startsWith('file:')) path = resolve(file);
  else if (typeof file === 'string' || file instanceof URL) {
    const url = new URL(String(file));
    if (url.protocol === 'file:') path = fileURLToPath(url);
  }
  if (path === null || !roots.some((r) => path.startsWith(r))) throw denied(`a worker from ${String(file)}`);
  return path;
}

// The module's own exports object (an import would give this bundle a copy of it).
const threads = process.getBuiltinModule('node:worker_threads');
const RealWorker = threads.Worker;

function Worker(this: unknown, file: unknown, options?: import('node:worker_threads').WorkerOptions): import('node:worker_threads').Worker {
  if (!new.target) throw new TypeError("Class constructor Worker cannot be invoked without 'new'");
  const o = { ...options }; // read once: a getter cannot answer differently later
  if (o.eval) throw denied('a worker from source text');
  if (o.execArgv !== undefined) throw denied('a worker with Node flags of its own');
  if (o.env !== undefined) throw denied('a worker with an environment of its own (NODE_OPTIONS)');
  return Reflect.construct(RealWorker, [workerScript(file), o], new.target) as import('node:worker_threads').Worker;
}
Worker.prototype = RealWorker.prototype;
// Instances lead back only to the guarded constructor.
Object.defineProperty(RealWorker.prototype, 'constructor', { value: Worker, writable: false, configurable: false });
Object.defineProperty(threads, 'Worker', { value: Worker, writable: false, configurable: false, enumerable: true });
syncBuiltinESMExports(); // import('node:worker_threads') sees it too

const proc = process as unknown as Record<string, unknown>;
delete proc._kill; // what process.kill calls
for (const name of ['kill', '_debugProcess']) {
  Object.defineProperty(process, name, { value: () => { throw denied(`process.${name}`); }, writable: false, configurable: false });
}
