// Node host: a process worker. It keeps its port, gives its console and its
// uncaught errors to the running program (src/runtimes/guest-console.ts,
// guest-errors.ts), formats stack traces without host paths
// (src/runtimes/host-frames.ts), then confines itself
// (src/host/node/worker/confine.ts) before any program runs.

import { parentPort } from 'node:worker_threads';
import type { RunMessage } from '../src/abi/runtime.js';
import { confine } from '../src/host/node/worker/confine.js';
import { installGuestConsole } from '../src/runtimes/guest-console.js';
import { takeGuestErrors } from '../src/runtimes/guest-errors.js';
import { hideHostFrames } from '../src/runtimes/host-frames.js';
import { processMain } from '../src/runtimes/process-main.js';

const port = parentPort!;
installGuestConsole();
takeGuestErrors();
hideHostFrames();
confine();

processMain({
  post: (m) => port.postMessage(m),
  onMessage: (cb) => port.on('message', (m: RunMessage) => cb(m)),
});
