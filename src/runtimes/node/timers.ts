// Timers: the globals and the `timers` / `timers/promises` modules over the event loop.

import type { EventLoop } from './loop.js';
import { hostQueueMicrotask } from './globals.js';

type Fn = (...a: unknown[]) => void;

export function makeTimers(loop: EventLoop) {
  const check = (cb: unknown): Fn => {
    if (typeof cb !== 'function') {
      const e = new TypeError(`The "callback" argument must be of type function. Received ${cb === null ? 'null' : typeof cb}`) as TypeError & { code: string };
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    return cb as Fn;
  };
  return {
    setTimeout: (cb: Fn, ms?: number, ...args: unknown[]) => loop.setTimer(check(cb), ms, args, false),
    setInterval: (cb: Fn, ms?: number, ...args: unknown[]) => loop.setTimer(check(cb), ms, args, true),
    setImmediate: (cb: Fn, ...args: unknown[]) => loop.setImmediate(check(cb), args),
    clearTimeout: (t: unknown) => loop.clearTimer(t),
    clearInterval: (t: unknown) => loop.clearTimer(t),
    clearImmediate: (t: unknown) => loop.clearImmediate(t),
    queueMicrotask: (cb: Fn) => hostQueueMicrotask(() => loop.call(check(cb))),
  };
}

export type Timers = ReturnType<typeof makeTimers>;

export function makeTimersPromises(loop: EventLoop) {
  return {
    setTimeout: <T>(ms?: number, value?: T) => new Promise<T | undefined>((r) => loop.setTimer(() => r(value), ms, [], false)),
    setImmediate: <T>(value?: T) => new Promise<T | undefined>((r) => loop.setImmediate(() => r(value), [])),
    async *setInterval<T>(ms?: number, value?: T) {
      const pending: (() => void)[] = [];
      let fired = 0;
      const t = loop.setTimer(() => { fired++; pending.shift()?.(); }, ms, [], true);
      try {
        for (;;) {
          if (fired === 0) await new Promise<void>((r) => pending.push(r));
          fired--;
          yield value;
        }
      } finally {
        loop.clearTimer(t);
      }
    },
    scheduler: {
      wait: (ms: number) => new Promise<void>((r) => loop.setTimer(() => r(), ms, [], false)),
      yield: () => new Promise<void>((r) => loop.setImmediate(() => r(), [])),
    },
  };
}
