// Browser host: a process worker. It keeps its channel to the kernel, then
// confines itself (src/host/browser/confine.ts) before any program runs.

import type { RunMessage } from '../src/abi/runtime.js';
import { confine } from '../src/host/browser/confine.js';
import { processMain } from '../src/runtimes/process-main.js';

const port = confine();

processMain({
  post: (m) => port.post(m),
  onMessage: (cb) => port.onMessage((d) => cb(d as RunMessage)),
});
