// A syscall that waits on a promise (the persister, the snapshot store): the
// handler starts the work once per call and the caller sleeps on a wait queue
// until it settles, then gets its value or its error.

import { Errno, SysError } from '../../abi/errno.js';
import type { Call } from '../syscall.js';
import { WaitQueue } from '../waitqueue.js';

/** Run `start` once per call; the caller sleeps until it settles, then gets its value or error. */
export function settle<T>(call: Call, start: () => Promise<T>): T | WaitQueue {
  const st = call.state as { done?: boolean; value?: T; error?: unknown; queue?: WaitQueue };
  if (st.done) {
    if (st.error !== undefined) throw st.error instanceof SysError ? st.error : new SysError(Errno.EIO, String((st.error as Error)?.message ?? st.error));
    return st.value as T;
  }
  if (!st.queue) {
    const queue = (st.queue = new WaitQueue());
    const finish = () => { st.done = true; queue.wake(); };
    let promise: Promise<T>;
    try {
      promise = start();
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then((v) => { st.value = v; finish(); }, (e: unknown) => { st.error = e ?? new Error('failed'); finish(); });
  }
  return st.queue;
}
