// Node host: a process worker.

import { parentPort } from 'node:worker_threads';
import type { RunMessage } from '../src/abi/runtime.js';
import { processMain } from '../src/runtimes/process-main.js';

processMain({
  post: (m) => parentPort!.postMessage(m),
  onMessage: (cb) => parentPort!.on('message', (m: RunMessage) => cb(m)),
});
