// Browser host: a process worker. It keeps its channel to the kernel, gives
// its console and its uncaught errors to the running program
// (src/runtimes/guest-console.ts, guest-errors.ts: the page's devtools console
// hears nothing from programs), formats stack traces without the app's URLs
// (src/runtimes/host-frames.ts), then confines itself
// (src/host/browser/worker/confine.ts) before any program runs.
// The real Worker constructor is kept only inside the Wasmer stand-in
// (src/host/browser/worker/wasmer-workers.ts), installed while a WASIX program runs.

import type { RunMessage } from '../src/abi/runtime.js';
import { confine } from '../src/host/browser/worker/confine.js';
import { wasmerWorkerShim } from '../src/host/browser/worker/wasmer-workers.js';
import { installGuestConsole } from '../src/runtimes/guest-console.js';
import { takeGuestErrors } from '../src/runtimes/guest-errors.js';
import { hideHostFrames } from '../src/runtimes/host-frames.js';
import { processMain } from '../src/runtimes/process-main.js';
import { provideWasmerWorkers } from '../src/runtimes/wasm/wasix-workers.js';

const RealWorker = (globalThis as { Worker?: typeof Worker }).Worker;
installGuestConsole();
takeGuestErrors();
hideHostFrames();
const port = confine();
if (RealWorker) provideWasmerWorkers(() => wasmerWorkerShim(RealWorker));

processMain({
  post: (m) => port.post(m),
  onMessage: (cb) => port.onMessage((d) => cb(d as RunMessage)),
});
