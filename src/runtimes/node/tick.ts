// process.nextTick for the runtime's own modules: the current process's tick queue.

import { hostQueueMicrotask } from './globals.js';

let current: ((cb: () => void) => void) | null = null;

export function setTickQueue(q: ((cb: () => void) => void) | null): void {
  current = q;
}

export function tick(cb: () => void): void {
  if (current) current(cb);
  else hostQueueMicrotask(cb);
}
