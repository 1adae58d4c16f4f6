// Node host: a process worker. It keeps its port, then confines itself
// (src/host/node/confine.ts) before any program runs.

import { parentPort } from 'node:worker_threads';
import type { RunMessage } from '../src/abi/runtime.js';
import { confine } from '../src/host/node/confine.js';
import { processMain } from '../src/runtimes/process-main.js';

const port = parentPort!;
confine();

processMain({
  post: (m) => port.postMessage(m),
  onMessage: (cb) => port.on('message', (m: RunMessage) => cb(m)),
});
