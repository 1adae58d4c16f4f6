// Browser host: a process worker.

import type { RunMessage } from '../src/abi/runtime.js';
import { processMain } from '../src/runtimes/process-main.js';

processMain({
  post: (m) => postMessage(m),
  onMessage: (cb) => addEventListener('message', (e) => cb((e as MessageEvent<RunMessage>).data)),
});
