// Node host, isolation 'process': loaded with --require before anything else
// in every thread of the VM's process (src/host/node/isolation.ts), it closes
// what Node 20's permission model leaves open to code with a thread's powers:
//
// - New workers: the model lets a worker's own execArgv, or NODE_OPTIONS in
//   its env, turn the model off or grant more (`--allow-worker` "could
//   invalidate the permission model", says Node). Worker is replaced by one
//   that refuses both, and eval, and any file but the VM's own worker scripts
//   (dist/node) and the Wasmer SDK's, so every thread starts with the same
//   flags, and with this guard. Node gets a copy of the options it checked,
//   with no prototype: a getter could otherwise answer the check and Node
//   differently. The only other way to the unguarded class is the one
//   subclass Node makes, for the loader-hooks thread `module.register` starts
//   (and publishes on diagnostics_channel): register is refused.
// - Signals: process.kill could stop the embedding process or, with SIGUSR1
//   (as process._debugProcess does), open its inspector, reachable over TCP
//   (the model does not restrict the network); both are refused, and so is
//   renicing another process (os.setPriority).
// - What writes files past the model: trace_events' trace file (in the
//   process's working directory).
// - V8's flags (v8.setFlagsFromString): --allow-natives-syntax and flags
//   that turn V8's own checks off are a short way to native code.
//
// Refusals throw ERR_ACCESS_DENIED, as the permission model's do.

import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';
import { packageDir, WASMER_SDK } from '../src/host/node/package-dir.js';

function denied(what: string): Error {
  return Object.assign(new Error(`Access to this API has been restricted: ${what} (agentOS VM process)`), { code: 'ERR_ACCESS_DENIED' });
}

/** Replace `obj[name]` for good (non-writable, non-configurable). */
function pin(obj: object, name: string, value: unknown): void {
  Object.defineProperty(obj, name, { value, writable: false, configurable: false, enumerable: true });
}

const refuse = (what: string) => () => {
  throw denied(what);
};

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

/** Options a worker may not have, and why. */
const FORBIDDEN: [keyof WorkerOptions, string][] = [
  ['eval', 'a worker from source text'],
  ['execArgv', 'a worker with Node flags of its own'],
  ['env', 'a worker with an environment of its own (NODE_OPTIONS)'],
];

/** The options as Node will see them: own properties, each read once, on an object with no prototype. */
function workerOptions(options: unknown): WorkerOptions {
  const o = Object.create(null) as WorkerOptions;
  if (options === undefined || options === null) return o;
  if (typeof options !== 'object') throw new TypeError('The "options" argument must be of type object');
  Object.assign(o, options);
  for (const [name, what] of FORBIDDEN) {
    // Inherited ones too: Node would not see them in the copy, but they say what the caller meant.
    if (o[name] !== undefined || (!Object.hasOwn(o, name) && name in options)) throw denied(what);
  }
  return o;
}

// The module's own exports object (an import would give this bundle a copy of it).
const threads = process.getBuiltinModule('node:worker_threads');
const RealWorker = threads.Worker;

function Worker(this: unknown, file: unknown, options?: WorkerOptions): import('node:worker_threads').Worker {
  if (!new.target) throw new TypeError("Class constructor Worker cannot be invoked without 'new'");
  const o = workerOptions(options);
  return Reflect.construct(RealWorker, [workerScript(file), o], new.target) as import('node:worker_threads').Worker;
}
Worker.prototype = RealWorker.prototype;
// Instances lead back only to the guarded constructor.
Object.defineProperty(RealWorker.prototype, 'constructor', { value: Worker, writable: false, configurable: false });
pin(threads, 'Worker', Worker);
pin(process.getBuiltinModule('node:module'), 'register', refuse('loader hooks (module.register)'));

const proc = process as unknown as Record<string, unknown>;
delete proc._kill; // what process.kill calls
for (const name of ['kill', '_debugProcess']) {
  Object.defineProperty(process, name, { value: refuse(`process.${name}`), writable: false, configurable: false });
}

const os = process.getBuiltinModule('node:os');
const setPriority = os.setPriority;
pin(os, 'setPriority', (pid: number, priority?: number) => {
  // setPriority(priority) and setPriority(0 or this pid, priority) concern this process only.
  if (priority !== undefined && pid !== 0 && pid !== process.pid) throw denied('os.setPriority of another process');
  return priority === undefined ? setPriority(pid) : setPriority(pid, priority);
});
// Only the main thread may trace (the module throws on load in workers).
if (threads.isMainThread) pin(process.getBuiltinModule('node:trace_events'), 'createTracing', refuse('trace_events'));
pin(process.getBuiltinModule('node:v8'), 'setFlagsFromString', refuse('v8.setFlagsFromString'));

syncBuiltinESMExports(); // import() of these modules sees the same
