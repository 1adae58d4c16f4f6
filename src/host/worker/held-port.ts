// A process worker's port for the runner (kernel/runner.ts) that holds what
// the worker posts or throws before the runner listens: the first process
// worker starts before the kernel boots (workers/kernel.*.ts), so its
// 'ready' or its failure to load can come first. What was held is delivered
// after the runner has filed the worker, as a message would come (never from
// inside the factory).

import type { WorkerPort } from '../../kernel/runner.js';

/** The host's worker: how to post to it, end it, and hear each of its messages and errors from its creation on. */
export interface HostWorker<E> {
  post(msg: unknown): void;
  terminate(): void;
  /** Called once, as the worker is created. */
  listen(onMessage: (msg: unknown) => void, onError: (err: E) => void): void;
}

/** `report` gives the runner's error callback the host's error (and says whether it was the heap limit). */
export function heldPort<E>(w: HostWorker<E>, report: (cb: Parameters<WorkerPort['onError']>[0], err: E) => void = (cb, e) => cb(e)): WorkerPort {
  const messages: unknown[] = [];
  const errors: E[] = [];
  let deliver = (m: unknown): void => void messages.push(m);
  let fail = (e: E): void => void errors.push(e);
  w.listen((m) => deliver(m), (e) => fail(e));
  return {
    post: (m) => w.post(m),
    onMessage: (cb) => {
      deliver = cb;
      queueMicrotask(() => messages.splice(0).forEach((m) => cb(m)));
    },
    onError: (cb) => {
      fail = (e) => report(cb, e);
      queueMicrotask(() => errors.splice(0).forEach((e) => fail(e)));
    },
    terminate: () => w.terminate(),
  };
}
